// Crashes, hangs and cancellation against a real stdio server (test/fixtures/mcp/scripted.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { McpManager } from '../../../src/mcp/manager';
import { assertProcessGone, fixture, runCall, spawnedPids, stdioServer, tempDir, toolContext, waitForStatus } from '../../helpers/mcp/mcpHarness';

async function setup(options: { restartDelaysMs?: number[]; toolTimeoutMs?: number; env?: Record<string, string> } = {}) {
  const dir = tempDir('crash');
  const registry = new ToolRegistry();
  const manager = new McpManager({ registry, restartDelaysMs: options.restartDelaysMs ?? [50, 100, 150], defaultStartTimeoutMs: 10_000 });
  const startLog = join(dir.path, 'starts.log');
  await manager.setServers([
    stdioServer('s', fixture('scripted.mjs'), [], {
      env: { START_LOG: startLog, ...options.env },
      ...(options.toolTimeoutMs !== undefined && { toolTimeoutMs: options.toolTimeoutMs }),
    }),
  ]);
  await manager.startAll();
  assert.equal(manager.status('s').state, 'ready', manager.status('s').message);
  const finish = async () => {
    const pids = spawnedPids(manager, 's');
    await manager.dispose();
    for (const pid of pids) await assertProcessGone(pid);
    dir.cleanup();
  };
  const starts = () => (existsSync(startLog) ? readFileSync(startLog, 'utf8').trim().split('\n').length : 0);
  return { dir, registry, manager, finish, starts };
}

test('a crash mid-call fails that call clearly, the server restarts, and the old process is gone', async () => {
  const { registry, manager, finish, starts, dir } = await setup({ restartDelaysMs: [400, 400, 400] });
  try {
    const firstPid = manager.status('s').pid!;
    const { execution } = await runCall(registry, dir.path, 's__crash', {});
    assert.equal(execution.ok, false);
    assert.match(execution.content, /MCP server "s" stopped during the call \(it crashed or exited\)/);
    assert.match(execution.content, /simulated crash in tool "crash"/, 'the stderr tail is part of the error');

    await waitForStatus(manager, 's', (s) => s.state === 'restarting');
    const during = await runCall(registry, dir.path, 's__ping', {});
    assert.equal(during.execution.ok, false);
    assert.match(during.execution.content, /MCP server "s" is restarting after a crash \(attempt 1 of 3\)/);

    const ready = await waitForStatus(manager, 's', (s) => s.state === 'ready');
    assert.notEqual(ready.pid, firstPid);
    await assertProcessGone(firstPid);
    assert.equal(starts(), 2);
    assert.match(manager.getLog('s').join('\n'), /crashed: the server process exited/);
    const after = await runCall(registry, dir.path, 's__ping', {});
    assert.deepEqual([after.execution.ok, after.execution.content], [true, 'pong']);
  } finally {
    await finish();
  }
});

test('a server that keeps dying is retried three times, then stays down until restarted by hand', async () => {
  const dir = tempDir('giveup');
  const marker = join(dir.path, 'crash-on-start');
  const { registry, manager, finish, starts } = await setup({ env: { CRASH_ON_START: marker } });
  try {
    writeFileSync(marker, 'yes');
    await runCall(registry, dir.path, 's__crash', {});
    const failed = await waitForStatus(manager, 's', (s) => s.state === 'failed');
    assert.match(failed.message!, /Gave up after 3 restart attempts; restart it by hand/);
    assert.equal(starts(), 4, 'the first start plus three retries');
    assert.deepEqual(registry.list(), [], 'a server that is down offers no tools');
    const call = await runCall(registry, dir.path, 's__ping', {});
    assert.match(call.execution.content, /Unknown tool "s__ping"/);

    rmSync(marker);
    await manager.restart('s');
    assert.equal(manager.status('s').state, 'ready');
    assert.equal(manager.status('s').restartAttempts, 0);
    assert.equal((await runCall(registry, dir.path, 's__ping', {})).execution.content, 'pong');
  } finally {
    await finish();
    dir.cleanup();
  }
});

test('a call that hangs times out with a clear error and the server keeps working', async () => {
  const { registry, manager, finish, dir } = await setup({ toolTimeoutMs: 300 });
  try {
    const started = Date.now();
    const { execution } = await runCall(registry, dir.path, 's__hang', {});
    assert.equal(execution.ok, false);
    assert.match(execution.content, /MCP server "s" did not answer within 0\.3 s/);
    assert.ok(Date.now() - started < 3000);
    assert.equal(manager.status('s').state, 'ready');
    assert.equal((await runCall(registry, dir.path, 's__ping', {})).execution.content, 'pong');
  } finally {
    await finish();
  }
});

test('progress reports restart the timeout, so a long call that keeps reporting finishes', async () => {
  const { registry, finish, dir } = await setup({ toolTimeoutMs: 400 });
  try {
    const { execution, events } = await runCall(registry, dir.path, 's__slow', { steps: 6, interval_ms: 150 });
    assert.equal(execution.content, 'slow finished 6 steps');
    assert.ok(events.filter((e) => e.type === 'tool_progress').length >= 5);
  } finally {
    await finish();
  }
});

test('aborting the turn during a long call stops it at the server', async () => {
  const cancelLog = tempDir('cancel');
  const logFile = join(cancelLog.path, 'cancel.log');
  const { registry, manager, finish, dir } = await setup({ env: { CANCEL_LOG: logFile } });
  try {
    const controller = new AbortController();
    const tool = registry.get('s__slow')!;
    const started = Date.now();
    const result = await tool.invoke({ steps: 50, interval_ms: 200 }, toolContext(dir.path, controller.signal, () => controller.abort()));
    assert.equal(result.ok, false);
    assert.match(result.content, /Cancelled while the MCP tool was running; the server was told to stop/);
    assert.ok(Date.now() - started < 2000, 'the call returns at once');
    const deadline = Date.now() + 3000;
    while (!existsSync(logFile) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.match(readFileSync(logFile, 'utf8'), /slow cancelled at step \d+/);
    assert.equal(manager.status('s').state, 'ready');
  } finally {
    await finish();
    cancelLog.cleanup();
  }
});

test('isError results reach the model as tool errors; mixed content is converted', async () => {
  const { registry, finish, dir } = await setup();
  try {
    const failed = await runCall(registry, dir.path, 's__fail', {});
    assert.deepEqual([failed.execution.ok, failed.execution.content], [false, 'The MCP tool "fail" of server "s" reported an error: the widget is broken']);
    const mixed = await runCall(registry, dir.path, 's__mixed_content', {});
    assert.equal(
      mixed.execution.content,
      [
        'here you go',
        '[image: image/png, 1234 bytes]',
        '[audio: audio/wav, 10 bytes]',
        '[resource link: file:///tmp/report.txt (report), text/plain]: the report',
        '[resource: file:///tmp/notes.md]\n# Notes\nhello',
        '[resource: file:///tmp/blob.bin, application/octet-stream, 300 bytes]',
      ].join('\n'),
    );
  } finally {
    await finish();
  }
});
