// Digests of REAL MCP results: the published filesystem server, started from node_modules and called through
// our MCP adapter and tool executor (so the text is exactly what the model reads). Its listings ("[FILE] a.txt",
// "[DIR] sub") and search results (one path a line) are lists of names: every name must survive.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { digestLine, digestToolResult, resultSucceeded } from '../../../src/core/compression/toolResultDigest';
import type { ChatMessage } from '../../../src/core/messages';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { McpManager } from '../../../src/mcp/manager';
import { packageBin, runCall, stdioServer, tempDir } from '../../helpers/mcp/mcpHarness';
import { namesSeen, noteName, noteText } from './recordedSession';

const registry = new ToolRegistry();
const manager = new McpManager({ registry, defaultStartTimeoutMs: 20_000 });
const workspace = tempDir('digest');
let root = '';
const history: ChatMessage[] = [];

before(async () => {
  root = realpathSync(workspace.path);
  for (let n = 1; n <= 12; n++) writeFileSync(join(root, noteName(n)), noteText(n));
  mkdirSync(join(root, 'archive'));
  await manager.setServers([stdioServer('files', packageBin('@modelcontextprotocol/server-filesystem'), [root])]);
  await manager.startAll();
  assert.equal(manager.status('files').state, 'ready', manager.status('files').message);
});

after(async () => {
  await manager.dispose();
  workspace.cleanup();
});

/** Calls the tool the way a turn does and appends the call and its result to `history`. */
async function call(name: string, args: Record<string, unknown>): Promise<number> {
  const { execution } = await runCall(registry, root, name, args);
  const id = `c${history.length}`;
  history.push({ role: 'assistant', content: '', toolCalls: [{ id, name, arguments: args }] });
  history.push({ role: 'tool', content: execution.content, toolCallId: id, toolName: name });
  return history.length - 1;
}

test('files__list_directory: every [FILE] and [DIR] name survives', async () => {
  const i = await call('files__list_directory', { path: root });
  const original = history[i]!.content;
  assert.match(original, /^\[DIR\] archive$/m);
  assert.match(original, /^\[FILE\] note-01\.txt$/m);
  const digest = digestToolResult(history, i);
  assert.match(digest, /\n13 entries\. All 13 names:\n/);
  assert.ok(digest.includes('\narchive/\n'), 'a directory keeps a trailing slash');
  assert.equal(namesSeen([{ role: 'tool', content: digest }]).size, 12);
  assert.ok(digest.endsWith('\nnote-12.txt'), 'a listing without sizes loses nothing: no hint needed');
  assert.equal(namesSeen([{ role: 'system', content: digestLine(history, i) }]).size, 12);
});

test('files__list_directory_with_sizes: the names stay, the sizes and totals are kept apart', async () => {
  const i = await call('files__list_directory_with_sizes', { path: root });
  const original = history[i]!.content;
  assert.match(original, /^\[FILE\] note-01\.txt +\d/m, 'the real format pads names and appends sizes');
  const digest = digestToolResult(history, i);
  assert.equal(namesSeen([{ role: 'tool', content: digest }]).size, 12);
  assert.doesNotMatch(digest, /note-01\.txt +\d/);
  assert.match(digest, /\nTotal: 12 files, 1 directories\n/);
  assert.ok(digest.length < original.length);
});

test('files__search_files: every path survives', async () => {
  const i = await call('files__search_files', { path: root, pattern: '*.txt' });
  const paths = history[i]!.content.split('\n').filter(Boolean);
  assert.equal(paths.length, 12);
  const lines = digestToolResult(history, i).split('\n');
  assert.equal(lines[1], '12 entries. All 12 names:');
  assert.deepEqual(lines.slice(2), paths, 'nothing left out, so no hint either');
});

test('files__read_text_file: the first lines, not the body', async () => {
  const i = await call('files__read_text_file', { path: join(root, noteName(4)) });
  const digest = digestToolResult(history, i);
  assert.match(digest, /\nLine 1: Note 4\. Kind: invoice\nLine 2: This paragraph records/);
  assert.ok(digest.length < history[i]!.content.length / 3);
  assert.match(digest, /\nFull result: call files__read_text_file with/);
});

test('files__move_file: the result whole, marked done; an error whole, not', async () => {
  const ok = await call('files__move_file', { source: join(root, noteName(1)), destination: join(root, 'memo-01.txt') });
  assert.match(history[ok]!.content, /^Successfully moved /);
  assert.ok(digestToolResult(history, ok).includes(`\n${history[ok]!.content}\nAlready done: do not repeat this move.`));
  assert.match(digestLine(history, ok), / → .*memo-01\.txt: ok$/);
  assert.equal(resultSucceeded(history, ok), true);

  const bad = await call('files__move_file', { source: join(root, noteName(1)), destination: join(root, 'memo-01.txt') });
  const error = history[bad]!.content;
  assert.match(error, /^The MCP tool "move_file" of server "files" reported an error: /);
  const digest = digestToolResult(history, bad);
  assert.ok(digest.endsWith(`\n${error}`), digest);
  assert.doesNotMatch(digest, /Already done/);
  assert.match(digestLine(history, bad), /: failed: The MCP tool "move_file"/);
  assert.equal(resultSucceeded(history, bad), false);
});
