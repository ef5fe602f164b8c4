// The Local Harness chat webview as tests see it: accessible names and the classes the contract names.
import type { Frame, FrameLocator, Locator } from 'playwright-core';
import { EXTENSION_ID } from './paths';
import type { Workbench } from './workbench';

export type ToolStatus = 'running' | 'done' | 'error' | 'denied';

export class ChatPanel {
  readonly frame: FrameLocator;

  constructor(private readonly workbench: Workbench) {
    this.frame = workbench.webview(EXTENSION_ID);
  }

  get message(): Locator {
    return this.frame.getByRole('textbox', { name: 'Message', exact: true });
  }
  get sendButton(): Locator {
    return this.frame.getByRole('button', { name: 'Send', exact: true });
  }
  get stopButton(): Locator {
    return this.frame.getByRole('button', { name: 'Stop', exact: true });
  }
  get newChatButton(): Locator {
    return this.frame.getByRole('button', { name: 'New chat', exact: true });
  }
  get modelPicker(): Locator {
    return this.frame.getByRole('combobox', { name: 'Model', exact: true });
  }
  /** The context meter (role meter) — its aria-valuetext says "used / available tokens". */
  get contextMeter(): Locator {
    return this.frame.locator('meter[aria-label="Context"], [role="meter"][aria-label="Context"]').first();
  }
  get assistantMessages(): Locator {
    return this.frame.locator('.message-assistant');
  }
  get userMessages(): Locator {
    return this.frame.locator('.message-user');
  }
  get errorMessages(): Locator {
    return this.frame.locator('.message-error');
  }
  get notices(): Locator {
    return this.frame.locator('.message-notice');
  }
  get toolCards(): Locator {
    return this.frame.locator('.tool-card');
  }
  toolCard(name: string): Locator {
    return this.toolCards.filter({ hasText: name });
  }

  /** Open the Local Harness container from the activity bar and wait for the chat to be usable. */
  async open(timeoutMs = 60_000): Promise<void> {
    const item = this.workbench.activityBarItem('Local Harness');
    await item.waitFor({ state: 'visible', timeout: timeoutMs });
    // Clicking the container while it is already showing collapses the side bar: only click when the
    // side bar is hidden or shows another container.
    // The workbench may still be restoring its layout when we first look, so check again until it shows.
    const sideBarTitle = this.workbench.page.locator('.part.sidebar .composite.title');
    const deadline = Date.now() + timeoutMs;
    while (!(await this.message.isVisible().catch(() => false))) {
      if (Date.now() > deadline) await this.message.waitFor({ state: 'visible', timeout: 1 });
      const showing = (await sideBarTitle.isVisible().catch(() => false)) && /local harness/i.test(await sideBarTitle.innerText().catch(() => ''));
      if (!showing) await item.click();
      await this.message.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => undefined);
    }
  }

  /** Type a message and press Send. */
  async send(text: string): Promise<void> {
    await this.message.fill(text);
    await this.sendButton.click();
  }

  /**
   * Back to an empty, idle chat whatever the previous test left: a pending approval dialog is cancelled
   * (which denies), a running turn is stopped, then "New chat".
   */
  async reset(): Promise<void> {
    const dialog = this.workbench.dialog();
    if (await dialog.isVisible().catch(() => false)) await this.workbench.answerDialog('Cancel').catch(() => undefined);
    if (await this.stopButton.isEnabled().catch(() => false)) await this.stopButton.click().catch(() => undefined);
    await this.waitIdle(15_000);
    await this.newChatButton.click();
    await waitUntil(async () => (await this.frame.locator('.message, .tool-card').count()) === 0, 10_000, 'the chat to be empty');
  }

  /** Idle = no turn running (Stop is disabled). */
  async waitIdle(timeoutMs = 30_000): Promise<void> {
    await this.frame.locator('.app:not([data-busy="true"])').waitFor({ state: 'attached', timeout: timeoutMs });
    await waitUntil(async () => await this.stopButton.isDisabled(), timeoutMs, 'the turn to end (Stop disabled)');
  }

  async waitBusy(timeoutMs = 15_000): Promise<void> {
    await waitUntil(async () => await this.stopButton.isEnabled(), timeoutMs, 'a turn to start (Stop enabled)');
  }

  async waitToolStatus(name: string, status: ToolStatus, timeoutMs = 30_000): Promise<Locator> {
    const card = this.toolCard(name).and(this.frame.locator(`[data-status="${status}"]`)).last();
    await card.waitFor({ state: 'visible', timeout: timeoutMs });
    return card;
  }

  /** The webview document's Frame, for evaluating script in the page the extension's HTML lives in. */
  async contentFrame(): Promise<Frame> {
    const outer = await this.workbench.page
      .locator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"]`)
      .elementHandle({ timeout: 30_000 });
    const outerFrame = await outer?.contentFrame();
    if (!outerFrame) throw new Error('the Local Harness webview iframe is not there');
    const inner = await outerFrame.locator('#active-frame').elementHandle({ timeout: 30_000 });
    const frame = await inner?.contentFrame();
    if (!frame) throw new Error('the webview has no active frame');
    return frame;
  }
}

/** What a locator shows, with the non-breaking spaces editors render turned back into spaces. */
export async function shownText(locator: Locator): Promise<string> {
  return (await locator.innerText()).replace(/\u00a0/g, ' ');
}

export async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
