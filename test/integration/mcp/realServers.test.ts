// The published reference servers, started from node_modules with this node: list and call their tools
// through the core's tool executor, exactly as a turn would.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { McpManager } from '../../../src/mcp/manager';
import { assertProcessGone, packageBin, runCall, stdioServer, tempDir, waitForStatus } from '../../helpers/mcp/mcpHarness';

const registry = new ToolRegistry();
const manager = new McpManager({ registry, defaultStartTimeoutMs: 20_000 });
const workspace = tempDir('real');
const files = join(workspace.path, 'files');
const memoryFile = join(workspace.path, 'memory.jsonl');
const pids: number[] = [];

before(async () => {
  const { mkdirSync } = await import('node:fs');
  mkdirSync(files);
  writeFileSync(join(files, 'note1.txt'), 'apple\n');
  writeFileSync(join(files, 'note2.txt'), 'banana\n');
  await manager.setServers([
    stdioServer('filesystem', packageBin('@modelcontextprotocol/server-filesystem'), [realpathSync(files)]),
    stdioServer('memory', packageBin('@modelcontextprotocol/server-memory'), [], { env: { MEMORY_FILE_PATH: memoryFile } }),
    stdioServer('everything', packageBin('@modelcontextprotocol/server-everything')),
  ]);
  await manager.startAll();
  for (const status of manager.statuses()) {
    assert.equal(status.state, 'ready', `${status.name}: ${status.message}\n${manager.getLog(status.name).join('\n')}`);
    assert.ok(status.pid, `${status.name} has a pid`);
    pids.push(status.pid!);
  }
});

after(async () => {
  await manager.dispose();
  for (const pid of pids) await assertProcessGone(pid);
  assert.deepEqual(registry.list(), [], 'disposing takes the tools out of the registry');
  workspace.cleanup();
});

test('every server reports its tools and what their definitions cost in tokens', () => {
  const fs = manager.status('filesystem');
  assert.ok(fs.tools.some((t) => t.registeredName === 'filesystem__read_text_file' && t.risk === 'read'));
  assert.ok(fs.tools.some((t) => t.registeredName === 'filesystem__move_file' && t.risk === 'write'));
  for (const status of manager.statuses()) assert.ok(status.toolTokens > 100, `${status.name} costs ${status.toolTokens} tokens`);
  assert.equal(manager.totalToolTokens(), manager.statuses().reduce((n, s) => n + s.toolTokens, 0));
  assert.equal(manager.status('filesystem').serverInfo?.name !== undefined, true);
  const definition = registry.definitions().find((d) => d.name === 'filesystem__read_text_file');
  assert.equal((definition?.parameters as { type?: string }).type, 'object');
});

test('filesystem: list a folder, read each file and rename it after its content', async () => {
  const listed = await runCall(registry, workspace.path, 'filesystem__list_directory', { path: realpathSync(files) });
  assert.ok(listed.execution.ok, listed.execution.content);
  const names = [...listed.execution.content.matchAll(/\[FILE\] (\S+)/g)].map((m) => m[1]!);
  assert.deepEqual(names.sort(), ['note1.txt', 'note2.txt']);
  for (const name of names) {
    const read = await runCall(registry, workspace.path, 'filesystem__read_text_file', { path: join(realpathSync(files), name) });
    assert.ok(read.execution.ok, read.execution.content);
    const word = read.execution.content.trim();
    const moved = await runCall(registry, workspace.path, 'filesystem__move_file', {
      source: join(realpathSync(files), name),
      destination: join(realpathSync(files), `${word}.txt`),
    });
    assert.ok(moved.execution.ok, moved.execution.content);
  }
  assert.deepEqual(readdirSync(files).sort(), ['apple.txt', 'banana.txt']);
  assert.equal(readFileSync(join(files, 'banana.txt'), 'utf8'), 'banana\n');
});

test('filesystem: a path outside the allowed folder is the server\'s error, returned as a tool error', async () => {
  const { execution } = await runCall(registry, workspace.path, 'filesystem__read_text_file', { path: '/etc/hostname' });
  assert.equal(execution.ok, false);
  assert.match(execution.content, /denied|outside|not allowed/i);
});

test('arguments that break the server\'s JSON Schema are refused before the call, precisely', async () => {
  const { execution, events } = await runCall(registry, workspace.path, 'filesystem__read_text_file', { path: 42 });
  assert.equal(execution.ok, false);
  assert.match(execution.content, /Invalid arguments for filesystem__read_text_file: "path": Invalid input: expected string, received number/);
  assert.ok(!events.some((e) => e.type === 'approval_request'), 'nobody is asked to approve a call that cannot work');
});

test('memory: create entities, then find them again; the graph is written to the configured file', async () => {
  const created = await runCall(registry, workspace.path, 'memory__create_entities', {
    entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
  });
  assert.ok(created.execution.ok, created.execution.content);
  const found = await runCall(registry, workspace.path, 'memory__search_nodes', { query: 'Ada' });
  assert.ok(found.execution.ok, found.execution.content);
  assert.match(found.execution.content, /wrote the first program/);
  assert.ok(existsSync(memoryFile));
  assert.equal(manager.status('memory').tools.find((t) => t.mcpName === 'read_graph')?.risk, 'read');
});

test('everything: a long-running tool reports progress, which reaches the tool card', async () => {
  const names = manager.status('everything').tools.map((t) => t.mcpName);
  assert.ok(names.includes('trigger-long-running-operation'), `tools: ${names.join(', ')}`);
  const { execution, events } = await runCall(registry, workspace.path, 'everything__trigger-long-running-operation', { duration: 1, steps: 4 });
  assert.ok(execution.ok, execution.content);
  assert.match(execution.content, /Long running operation completed/);
  const progress = events.filter((e) => e.type === 'tool_progress').map((e) => (e as { message: string }).message);
  // The SDK handles notifications a microtask later than responses, so the report sent right before the answer
  // can lose the race; the earlier ones always arrive, in order.
  assert.ok(progress.length >= 3, `progress: ${progress.join(', ')}`);
  assert.deepEqual(progress, ['progress 1/4', 'progress 2/4', 'progress 3/4', 'progress 4/4'].slice(0, progress.length));
});

test('everything: an image is described by type and size', async () => {
  const { execution } = await runCall(registry, workspace.path, 'everything__get-tiny-image', {});
  assert.ok(execution.ok, execution.content);
  assert.match(execution.content, /\[image: image\/png, \d+ bytes\]/);
  assert.ok(!/iVBORw0KGgo/.test(execution.content), 'no base64 reaches the model');
});

test('everything: its post-initialisation tool-list change was followed by a re-list', () => {
  const log = manager.getLog('everything').join('\n');
  assert.match(log, /server says its tool list changed/);
  assert.match(log, /re-listed tools: \d+ available/);
  const skipped = manager.status('everything').skippedTools.map((s) => s.name);
  assert.ok(skipped.includes('simulate-research-query'), 'task-only tools are listed as skipped');
});

test('everything: a missing required argument is a precise tool error', async () => {
  const { execution } = await runCall(registry, workspace.path, 'everything__echo', {});
  assert.equal(execution.ok, false);
  assert.match(execution.content, /"message" is required \(expected string\)/);
  await waitForStatus(manager, 'everything', (s) => s.state === 'ready');
});
