// MCP servers that fail, through the real CLI (fixtures from test/fixtures/mcp): a call that hangs times out and
// one whose server crashes mid-call both reach the model as clear tool errors and the loop finishes with a
// built-in tool; servers that never finish the handshake are warned about on stderr and the task still runs.
// Afterwards no process the CLI started is left.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WIRE_FORMATS, toolResults } from '../../helpers/cli/wire';
import type { FakeServerHandle } from '../../helpers/fakeLlm';
import { LiveCli, assertAllGone, fixture, killLeftovers, nodeServer, offeredTools, runningWithEnv, tempWorkspace, writeMcpConfig } from '../../helpers/mcp/mcpCliHelpers';

const servers: FakeServerHandle[] = [];
after(async () => {
  killLeftovers();
  await Promise.all(servers.map((s) => s.close()));
});

const wireNamed = (name: 'ollama' | 'openai') => WIRE_FORMATS.find((w) => w.name === name)!;

test('a hanging call times out and a crash mid-call is a tool error; the loop goes on with a built-in tool', async () => {
  const wire = wireNamed('ollama');
  const { root, ws } = tempWorkspace('crash');
  writeFileSync(path.join(ws, 'notes.txt'), 'the built-in tools still work\n');
  const startLog = path.join(root, 'starts.log');
  const config = writeMcpConfig(root, { flaky: nodeServer(fixture('scripted.mjs'), [], { env: { START_LOG: startLog }, toolTimeoutMs: 1000 }) });
  const server = await wire.start(
    [
      { toolCalls: [{ name: 'flaky__hang', arguments: {} }] },
      { toolCalls: [{ name: 'flaky__crash', arguments: {} }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'The MCP server failed; read notes.txt instead.' } }] },
    ],
    'crash',
  );
  servers.push(server);
  const cli = new LiveCli(['run', ...wire.flags(server), '--workspace', ws, '--mcp-config', config, '--approve', 'all', '--json', 'Use the flaky server.'], ws);
  const { code } = await cli.finished(30_000);
  assert.equal(code, 0, cli.stderr);

  // What the model was told, in the request after each call.
  const hang = toolResults(server.requests[1]!).at(-1)!;
  assert.match(hang, /MCP server "flaky" did not answer within 1 s .*the call was cancelled/);
  const crash = toolResults(server.requests[2]!).at(-1)!;
  assert.match(crash, /MCP server "flaky" stopped during the call \(it crashed or exited\)/);
  assert.match(crash, /simulated crash in tool "crash"/, 'the stderr tail explains the crash');
  assert.match(toolResults(server.requests[3]!).at(-1)!, /the built-in tools still work/);
  assert.equal(server.requests.length, 4);

  const results = cli.events.filter((e) => e.type === 'tool_result').map((e) => [e.name, e.ok]);
  assert.deepEqual(results, [
    ['flaky__hang', false],
    ['flaky__crash', false],
    ['read_file', true],
    ['task_completion', true],
  ]);
  assert.deepEqual(cli.events.at(-1), { type: 'turn_end', reason: 'task_completion', result: 'The MCP server failed; read notes.txt instead.' });

  // Every server process ever started (the first, and a restart if one began before the CLI shut down) is gone.
  const started = readFileSync(startLog, 'utf8').trim().split('\n').map(Number);
  assert.ok(started.length >= 1);
  assert.ok(cli.watcher.matching('scripted.mjs').length >= 1, `the watcher saw the server: ${JSON.stringify(cli.watcher.processes)}`);
  await assertAllGone(cli.watcher.processes);
  // A restart killed before the watcher's next look is still checked, by the START_LOG in its environment.
  for (const pid of started) assert.equal(runningWithEnv(pid, startLog), false, `server process ${pid} is still running`);
});

test('servers that never finish the handshake: warned on stderr, the task runs with built-in tools, nothing is left', async () => {
  const wire = wireNamed('openai');
  const { root, ws } = tempWorkspace('handshake');
  writeFileSync(path.join(ws, 'notes.txt'), 'still here\n');
  const config = writeMcpConfig(root, {
    silent: nodeServer(fixture('noHandshake.mjs'), [], { startTimeoutMs: 1500 }),
    // Ignores stdin closing and SIGTERM: only SIGKILL ends it, so this proves the CLI escalates.
    stubborn: nodeServer(fixture('noHandshake.mjs'), ['--stubborn'], { startTimeoutMs: 1500 }),
  });
  const server = await wire.start(
    [
      { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'notes.txt says: still here' } }] },
    ],
    'handshake',
  );
  servers.push(server);
  const startedAt = Date.now();
  const cli = new LiveCli(['run', ...wire.flags(server), '--workspace', ws, '--mcp-config', config, '--json', 'Read notes.txt.'], ws);
  const { code, closedAt } = await cli.finished(30_000);
  const elapsedMs = closedAt - startedAt;
  assert.equal(code, 0, cli.stderr);
  assert.ok(elapsedMs < 15_000, `the run took ${elapsedMs} ms`);

  for (const name of ['silent', 'stubborn']) {
    assert.match(cli.stderr, new RegExp(`localharness: MCP server "${name}" is failed: MCP server "${name}" failed to start: no answer to the MCP handshake within 1\\.5 s`));
  }
  const offered = offeredTools(server.requests[0]!).map((t) => t.name);
  assert.ok(offered.includes('read_file'));
  assert.deepEqual(offered.filter((n) => n.includes('__')), [], 'no tools from servers that never started');
  assert.match(toolResults(server.requests[1]!)[0]!, /still here/);
  assert.deepEqual(cli.events.at(-1), { type: 'turn_end', reason: 'task_completion', result: 'notes.txt says: still here' });

  const spawned = cli.watcher.matching('noHandshake.mjs');
  assert.equal(spawned.length, 2, `both servers were started: ${JSON.stringify(cli.watcher.processes)}`);
  await assertAllGone(cli.watcher.processes);
});
