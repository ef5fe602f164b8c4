// MCP servers in a real VS Code: a workspace `.vscode/mcp.json` defines two instances of the published
// `@modelcontextprotocol/server-memory`. Opening the chat asks for consent with the exact command line; the
// allowed one shows as ready in the "MCP Servers" view and a scripted model calls its tool; the denied one stays
// blocked and its tools never reach the model. Then servers added to the user settings: one that never finishes
// starting shows as failed with the reason, and one behind OAuth (a local authorization server that approves at
// once) is signed in to through the editor's browser hand-off; its tools work, the token survives a window
// reload, and Sign Out removes it.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { waitUntil } from '../helpers/e2e/chatPanel';
import { markerScript, toolResults } from '../helpers/e2e/markerScript';
import { REPO_ROOT } from '../helpers/e2e/paths';
import { E2ESession } from '../helpers/e2e/session';
import type { ChatBody } from '../helpers/fakeLlm';
import { TestAuthServer } from '../helpers/mcpAuth/authServer';
import { ProtectedMcpServer } from '../helpers/mcpAuth/protectedServer';

const MEMORY_BIN = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');

const SERVERS: Record<string, unknown> = {
  memory: { type: 'stdio', command: process.execPath, args: [MEMORY_BIN], env: { MEMORY_FILE_PATH: '${workspaceFolder}/memory.jsonl' } },
  notes: { type: 'stdio', command: process.execPath, args: [MEMORY_BIN], env: { MEMORY_FILE_PATH: '${workspaceFolder}/notes.jsonl' } },
};
const MCP_JSON = JSON.stringify({ servers: SERVERS }, null, 2);

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
  '[[docs]]': [
    (body) => {
      offered = toolNames(body);
      return { toolCalls: [{ name: 'docs__add', arguments: { a: 19, b: 23 } }] };
    },
    (body) => ({ text: toolResults(body).some((r) => r.includes('sum: 42')) ? 'The docs server says 42.' : `UNEXPECTED tool result: ${toolResults(body).join(' | ').slice(0, 300)}` }),
  ],
});

let session: E2ESession;
let auth: TestAuthServer;
let docs: ProtectedMcpServer;
let stuck: { child: ChildProcess; url: string };

/** An HTTP server whose POST fails and whose event stream never sends `endpoint` (test/fixtures/mcp/stuckSse.mjs). */
function startStuckServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'test/fixtures/mcp/stuckSse.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const port = /PORT (\d+)/.exec(out)?.[1];
      if (port) resolve({ child, url: `http://127.0.0.1:${port}/mcp` });
    });
    child.on('error', reject);
  });
}

before(async () => {
  // Not on 127.0.0.1: code-server would send the sign-in page through its port proxy, which re-encodes the address.
  auth = await TestAuthServer.start({ host: '127.0.0.2' });
  docs = await ProtectedMcpServer.start(auth);
  stuck = await startStuckServer();
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
  stuck?.child.stdin!.end();
  await Promise.all([docs?.close(), auth?.close()]);
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

async function rowLabel(row: Locator): Promise<string> {
  return (await row.getAttribute('aria-label').catch(() => null)) ?? '';
}

/** Adds servers to the workspace's `.vscode/mcp.json` (the others keep their definitions, so they keep running). */
function addWorkspaceServers(servers: Record<string, unknown>): void {
  Object.assign(SERVERS, servers);
  writeFileSync(path.join(session.workspace, '.vscode/mcp.json'), JSON.stringify({ servers: SERVERS }, null, 2));
}

/** Answers the consent question for a workspace-defined server with Allow. */
async function allow(server: string): Promise<void> {
  const asked = await session.workbench.waitForDialog(30_000);
  assert.match(asked.message, new RegExp(`Start the MCP server "${server}" defined by this workspace\\?`));
  await answer('Allow', asked.message);
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

  test('a server that never finishes starting shows as failed with the reason; the others keep working', async () => {
    await session.step('stuck server', async () => {
      addWorkspaceServers({ stuck: { type: 'http', url: stuck.url, startTimeoutMs: 1500 } });
      await allow('stuck');
      const pane = await mcpView();
      const row = serverRowIn(pane, 'stuck');
      await waitUntil(async () => (await rowLabel(row)).startsWith('stuck: failed: '), 30_000, 'the stuck server to be reported');
      assert.match(
        await rowLabel(row),
        /^stuck: failed: MCP server "stuck" failed to start: no answer within 1\.5 s while waiting for the "endpoint" event of the SSE transport \(GET http:\/\/127\.0\.0\.1:\d+\/mcp\)/,
      );
      assert.match(await rowLabel(serverRowIn(pane, 'memory')), /^memory: ready with \d+ tools?$/);
      await session.screenshot('05-stuck-server-failed');
    });
  });

  test('a server behind OAuth is signed in to through the browser hand-off; its tools work; no token in the logs', async () => {
    await session.step('oauth sign-in', async () => {
      const wb = session.workbench;
      addWorkspaceServers({ docs: { type: 'http', url: docs.url } });
      await allow('docs');
      const asked = await wb.waitForDialog(30_000);
      assert.equal(asked.message, 'MCP server "docs" wants you to sign in.');
      assert.ok(asked.detail.includes(`Sign in at ${auth.url} in your browser`), asked.detail);
      assert.ok(asked.detail.includes(`sends them only to ${new URL(docs.url).origin}`), asked.detail);
      await session.screenshot('06-sign-in-question');
      await answer('Sign In', asked.message);
      // The editor's own question before it opens a website it does not trust yet: the authorization page.
      const external = await wb.waitForDialog(15_000);
      assert.match(external.message, /open the external website\?/);
      assert.ok(external.detail.startsWith(`${auth.url}/authorize?response_type=code&`), external.detail);
      const opened = wb.page.context().waitForEvent('page', { timeout: 20_000 });
      await answer('Open', external.message);
      // The authorization server approves at once and sends the browser back to the editor's callback page,
      // which hands the answer to the extension.
      const tab = await opened;
      await tab.waitForURL(/\/callback\?/, { timeout: 20_000 });
      await tab.getByText('You can close this page now').waitFor({ timeout: 10_000 });
      const pane = await mcpView();
      const row = serverRowIn(pane, 'docs');
      await waitUntil(async () => (await rowLabel(row)) === 'docs: ready with 2 tools', 30_000, 'docs to be ready after the sign-in');
      await tab.close();
      assert.equal(auth.stats.authorizations, 1);
      assert.equal(auth.stats.codeExchanges, 1);
      assert.match(auth.stats.redirectUris[0]!, /\/callback\?vscode-reqid=\d+&vscode-scheme=[\w-]+&vscode-authority=localharness\.localharness&vscode-path=%2Fmcp-auth$/);
      await session.screenshot('07-signed-in');

      const chat = session.chat;
      await chat.send('[[docs]] What is 19 + 23 on the docs server?');
      await chat.waitToolStatus('docs__add', 'done', 30_000);
      await chat.assistantMessages.filter({ hasText: /The docs server says 42|UNEXPECTED/ }).waitFor({ timeout: 20_000 });
      await chat.waitIdle();
      assert.equal(await chat.assistantMessages.filter({ hasText: 'UNEXPECTED' }).count(), 0, 'the protected server answered');
      assert.ok(offered.includes('docs__add'), `offered: ${offered.join(', ')}`);
      const tokens = [...docs.seen.tokens];
      assert.ok(tokens.length >= 1);
      const logs = session.extensionLog() + JSON.stringify(session.llm.requests);
      for (const token of tokens) assert.ok(!logs.includes(token), 'no token in the extension log or the model\u2019s requests');
    });
  });

  test('the sign-in survives a window reload: no second sign-in, the tools still work', async () => {
    await session.step('reload', async () => {
      const wb = session.workbench;
      const seenBefore = new Set(docs.seen.tokens);
      await wb.reload();
      await session.chat.open();
      const pane = await mcpView();
      const row = serverRowIn(pane, 'docs');
      await waitUntil(async () => (await rowLabel(row)) === 'docs: ready with 2 tools', 30_000, 'docs to be ready after the reload');
      assert.equal(await wb.dialog().isVisible(), false, 'nobody was asked to sign in again');
      assert.equal(auth.stats.authorizations, 1, 'no second authorization');
      assert.ok([...docs.seen.tokens].every((t) => seenBefore.has(t)), 'the stored token was used');
      const chat = session.chat;
      await chat.send('[[docs]] And once more after the reload?');
      await chat.waitToolStatus('docs__add', 'done', 30_000);
      await chat.waitIdle();
      assert.equal(await chat.assistantMessages.filter({ hasText: 'UNEXPECTED' }).count(), 0);
      await session.screenshot('08-after-reload');
    });
  });

  test('Sign Out of MCP Server removes the token: the server stops, and starting it asks to sign in again', async () => {
    await session.step('sign out', async () => {
      const wb = session.workbench;
      await wb.runCommand('Local Harness: Sign Out of MCP Server', { opensInput: true });
      const pick = await wb.waitForQuickPick('Local Harness: Sign Out of MCP Server');
      assert.deepEqual(pick.items, ['docs'], 'only the signed-in server is offered');
      await wb.chooseQuickPickItem('docs');
      await wb.page.locator('.notifications-toasts .notification-list-item-message').filter({ hasText: 'signed out of MCP server "docs"' }).first().waitFor({ timeout: 15_000 });
      const pane = await mcpView();
      const row = serverRowIn(pane, 'docs');
      await waitUntil(async () => (await rowLabel(row)) === 'docs: stopped (signed out)', 15_000, 'docs to stop');
      await session.screenshot('09-signed-out');

      // No token is left: starting the server asks to sign in again. Cancelling leaves it failed, saying why.
      await row.hover();
      await row.locator('.action-label[aria-label="Start MCP Server"]').click();
      const asked = await wb.waitForDialog(30_000);
      assert.equal(asked.message, 'MCP server "docs" wants you to sign in.');
      await answer('Cancel', asked.message);
      await waitUntil(async () => (await rowLabel(row)).startsWith('docs: failed: '), 15_000, 'docs to fail without a sign-in');
      assert.match(await rowLabel(row), /you did not sign in; start the server again to sign in/);
      assert.equal(auth.stats.authorizations, 1, 'nothing was sent to the authorization server');
    });
  });
});
