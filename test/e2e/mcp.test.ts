// MCP servers in a real VS Code: a workspace `.vscode/mcp.json` defines two instances of the published
// `@modelcontextprotocol/server-memory`. Opening the chat asks for consent with the exact command line; the
// allowed one shows as ready in the "MCP Servers" view and a scripted model calls its tool; the denied one stays
// blocked and its tools never reach the model.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { waitUntil } from '../helpers/e2e/chatPanel';
import { markerScript, toolResults } from '../helpers/e2e/markerScript';
import { REPO_ROOT } from '../helpers/e2e/paths';
import { E2ESession } from '../helpers/e2e/session';
import type { ChatBody } from '../helpers/fakeLlm';

const MEMORY_BIN = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');

const MCP_JSON = JSON.stringify(
  {
    servers: {
      memory: { type: 'stdio', command: process.execPath, args: [MEMORY_BIN], env: { MEMORY_FILE_PATH: '${workspaceFolder}/memory.jsonl' } },
      notes: { type: 'stdio', command: process.execPath, args: [MEMORY_BIN], env: { MEMORY_FILE_PATH: '${workspaceFolder}/notes.jsonl' } },
    },
  },
  null,
  2,
);

const toolNames = (body: ChatBody): string[] =>
  ((body.tools as Array<{ function?: { name?: string } }> | undefined) ?? []).map((t) => t.function?.name ?? '');

/** What the model was offered in the last tool-carrying request, for the assertions below. */
let offered: string[] = [];

const script = markerScript({
  '[[remember]]': [
    (body) => {
      offered = toolNames(body);
      return {
        toolCalls: [
          { name: 'memory__create_entities', arguments: { entities: [{ name: 'Alice', entityType: 'person', observations: ['drinks green tea'] }] } },
        ],
      };
    },
    (body) => ({
      text: toolResults(body).some((r) => r.includes('"Alice"') && r.includes('green tea'))
        ? 'I stored Alice in the memory server.'
        : `UNEXPECTED tool result: ${toolResults(body).join(' | ').slice(0, 300)}`,
    }),
  ],
});

let session: E2ESession;

before(async () => {
  session = await E2ESession.start({
    name: 'mcp',
    script,
    files: { '.vscode/mcp.json': MCP_JSON, 'README.md': '# mcp demo\n' },
    // The memory tools write; approving them is not what this test is about.
    settings: { 'localharness.approval.autoApprove': ['read', 'write'] },
  });
}, { timeout: 240_000 });

after(async () => {
  await session?.close();
}, { timeout: 60_000 });

/** The "MCP Servers" section of the Local Harness side bar, expanded. */
async function mcpView(): Promise<Locator> {
  const page = session.workbench.page;
  const header = page.locator('.pane-header').filter({ hasText: 'MCP Servers' }).first();
  await header.waitFor({ state: 'visible', timeout: 15_000 });
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  const pane = page.locator('.pane').filter({ has: header });
  await pane.locator('.pane-body').waitFor({ state: 'visible', timeout: 10_000 });
  return pane;
}

/**
 * Click a consent button and wait until that question is gone. The next question may replace it at once, so
 * "gone" means hidden or showing a different message.
 */
async function answer(button: string, message: string): Promise<void> {
  const box = session.workbench.dialog();
  await box.getByRole('button', { name: button, exact: true }).click();
  await waitUntil(
    async () => !(await box.isVisible().catch(() => false)) || (await box.locator('.dialog-message-text').innerText().catch(() => '')).trim() !== message,
    10_000,
    `the "${message}" dialog to close`,
  );
}

/** Run a command that asks for a server with a QuickPick, and pick `server`. */
async function pickFromPalette(command: string, server: string): Promise<void> {
  const page = session.workbench.page;
  const input = page.locator('.quick-input-widget input');
  await session.workbench.focusWorkbench();
  await page.keyboard.press('F1');
  await input.waitFor({ state: 'visible', timeout: 5_000 });
  await input.fill(`>${command}`);
  await page.locator('.quick-input-list .monaco-list-row.focused').filter({ hasText: command.split(': ')[1]! }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  const row = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: server }).first();
  await row.waitFor({ state: 'visible', timeout: 10_000 });
  await row.click();
  await input.waitFor({ state: 'hidden', timeout: 10_000 });
}

function serverRowIn(pane: Locator, name: string): Locator {
  return pane.locator(`.monaco-list-row[aria-label^="${name}: "]`).first();
}

describe('MCP servers in the editor', { timeout: 180_000 }, () => {
  test('opening the chat asks for consent with the exact command line; Allow starts it, Deny keeps it blocked', async () => {
    await session.step('consent', async () => {
      const wb = session.workbench;
      assert.equal(existsSync(path.join(session.workspace, 'memory.jsonl')), false);
      await wb.activityBarItem('Local Harness').click();

      const first = await wb.waitForDialog(60_000);
      assert.match(first.message, /Start the MCP server "memory" defined by this workspace\?/);
      assert.ok(first.detail.includes(process.execPath), `the command is shown: ${first.detail}`);
      assert.ok(first.detail.includes(MEMORY_BIN), 'the arguments are shown');
      assert.ok(first.detail.includes(`MEMORY_FILE_PATH=${session.workspace}/memory.jsonl`), 'the environment is shown, expanded');
      assert.ok(first.detail.includes(path.join(session.workspace, '.vscode/mcp.json')), 'where it was defined');
      assert.ok(first.buttons.includes('Allow') && first.buttons.includes('Deny'), `buttons: ${first.buttons.join(', ')}`);
      await session.screenshot('01-consent-dialog');
      await answer('Allow', first.message);

      const second = await wb.waitForDialog(30_000);
      assert.match(second.message, /"notes"/);
      assert.ok(second.detail.includes(`${session.workspace}/notes.jsonl`));
      await answer('Deny', second.message);

      await session.chat.message.waitFor({ state: 'visible', timeout: 30_000 });
      const pane = await mcpView();
      const memory = serverRowIn(pane, 'memory');
      await waitUntil(async () => /^memory: ready with \d+ tools?$/.test((await memory.getAttribute('aria-label').catch(() => null)) ?? ''), 30_000, 'memory to be ready');
      const label = (await memory.getAttribute('aria-label'))!;
      const count = Number(/ready with (\d+)/.exec(label)![1]);
      assert.ok(count >= 5, `the memory server lists its tools (${label})`);
      const notes = serverRowIn(pane, 'notes');
      await waitUntil(async () => (await notes.getAttribute('aria-label').catch(() => null)) === 'notes: blocked: needs your consent', 15_000, 'notes to be blocked');
      // The view's message carries the tools' token cost.
      await pane.locator('.message, .tree-explorer-viewlet-tree-view-message').filter({ hasText: /MCP tools: \d+ from "memory", about [\d,]+ tokens/ }).first().waitFor({ timeout: 10_000 });
      await session.screenshot('02-mcp-view');
      assert.equal(await wb.dialog().isVisible(), false, 'no further questions');
    });
  });

  test('a scripted model calls memory__create_entities; the denied server\u2019s tools are not offered', async () => {
    await session.step('tool call', async () => {
      const chat = session.chat;
      await chat.send('[[remember]] Remember that Alice drinks green tea.');
      const card = await chat.waitToolStatus('memory__create_entities', 'done', 30_000);
      assert.match(await card.innerText(), /memory__create_entities/);
      await chat.assistantMessages.filter({ hasText: /stored Alice|UNEXPECTED/ }).waitFor({ timeout: 20_000 });
      await chat.waitIdle();
      assert.equal(await chat.assistantMessages.filter({ hasText: 'UNEXPECTED' }).count(), 0, 'the tool result reached the model');
      await chat.notices.filter({ hasText: /MCP tools: \d+ from "memory"/ }).first().waitFor({ timeout: 5_000 });
      await session.screenshot('03-tool-called');

      assert.ok(offered.includes('memory__create_entities'), `offered: ${offered.join(', ')}`);
      assert.ok(offered.includes('read_file'), 'built-in tools are still there');
      assert.equal(offered.filter((n) => n.startsWith('notes__')).length, 0, 'the blocked server offers nothing');
      // The real server wrote its knowledge graph where ${workspaceFolder} pointed.
      await waitUntil(() => existsSync(path.join(session.workspace, 'memory.jsonl')), 5_000, 'memory.jsonl');
      assert.match(readFileSync(path.join(session.workspace, 'memory.jsonl'), 'utf8'), /"name":"Alice"/);
      assert.equal(existsSync(path.join(session.workspace, 'notes.jsonl')), false);
      assert.equal(await session.workbench.dialog().isVisible(), false, 'a denied server is not asked about again on every turn');
    });
  });

  test('the view’s Start asks again for a denied server; Stop from the palette; Show Log opens its channel', async () => {
    await session.step('actions', async () => {
      const wb = session.workbench;
      const pane = await mcpView();
      const notes = serverRowIn(pane, 'notes');
      await notes.hover();
      await notes.locator('.action-label[aria-label="Start MCP Server"]').click();
      const asked = await wb.waitForDialog(15_000);
      assert.match(asked.message, /"notes"/, 'an explicit start asks again after a Deny');
      await answer('Allow', asked.message);
      await waitUntil(async () => /^notes: ready with \d+ tools?$/.test((await notes.getAttribute('aria-label').catch(() => null)) ?? ''), 30_000, 'notes to be ready');
      await pane.locator('.message, .tree-explorer-viewlet-tree-view-message').filter({ hasText: /MCP tools: \d+ from 2 servers/ }).first().waitFor({ timeout: 10_000 });

      // From the palette the command asks which server, offering only running ones.
      await pickFromPalette('Local Harness: Stop MCP Server', 'notes');
      await waitUntil(async () => (await notes.getAttribute('aria-label').catch(() => null)) === 'notes: stopped by the user', 15_000, 'notes to stop');

      const memory = serverRowIn(pane, 'memory');
      await memory.hover();
      await memory.locator('.action-label[aria-label="Show MCP Server Log"]').click();
      const output = wb.page.locator('.part.panel .output-view, .part.panel .monaco-editor').first();
      await output.waitFor({ state: 'visible', timeout: 15_000 });
      await waitUntil(async () => /state: ready/.test((await wb.page.locator('.part.panel').innerText().catch(() => '')).replace(/\u00a0/g, ' ')), 15_000, 'the memory log in the Output panel');
      await session.screenshot('04-actions-and-log');
    });
  });
});
