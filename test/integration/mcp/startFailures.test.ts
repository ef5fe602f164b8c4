// Servers that never become usable: each gives a clear error, nothing hangs, no process is left behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { McpManager } from '../../../src/mcp/manager';
import type { McpServerConfig } from '../../../src/mcp/types';
import { assertProcessGone, fixture, runCall, spawnedPids, stdioServer, tempDir } from '../../helpers/mcp/mcpHarness';

/** Start one server, return its status and log, and prove every process it spawned is gone after dispose. */
async function startOnly(config: McpServerConfig, startTimeoutMs = 5000) {
  const registry = new ToolRegistry();
  const manager = new McpManager({ registry, defaultStartTimeoutMs: startTimeoutMs, restartDelaysMs: [50, 50, 50] });
  await manager.setServers([config]);
  const started = Date.now();
  await manager.startAll();
  const elapsedMs = Date.now() - started;
  const status = manager.status(config.name);
  const log = manager.getLog(config.name).join('\n');
  const pids = spawnedPids(manager, config.name);
  return {
    registry,
    manager,
    status,
    log,
    elapsedMs,
    pids,
    async finish() {
      await manager.dispose();
      for (const pid of pids) await assertProcessGone(pid);
    },
  };
}

test('garbage instead of JSON-RPC on stdout: the start fails and says what the server did wrong', async () => {
  const run = await startOnly(stdioServer('junk', fixture('garbage.mjs'), ['only']), 1000);
  try {
    assert.equal(run.status.state, 'failed');
    assert.match(run.status.message!, /MCP server "junk" failed to start: no answer to the MCP handshake within 1 s/);
    assert.match(run.status.message!, /wrote output that is not MCP JSON-RPC to stdout \(.*"Starting g/);
    assert.match(run.status.message!, /log to stderr/);
    assert.equal(run.pids.length, 1);
    for (const pid of run.pids) await assertProcessGone(pid, 6000);
  } finally {
    await run.finish();
  }
});

test('a server that logs to stdout between replies still works; the noise is logged', async () => {
  const dir = tempDir('mixed');
  const run = await startOnly(stdioServer('noisy', fixture('garbage.mjs'), ['mixed']));
  try {
    assert.equal(run.status.state, 'ready', run.status.message);
    const { execution } = await runCall(run.registry, dir.path, 'noisy__echo', { text: 'hi' });
    assert.deepEqual([execution.ok, execution.content], [true, 'echoed']);
    assert.match(run.manager.getLog('noisy').join('\n'), /\[protocol error\] .*DEBUG/);
  } finally {
    await run.finish();
    dir.cleanup();
  }
});

test('a server that never finishes the handshake (and ignores SIGTERM) fails in time and is killed', async () => {
  // 2 s, not less: under a loaded CI machine node itself may take a second to start and print its first line.
  const run = await startOnly(stdioServer('mute', fixture('noHandshake.mjs'), ['--stubborn']), 2000);
  try {
    assert.equal(run.status.state, 'failed');
    assert.match(run.status.message!, /no answer to the MCP handshake within 2 s/);
    assert.match(run.status.message!, /Last stderr lines:\n {2}noHandshake: waiting forever/);
    assert.ok(run.elapsedMs < 8000, `took ${run.elapsedMs} ms`);
    assert.equal(run.pids.length, 1);
    await assertProcessGone(run.pids[0]!, 100);
  } finally {
    await run.finish();
  }
});

test('invalid tool schemas skip those tools with reasons; the valid tool works', async () => {
  const dir = tempDir('schemas');
  const run = await startOnly(stdioServer('bad', fixture('invalidSchemas.mjs')));
  try {
    assert.equal(run.status.state, 'ready', run.status.message);
    assert.deepEqual(run.status.tools.map((t) => t.registeredName), ['bad__good']);
    const reasons = Object.fromEntries(run.status.skippedTools.map((s) => [s.name, s.reason]));
    assert.match(reasons.no_schema!, /no inputSchema/);
    assert.match(reasons.not_object!, /inputSchema\.type must be "object"/);
    assert.match(reasons.bad_type!, /unknown type "strnig"/);
    assert.match(reasons.bad_required!, /required must be an array/);
    assert.match(reasons['(unnamed)']!, /no name/);
    assert.match(run.log, /tool "bad_type" skipped/);
    const wrong = await runCall(run.registry, dir.path, 'bad__good', { n: 0 });
    assert.equal(wrong.execution.ok, false);
    assert.match(wrong.execution.content, /"n": Too small: expected number to be >=1/);
    const right = await runCall(run.registry, dir.path, 'bad__good', { n: 2 });
    assert.equal(right.execution.content, 'good got n=2');
  } finally {
    await run.finish();
    dir.cleanup();
  }
});

test('a command that does not exist fails with a clear message', async () => {
  const config = stdioServer('ghost', 'unused');
  config.transport = { type: 'stdio', command: 'localharness-no-such-command-xyz', args: [], env: {} };
  const run = await startOnly(config);
  try {
    assert.equal(run.status.state, 'failed');
    assert.match(run.status.message!, /the command "localharness-no-such-command-xyz" was not found \(is it installed and on PATH\?/);
  } finally {
    await run.finish();
  }
});

test('a process that exits during the handshake fails with its stderr', async () => {
  const config = stdioServer('quitter', 'unused');
  config.transport = { type: 'stdio', command: process.execPath, args: ['-e', "process.stderr.write('config error: API_KEY missing\\n'); process.exit(2)"], env: {} };
  const run = await startOnly(config);
  try {
    assert.equal(run.status.state, 'failed');
    assert.match(run.status.message!, /the process exited during the MCP handshake/);
    assert.match(run.status.message!, /config error: API_KEY missing/);
  } finally {
    await run.finish();
  }
});

test('other servers keep working when one fails to start', async () => {
  const dir = tempDir('others');
  const registry = new ToolRegistry();
  const manager = new McpManager({ registry, defaultStartTimeoutMs: 10_000 });
  await manager.setServers([stdioServer('mute', fixture('noHandshake.mjs'), [], { startTimeoutMs: 500 }), stdioServer('good', fixture('scripted.mjs'))]);
  try {
    await manager.startAll();
    assert.deepEqual(manager.statuses().map((s) => [s.name, s.state]), [['mute', 'failed'], ['good', 'ready']]);
    assert.equal((await runCall(registry, dir.path, 'good__ping', {})).execution.content, 'pong');
  } finally {
    const pids = [...spawnedPids(manager, 'mute'), ...spawnedPids(manager, 'good')];
    await manager.dispose();
    for (const pid of pids) await assertProcessGone(pid);
    dir.cleanup();
  }
});
