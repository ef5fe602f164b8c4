// Drives the VS Code workbench in Chromium: open a folder, run palette commands, answer modal dialogs, screenshots.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type FrameLocator, type Locator, type Page } from 'playwright-core';
import { ARTIFACTS, CHROMIUM, EXTENSION_ID } from './paths';

/** Flags that work on these machines (E2E.md): no sandbox as root, no GPU, nothing phoning home. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface DialogInfo {
  message: string;
  detail: string;
  buttons: string[];
}

const KEEP_CONSOLE_LINES = 2000;

export class Workbench {
  /** Console output and uncaught errors of the workbench and its webviews (bounded), for failure reports. */
  readonly consoleLines: string[] = [];

  private constructor(
    readonly browser: Browser,
    readonly page: Page,
    private readonly folderUrl: string,
    private readonly screenshotPrefix: string,
  ) {}

  static async open(serverUrl: string, folder: string, screenshotPrefix: string): Promise<Workbench> {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      const folderUrl = `${serverUrl}/?folder=${encodeURIComponent(folder)}`;
      const workbench = new Workbench(browser, page, folderUrl, screenshotPrefix);
      const record = (line: string) => {
        workbench.consoleLines.push(`${new Date().toISOString()} ${line}`);
        if (workbench.consoleLines.length > KEEP_CONSOLE_LINES) workbench.consoleLines.shift();
      };
      page.on('console', (msg) => record(`[${msg.type()}] ${msg.location().url.slice(0, 120)} ${msg.text()}`));
      page.on('pageerror', (err) => record(`[pageerror] ${err.stack ?? err.message}`));
      await workbench.load();
      return workbench;
    } catch (err) {
      await browser.close();
      throw err;
    }
  }

  /** Navigate to the folder and wait until the workbench is interactive. */
  private async load(): Promise<void> {
    await this.page.goto(this.folderUrl);
    await this.waitForWorkbench();
  }

  async waitForWorkbench(): Promise<void> {
    await this.page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 60_000 });
    // The explorer shows the opened folder once the remote file system answers.
    await this.page.locator('.part.statusbar').waitFor({ state: 'visible', timeout: 60_000 });
  }

  /** The activity-bar entry of a views container, by its title. */
  activityBarItem(title: string) {
    return this.page.locator(`.activitybar .action-item a[aria-label^="${title}"]`).first();
  }

  /** Run a command by its palette label, e.g. "Local Harness: New Chat". */
  /** `opensInput`: the command shows its own input box, so the palette's widget stays visible (with its prompt). */
  async runCommand(label: string, options: { opensInput?: boolean } = {}): Promise<void> {
    const input = this.page.locator('.quick-input-widget input');
    for (let attempt = 0; attempt < 3; attempt++) {
      // Keyboard focus may sit inside a webview iframe, which swallows F1: refocus the workbench first.
      if (attempt > 0) await this.focusWorkbench();
      await this.page.keyboard.press('F1');
      try {
        await input.waitFor({ state: 'visible', timeout: 3_000 });
        break;
      } catch {
        if (attempt === 2) throw new Error('the command palette did not open');
      }
    }
    await input.fill(`>${label}`);
    const row = this.page.locator('.quick-input-list .monaco-list-row.focused');
    await row.waitFor({ state: 'visible', timeout: 10_000 });
    const rowLabel = (await row.getAttribute('aria-label')) ?? (await row.innerText());
    if (!rowLabel.toLowerCase().includes(label.toLowerCase())) {
      await this.page.keyboard.press('Escape');
      throw new Error(`no command "${label}" in the palette (first match: "${rowLabel}")`);
    }
    await this.page.keyboard.press('Enter');
    if (options.opensInput) {
      await waitForNot(input, '>', 10_000);
      return;
    }
    await input.waitFor({ state: 'hidden', timeout: 10_000 });
  }

  async focusWorkbench(): Promise<void> {
    await this.page.locator('.part.statusbar').click({ position: { x: 2, y: 2 } }).catch(() => undefined);
  }

  /** Opens a workspace file (relative path) through Quick Open and waits until its editor is the active one. */
  async openFile(relPath: string): Promise<Locator> {
    const input = this.page.locator('.quick-input-widget input');
    await this.focusWorkbench();
    await this.page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    // Without the ">" the palette searches files by name.
    await input.fill(relPath);
    const base = path.posix.basename(relPath);
    const row = this.page.locator('.quick-input-list .monaco-list-row.focused').filter({ hasText: base });
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    await this.page.keyboard.press('Enter');
    await input.waitFor({ state: 'hidden', timeout: 10_000 });
    await this.page.locator('.tabs-container .tab.active').filter({ hasText: base }).waitFor({ state: 'visible', timeout: 15_000 });
    const editor = this.page.locator('.editor-group-container.active .monaco-editor').first();
    await editor.waitFor({ state: 'visible', timeout: 15_000 });
    return editor;
  }

  /** Puts the cursor of the active editor on a 1-based line (Go to Line), with the editor focused. */
  async goToLine(line: number): Promise<void> {
    await this.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await this.page.keyboard.press('Control+G');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(`:${line}`);
    await this.page.keyboard.press('Enter');
    await input.waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /** The code action menu (Ctrl+. in the focused editor): waits for it and returns the titles it lists. */
  async openCodeActions(timeoutMs = 45_000): Promise<string[]> {
    const rows = this.codeActionRows();
    // The menu waits for every provider (a language server still starting answers late); a press that landed
    // before the editor took focus opens nothing: press again.
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.page.keyboard.press('Control+Period');
      const shown = await rows
        .first()
        .waitFor({ state: 'visible', timeout: Math.max(1, Math.min(10_000, deadline - Date.now())) })
        .then(() => true, () => false);
      if (shown) break;
      if (Date.now() >= deadline) throw new Error(`the code action menu did not open within ${timeoutMs} ms`);
      await this.page.keyboard.press('Escape');
    }
    return (await rows.allInnerTexts()).map((t) => t.trim().split('\n')[0]!.trim());
  }

  codeActionRows(): Locator {
    return this.page.locator('.action-widget .monaco-list-row.action');
  }

  async chooseCodeAction(title: string): Promise<void> {
    await this.codeActionRows().filter({ hasText: title }).first().click();
    await this.codeActionRows().first().waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /** The quick pick shown now (createQuickPick / showQuickPick): its title and the labels of its items. */
  async waitForQuickPick(title: string | RegExp, timeoutMs = 30_000): Promise<{ title: string; items: string[] }> {
    const widget = this.page.locator('.quick-input-widget');
    const titleBox = widget.locator('.quick-input-title');
    const deadline = Date.now() + timeoutMs;
    let shown = '';
    for (;;) {
      shown = (await titleBox.innerText().catch(() => '')).trim();
      const matches = typeof title === 'string' ? shown === title : title.test(shown);
      if (matches && (await widget.isVisible().catch(() => false))) break;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for the quick pick "${title}" (showing: "${shown}")`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // A row's first label is the item's label; a detail line is a second label below it.
    const rows = widget.locator('.quick-input-list .monaco-list-row');
    const items: string[] = [];
    for (let i = 0; i < (await rows.count()); i++) items.push((await rows.nth(i).locator('.label-name').first().innerText()).trim());
    return { title: shown, items };
  }

  /** Clicks the quick pick item whose label is exactly `label` and waits for the quick pick to close. */
  async chooseQuickPickItem(label: string): Promise<void> {
    const widget = this.page.locator('.quick-input-widget');
    const row = widget
      .locator('.quick-input-list .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) }) })
      .first();
    await row.click();
    await widget.waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /** A view (pane) of the side bar by its title, e.g. "Knowledge". */
  sideBarView(title: string): Locator {
    return this.page
      .locator('.part.sidebar .pane')
      .filter({ has: this.page.locator('.pane-header .title', { hasText: new RegExp(`^\\s*${escapeRegExp(title)}\\s*$`, 'i') }) });
  }

  /** The rows of a tree view in the side bar; `aria-label` carries each item's accessible label. */
  treeRows(viewTitle: string): Locator {
    return this.sideBarView(viewTitle).locator('.pane-body .monaco-list-row');
  }

  /** The accessible labels of a tree view's rows, top to bottom. */
  async treeLabels(viewTitle: string): Promise<string[]> {
    const rows = this.treeRows(viewTitle);
    const labels: string[] = [];
    for (let i = 0; i < (await rows.count()); i++) labels.push(((await rows.nth(i).getAttribute('aria-label')) ?? (await rows.nth(i).innerText())).trim());
    return labels;
  }

  /** The modal dialog (showWarningMessage with modal: true renders as HTML in the browser). */
  dialog() {
    return this.page.locator('.monaco-dialog-box');
  }

  async waitForDialog(timeoutMs = 30_000): Promise<DialogInfo> {
    const box = this.dialog();
    await box.waitFor({ state: 'visible', timeout: timeoutMs });
    const message = (await box.locator('.dialog-message-text').innerText().catch(() => '')).trim();
    const detail = (await box.locator('.dialog-message-detail').innerText().catch(() => '')).trim();
    const buttons = (await box.locator('.dialog-buttons a, .dialog-buttons button').allInnerTexts()).map((b) => b.trim());
    return { message, detail, buttons };
  }

  /** Click a dialog button by its exact name and wait for the dialog to close. */
  async answerDialog(button: string): Promise<void> {
    const box = this.dialog();
    await box.getByRole('button', { name: button, exact: true }).click();
    await box.waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /** Notification toasts currently shown. */
  async notifications(): Promise<string[]> {
    return (await this.page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts()).map((t) => t.trim());
  }

  /** The extension's webview content, two iframes deep. */
  webview(extensionId = EXTENSION_ID): FrameLocator {
    return this.page
      .frameLocator(`iframe.webview.ready[src*="extensionId=${extensionId}"]`)
      .frameLocator('#active-frame');
  }

  /**
   * The activation time VS Code itself measured for an extension ("Developer: Show Running Extensions"),
   * e.g. { text: "Activation: 12ms", ms: 12, reason: "Activated by … on onView:…" }.
   */
  async extensionActivationTime(displayName: string): Promise<{ text: string; ms: number; reason: string }> {
    await this.runCommand('Developer: Show Running Extensions');
    const editor = this.page.locator('.runtime-extensions-editor');
    const row = editor
      .locator('.monaco-list-row')
      .filter({ has: this.page.locator('.name', { hasText: new RegExp(`^${escapeRegExp(displayName)}$`) }) });
    const time = row.locator('.activation-time');
    await time.waitFor({ state: 'visible', timeout: 15_000 });
    const text = (await time.innerText()).trim();
    await time.hover();
    const hover = this.page.locator('.monaco-hover, .workbench-hover').filter({ hasText: 'Activated' }).first();
    const reason = (await hover.innerText({ timeout: 5_000 }).catch(() => '')).trim();
    await this.page.mouse.move(0, 0);
    await this.page.keyboard.press('Escape');
    if (await editor.isVisible()) await this.page.keyboard.press('Escape');
    await editor.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    const ms = Number(/([\d.]+)\s*ms/.exec(text)?.[1] ?? NaN);
    return { text, ms, reason };
  }

  /** Screenshot of the whole window into test-artifacts/e2e/<prefix>-<name>.png; returns the path. */
  async screenshot(name: string): Promise<string> {
    mkdirSync(ARTIFACTS, { recursive: true });
    const file = path.join(ARTIFACTS, `${this.screenshotPrefix}-${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  /** Reload the browser window (like "Developer: Reload Window" for the web workbench). */
  async reload(): Promise<void> {
    await this.page.reload();
    await this.waitForWorkbench();
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Until the input no longer holds the palette's `>` text (the command's own box replaced it). */
async function waitForNot(input: Locator, prefix: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await input.inputValue().catch(() => prefix);
    if (!value.startsWith(prefix)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the command's input box did not replace the command palette within ${timeoutMs} ms`);
}
