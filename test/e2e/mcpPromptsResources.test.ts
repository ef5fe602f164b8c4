// MCP prompts and resources in a real VS Code (issue 14), with the published @modelcontextprotocol/server-everything
// over stdio from a workspace `.vscode/mcp.json`. The MCP Servers view lists its resources and prompts; typing `/`
// suggests the prompts; `/everything.args-prompt` asks its arguments in input boxes (Escape gives the text back,
// nothing sent) and the scripted model gets the prompt's text as the user's turn. Resources attach as chips
// (palette, view, the "@" button with a template), removable, and their text reaches the model when sent.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { shownText, waitUntil } from '../helpers/e2e/chatPanel';
import { contentText, markerScript } from '../helpers/e2e/markerScript';
import { REPO_ROOT } from '../helpers/e2e/paths';
import { E2ESession } from '../helpers/e2e/session';
import type { ChatBody } from '../helpers/fakeLlm';

const EVERYTHING_DIR = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything');
const EVERYTHING_BIN = path.join(EVERYTHING_DIR, 'dist/index.js');
const ARCHITECTURE_URI = 'demo://resource/static/document/architecture.md';
/** A line of the document the server serves, to find in what the model got. */
const ARCHITECTURE_LINE = readFileSync(path.join(EVERYTHING_DIR, 'dist/docs/architecture.md'), 'utf8').split('\n')[0]!;

const MCP_JSON = JSON.stringify({ servers: { everything: { type: 'stdio', command: process.execPath, args: [EVERYTHING_BIN] } } }, null, 2);

const PROMPT_TEXT = "What's weather in Paris?";
const RESOURCE_MARKER = '[[resources]]';

const script = markerScript({
  [PROMPT_TEXT]: [{ text: 'Mild and cloudy in Paris today.' }],
  [RESOURCE_MARKER]: [
    (body) => {
      const sent = lastUserText(body);
      const ok = sent.includes(ARCHITECTURE_LINE) && /Resource 3: This is a plaintext resource/.test(sent);
      return { text: ok ? 'Both resources arrived.' : `UNEXPECTED message: ${sent.slice(0, 300)}` };
    },
  ],
});

let session: E2ESession;

before(async () => {
  session = await E2ESession.start({ name: 'mcpPromptsResources', script, files: { '.vscode/mcp.json': MCP_JSON, 'README.md': '# prompts and resources\n' } });
}, { timeout: 240_000 });

after(async () => {
  await session?.close();
}, { timeout: 60_000 });

function lastUserText(body: ChatBody): string {
  return contentText((body.messages ?? []).filter((m) => m.role === 'user').at(-1)?.content);
}

function requestsFor(text: string): ChatBody[] {
  return (session.llm.requests as ChatBody[]).filter((body) => lastUserText(body).includes(text));
}

/** The "MCP Servers" section of the side bar, expanded. */
async function mcpView(): Promise<Locator> {
  const page = session.workbench.page;
  const header = page.locator('.pane-header').filter({ hasText: 'MCP Servers' }).first();
  await header.waitFor({ state: 'visible', timeout: 15_000 });
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  const pane = page.locator('.pane').filter({ has: header });
  await pane.locator('.pane-body').waitFor({ state: 'visible', timeout: 10_000 });
  return pane;
}

/** A tree row by its label, expanded if it has children. */
async function expandRow(pane: Locator, label: RegExp): Promise<Locator> {
  const row = pane.locator('.monaco-list-row').filter({ has: session.workbench.page.locator('.label-name', { hasText: label }) }).first();
  await row.waitFor({ state: 'visible', timeout: 15_000 });
  if ((await row.getAttribute('aria-expanded')) === 'false') await row.click();
  await waitUntil(async () => (await row.getAttribute('aria-expanded')) === 'true', 10_000, `${label} to expand`);
  return row;
}

/** The input box shown now: its title (VS Code shows it as the widget's title) once it is there. */
async function inputBox(title: string): Promise<Locator> {
  const widget = session.workbench.page.locator('.quick-input-widget');
  await waitUntil(async () => (await widget.isVisible()) && (await widget.locator('.quick-input-title').innerText().catch(() => '')).trim() === title, 20_000, `the input box "${title}"`);
  return widget.locator('input');
}

/** Runs a palette command whose QuickPick replaces the palette at once (the widget never closes in between). */
async function commandOpeningQuickPick(label: string): Promise<void> {
  const page = session.workbench.page;
  const input = page.locator('.quick-input-widget input');
  await session.workbench.focusWorkbench();
  await page.keyboard.press('F1');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`>${label}`);
  await page.locator('.quick-input-list .monaco-list-row.focused').filter({ hasText: label.split(': ')[1]! }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
}

const resourceChip = (label: string) => session.chat.frame.locator('.attachment-chip.attachment-resource').filter({ hasText: label });

describe('MCP prompts and resources in the editor', { timeout: 300_000 }, () => {
  test('the allowed server is ready; the MCP Servers view lists its resources and prompts', async () => {
    await session.step('view', async () => {
      const wb = session.workbench;
      await wb.activityBarItem('Local Harness').click();
      const consent = await wb.waitForDialog(60_000);
      assert.match(consent.message, /Start the MCP server "everything" defined by this workspace\?/);
      await wb.answerDialog('Allow');
      await session.chat.message.waitFor({ state: 'visible', timeout: 30_000 });

      const pane = await mcpView();
      const server = pane.locator('.monaco-list-row[aria-label^="everything: "]').first();
      await waitUntil(async () => /^everything: ready with \d+ tools?$/.test((await server.getAttribute('aria-label').catch(() => null)) ?? ''), 60_000, 'everything to be ready');
      await expandRow(pane, /^everything$/);
      // Right under the server, above its tools.
      await pane.locator('.monaco-list-row').filter({ hasText: 'Prompts (4)' }).first().waitFor({ timeout: 10_000 });
      const resources = await expandRow(pane, /^Resources \(\d+\)$/);
      const count = Number(/\((\d+)\)/.exec(await resources.innerText())![1]);
      assert.ok(count >= 9, `7 documents and 2 templates at least (${count})`);
      const doc = pane.locator('.monaco-list-row').filter({ has: session.workbench.page.locator('.label-name', { hasText: /^architecture\.md$/ }) }).first();
      await doc.waitFor({ timeout: 10_000 });
      const row = await doc.innerText();
      assert.ok(row.startsWith('architecture.md') && row.includes(ARCHITECTURE_URI), `the name and the uri: ${row}`);
      await session.screenshot('01-view-resources-prompts');
    });
  });

  test('"/" suggests the prompts; Escape in an argument box gives the text back and sends nothing', async () => {
    await session.step('slash suggestions', async () => {
      const chat = session.chat;
      await chat.message.click();
      await chat.message.pressSequentially('/args');
      const list = chat.frame.getByRole('listbox', { name: 'Prompts' });
      await list.waitFor({ state: 'visible', timeout: 15_000 });
      const option = list.getByRole('option').first();
      assert.match(await shownText(option), /^\/everything\.args-prompt\s*Arguments Prompt \u2014 A prompt with two arguments, one required and one optional$/);
      assert.equal(await option.getAttribute('aria-selected'), 'true');
      await session.screenshot('02-slash-suggestions');
      await chat.message.press('Enter');
      await list.waitFor({ state: 'hidden', timeout: 5_000 });
      assert.equal(await chat.message.inputValue(), '/everything.args-prompt ', 'Enter picked the prompt; nothing was sent');

      const before = session.llm.requests.length;
      await chat.message.press('Enter');
      const city = await inputBox('/everything.args-prompt (1/2)');
      await session.screenshot('03-argument-input-box');
      await city.press('Escape');
      await waitUntil(async () => (await chat.message.inputValue()) === '/everything.args-prompt ', 15_000, 'the command back in the message box');
      assert.equal(session.llm.requests.length, before, 'nothing reached the model');
      assert.equal(await chat.userMessages.count(), 0);
    });
  });

  test('/everything.args-prompt asks city (required) and state (optional); the model gets the prompt\u2019s text as the user\u2019s turn', async () => {
    await session.step('slash prompt', async () => {
      const chat = session.chat;
      await chat.message.focus();
      await chat.message.press('Enter');
      const city = await inputBox('/everything.args-prompt (1/2)');
      // Required: an empty value is refused with a message, the box stays.
      await city.press('Enter');
      await session.workbench.page.locator('.quick-input-message').filter({ hasText: 'city is required' }).waitFor({ timeout: 10_000 });
      await city.fill('Paris');
      await city.press('Enter');
      const state = await inputBox('/everything.args-prompt (2/2)');
      await state.press('Enter');

      const user = chat.userMessages.filter({ hasText: PROMPT_TEXT }).last();
      await user.waitFor({ state: 'visible', timeout: 30_000 });
      await chat.assistantMessages.filter({ hasText: 'Mild and cloudy in Paris' }).waitFor({ timeout: 30_000 });
      await chat.waitIdle();
      assert.equal(await chat.message.inputValue(), '', 'the command left the box once it ran');
      const sent = requestsFor(PROMPT_TEXT);
      assert.ok(sent.length >= 1, 'the prompt reached the model');
      assert.equal(lastUserText(sent[0]!), PROMPT_TEXT, 'the user turn is exactly the prompt\u2019s message');
      await session.screenshot('04-prompt-answered');
    });
  });

  test('resources attach as chips from the palette, the view and the "@" button; × removes one; their text reaches the model', async () => {
    await session.step('resource chips', async () => {
      const wb = session.workbench;
      const chat = session.chat;
      await commandOpeningQuickPick('Local Harness: Attach MCP Resource…');
      const pick = await wb.waitForQuickPick('Local Harness: Attach MCP Resource');
      assert.ok(pick.items.includes('architecture.md') && pick.items.includes('Dynamic Text Resource'), `items: ${pick.items.join(', ')}`);
      await wb.chooseQuickPickItem('architecture.md');
      const doc = resourceChip('@architecture.md');
      await doc.waitFor({ state: 'visible', timeout: 15_000 });
      assert.equal(await doc.getAttribute('title'), `everything:${ARCHITECTURE_URI} (MCP resource, read when the message is sent)`);
      await session.screenshot('05-resource-chip');
      await chat.frame.getByRole('button', { name: `Remove everything:${ARCHITECTURE_URI}`, exact: true }).click();
      await doc.waitFor({ state: 'detached', timeout: 15_000 });

      // From the MCP Servers view: a click on the resource attaches it again.
      const pane = await mcpView();
      await pane.locator('.monaco-list-row').filter({ has: wb.page.locator('.label-name', { hasText: /^architecture\.md$/ }) }).first().click();
      await doc.waitFor({ state: 'visible', timeout: 15_000 });

      // The chat's "@" button: a template, filled in an input box.
      await chat.frame.getByRole('button', { name: 'Attach MCP resource', exact: true }).click();
      await wb.waitForQuickPick('Local Harness: Attach MCP Resource');
      // The template's input box follows in the same widget, so it does not close in between.
      await wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ has: wb.page.locator('.label-name', { hasText: /^\s*Dynamic Text Resource\s*$/ }) }).first().click();
      const id = await inputBox('Dynamic Text Resource');
      await id.fill('3');
      await id.press('Enter');
      const dynamic = resourceChip('@Dynamic Text Resource: 3');
      await dynamic.waitFor({ state: 'visible', timeout: 15_000 });
      await session.screenshot('06-two-resource-chips');

      await chat.send(`${RESOURCE_MARKER} What do these say?`);
      const user = chat.userMessages.filter({ hasText: 'What do these say?' }).last();
      await user.waitFor({ state: 'visible', timeout: 30_000 });
      // The message's own text (the bubble also holds its "Restore to here" button since checkpoints).
      assert.match(await shownText(user.locator('.message-body')), new RegExp(`\\nAttached: everything:${ARCHITECTURE_URI.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \u00b7 everything:demo://resource/dynamic/text/3$`));
      await chat.assistantMessages.filter({ hasText: /Both resources arrived|UNEXPECTED/ }).waitFor({ timeout: 30_000 });
      await chat.waitIdle();
      assert.equal(await chat.assistantMessages.filter({ hasText: 'UNEXPECTED' }).count(), 0, 'the resources\u2019 text reached the model');
      const sent = lastUserText(requestsFor(RESOURCE_MARKER)[0]!);
      assert.ok(sent.includes(`\neverything:${ARCHITECTURE_URI}\n\`\`\`markdown\n${ARCHITECTURE_LINE}\n`), sent.slice(0, 400));
      assert.ok(sent.endsWith(`\n\n${RESOURCE_MARKER} What do these say?`), sent.slice(-200));
      assert.equal(await chat.frame.locator('.attachment-chip').count(), 0, 'the sent chips left the message box');
      await session.screenshot('07-resources-answered');
    });
  });

  test('the extension host logged no errors from Local Harness', () => {
    const errors = session.extensionHostErrors();
    assert.deepEqual(errors, [], `errors in the extension host log:\n${errors.slice(0, 3).join('\n\n')}`);
  });
});
