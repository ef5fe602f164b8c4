// A long MCP call through the real CLI: server-everything's long-running tool reports progress, which shows up
// as `tool_progress` events in --json output; and SIGINT during such a call ends the turn as cancelled, the CLI
// exits promptly, the server is told to cancel, and no MCP server process outlives it.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { WIRE_FORMATS } from '../../helpers/cli/wire';
import type { FakeServerHandle } from '../../helpers/fakeLlm';
import { LiveCli, assertAllGone, fixture, killLeftovers, nodeServer, packageBin, tempWorkspace, writeMcpConfig } from '../../helpers/mcp/mcpCliHelpers';

const EVERYTHING_BIN = packageBin('@modelcontextprotocol/server-everything');
const LONG_TOOL = 'everything__trigger-long-running-operation';

const servers: FakeServerHandle[] = [];
after(async () => {
  killLeftovers();
  await Promise.all(servers.map((s) => s.close()));
});

function everythingConfig(prefix: string): { ws: string; config: string } {
  const { root, ws } = tempWorkspace(prefix);
  return { ws, config: writeMcpConfig(root, { everything: nodeServer(EVERYTHING_BIN) }) };
}

const runArgs = (ws: string, config: string) => ['--workspace', ws, '--mcp-config', config, '--approve', 'all', '--num-ctx', '32768', '--json'];

test('progress of a long-running MCP tool appears as tool_progress events in --json output', async () => {
  const wire = WIRE_FORMATS.find((w) => w.name === 'openai')!;
  const { ws, config } = everythingConfig('progress');
  const server = await wire.start(
    [
      { toolCalls: [{ name: LONG_TOOL, arguments: { duration: 2, steps: 4 }, id: 'call_long' }] },
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'The operation finished.' } }] },
    ],
    'progress',
  );
  servers.push(server);
  const cli = new LiveCli(['run', ...wire.flags(server), ...runArgs(ws, config), 'Run the long operation.'], ws);
  const { code } = await cli.finished(30_000);
  assert.equal(code, 0, cli.stderr);

  const events = cli.events;
  const callIndex = events.findIndex((e) => e.type === 'tool_call' && e.name === LONG_TOOL);
  const resultIndex = events.findIndex((e) => e.type === 'tool_result' && e.name === LONG_TOOL);
  assert.ok(callIndex >= 0 && resultIndex > callIndex, 'the call and its result were reported');
  const result = events[resultIndex]!;
  assert.equal(result.ok, true, String(result.content));
  assert.match(String(result.content), /Long running operation completed\. Duration: 2 seconds, Steps: 4/);

  const progress = events.filter((e) => e.type === 'tool_progress');
  // The SDK may handle the last notification after the answer, so the final report can lose the race.
  assert.ok(progress.length >= 3, `progress events: ${JSON.stringify(progress)}`);
  assert.deepEqual(
    progress.map((e) => e.message),
    ['progress 1/4', 'progress 2/4', 'progress 3/4', 'progress 4/4'].slice(0, progress.length),
  );
  for (const p of progress) {
    assert.equal(p.name, LONG_TOOL);
    assert.equal(p.id, events[callIndex]!.id, 'progress names the call it belongs to');
    const at = events.indexOf(p);
    assert.ok(at > callIndex && at < resultIndex, 'progress arrives while the call runs');
  }
  await assertAllGone(cli.watcher.processes);
});

for (const wire of WIRE_FORMATS) {
  describe(`SIGINT during a long MCP call over ${wire.name}`, () => {
    test('the turn ends cancelled, the CLI exits promptly, no MCP server process remains', async (t) => {
      const { ws, config } = everythingConfig(`sigint-${wire.name}`);
      const server = await wire.start([{ toolCalls: [{ name: LONG_TOOL, arguments: { duration: 60, steps: 60 } }] }], `sigint-${wire.name}`);
      servers.push(server);
      const cli = new LiveCli(['run', ...wire.flags(server), ...runArgs(ws, config), 'Run the very long operation.'], ws);

      // Interrupt only once the call is really running on the server (it has reported progress).
      await cli.waitForEvent((e) => e.type === 'tool_progress', 20_000);
      cli.watcher.scan();
      const mcpServers = cli.watcher.matching(EVERYTHING_BIN);
      assert.equal(mcpServers.length, 1, `the CLI started the everything server: ${JSON.stringify(cli.watcher.processes)}`);

      const interruptedAt = Date.now();
      cli.child.kill('SIGINT');
      const { code, closedAt } = await cli.finished(10_000);
      const exitMs = closedAt - interruptedAt;
      t.diagnostic(`CLI exit ${exitMs} ms after SIGINT`);
      assert.ok(exitMs < 5000, `the CLI exited ${exitMs} ms after SIGINT`);
      assert.equal(code, 1);

      const events = cli.events;
      assert.deepEqual(events.at(-1), { type: 'turn_end', reason: 'cancelled' });
      const result = events.find((e) => e.type === 'tool_result' && e.name === LONG_TOOL);
      if (result) assert.equal(result.ok, false, 'an interrupted call is not reported as a success');
      assert.ok(!events.some((e) => e.type === 'tool_result' && e.ok === true && e.name === LONG_TOOL));
      assert.equal(server.requests.length, 1, 'the model was not called again after the interrupt');

      await assertAllGone(cli.watcher.processes, 500);
    });
  });
}

test('SIGINT cancels the MCP request at the server, not just in the CLI', async () => {
  const wire = WIRE_FORMATS.find((w) => w.name === 'ollama')!;
  const { root, ws } = tempWorkspace('cancel-reaches');
  const cancelLog = path.join(root, 'cancel.log');
  const config = writeMcpConfig(root, { slowpoke: nodeServer(fixture('scripted.mjs'), [], { env: { CANCEL_LOG: cancelLog } }) });
  const server = await wire.start([{ toolCalls: [{ name: 'slowpoke__slow', arguments: { steps: 100, interval_ms: 200 } }] }], 'cancel-reaches');
  servers.push(server);
  const cli = new LiveCli(['run', ...wire.flags(server), ...runArgs(ws, config), 'Run slow.'], ws);
  await cli.waitForEvent((e) => e.type === 'tool_progress' && e.message === 'step 2 (2/100)', 20_000);
  cli.child.kill('SIGINT');
  const { code } = await cli.finished(10_000);
  assert.equal(code, 1);
  assert.deepEqual(cli.events.at(-1), { type: 'turn_end', reason: 'cancelled' });
  // The fixture writes this when its handler's abort signal fires, i.e. when notifications/cancelled arrived.
  assert.match(readFileSync(cancelLog, 'utf8'), /^slow cancelled at step \d+\n$/);
  await assertAllGone(cli.watcher.processes);
});

test('a second SIGINT exits at once, and even a server that ignores SIGTERM and a closed stdin does not outlive the CLI', async () => {
  const wire = WIRE_FORMATS.find((w) => w.name === 'ollama')!;
  const { root, ws } = tempWorkspace('second-sigint');
  const config = writeMcpConfig(root, { stubborn: nodeServer(fixture('scripted.mjs'), [], { env: { STUBBORN: '1' } }) });
  const server = await wire.start([{ toolCalls: [{ name: 'stubborn__slow', arguments: { steps: 600, interval_ms: 100 } }] }], 'second-sigint');
  servers.push(server);
  const cli = new LiveCli(['run', ...wire.flags(server), ...runArgs(ws, config), 'Run slow.'], ws);
  await cli.waitForEvent((e) => e.type === 'tool_progress', 20_000);
  cli.watcher.scan();
  assert.ok(cli.watcher.matching('scripted.mjs').length >= 1, `the CLI started the server: ${JSON.stringify(cli.watcher.processes)}`);
  cli.child.kill('SIGINT');
  await new Promise((r) => setTimeout(r, 50));
  cli.child.kill('SIGINT');
  const { code } = await cli.finished(10_000);
  assert.equal(code, 130, 'the second Ctrl-C exits at once');
  await assertAllGone(cli.watcher.processes, 1000);
});
