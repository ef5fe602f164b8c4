// A server that never completes its start (POST fails, GET opens an event stream that never sends `endpoint`):
// `mcp list` and `run` report it within its start timeout, with what was tried, and go on with the other
// servers; one SIGINT or SIGTERM ends either command within a second or two, and the stuck stream is closed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { WIRE_FORMATS } from '../../helpers/cli/wire';
import type { FakeServerHandle } from '../../helpers/fakeLlm';
import { LiveCli, assertAllGone, fixture, killLeftovers, nodeServer, tempWorkspace } from '../../helpers/mcp/mcpCliHelpers';

interface Stuck {
  child: ChildProcess;
  url: string;
  output: () => string;
}

let stuck: Stuck;
const llms: FakeServerHandle[] = [];

before(async () => {
  const child = spawn(process.execPath, [fixture('stuckSse.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the stuck fixture did not start')), 10_000);
    child.stdout!.on('data', () => {
      const m = /PORT (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
  stuck = { child, url: `http://127.0.0.1:${port}/mcp`, output: () => out };
});

after(async () => {
  killLeftovers();
  stuck.child.stdin!.end();
  await Promise.all(llms.map((s) => s.close()));
});

const count = (text: string, needle: string) => text.split(needle).length - 1;

function config(root: string, startTimeoutMs?: number): string {
  const file = path.join(root, 'mcp.json');
  const servers = {
    stuck: { type: 'http', url: stuck.url, ...(startTimeoutMs !== undefined && { startTimeoutMs }) },
    fine: { type: 'stdio', ...nodeServer(fixture('scripted.mjs')) },
  };
  writeFileSync(file, JSON.stringify({ servers }));
  return file;
}

async function waitFor(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('mcp list reports the stuck server within its start timeout, with what was tried, and lists the other', async () => {
  const { root, ws } = tempWorkspace('stuck-list');
  const startedAt = Date.now();
  const cli = new LiveCli(['mcp', 'list', '--mcp-config', config(root, 1500), '--workspace', ws], ws);
  const { code, closedAt } = await cli.finished(20_000);
  assert.equal(code, 0, cli.stderr);
  assert.ok(closedAt - startedAt < 6_000, `listed after ${closedAt - startedAt} ms`);
  assert.match(
    cli.stdout,
    /^stuck: failed — MCP server "stuck" failed to start: no answer within 1\.5 s while waiting for the "endpoint" event of the SSE transport \(GET http:\/\/127\.0\.0\.1:\d+\/mcp\) \(before that: Streamable HTTP failed: HTTP 404: no such endpoint\)\./m,
  );
  assert.match(cli.stdout, /^fine: ready/m);
  await assertAllGone(cli.watcher.processes);
  await waitFor(() => count(stuck.output(), 'STREAM CLOSED') >= count(stuck.output(), 'STREAM OPENED'), 'the stuck stream to be closed', 3_000);
});

test('run warns about the stuck server within its start timeout and does the task with the others', async () => {
  const { root, ws } = tempWorkspace('stuck-run');
  const wire = WIRE_FORMATS.find((w) => w.name === 'ollama')!;
  const llm = await wire.start(
    [{ toolCalls: [{ name: 'fine__ping', arguments: {} }] }, { toolCalls: [{ name: 'task_completion', arguments: { result: 'The fine server answered.' } }] }],
    'stuck-run',
  );
  llms.push(llm);
  const startedAt = Date.now();
  const cli = new LiveCli(['run', ...wire.flags(llm), '--workspace', ws, '--mcp-config', config(root, 1500), '--json', 'Ping the fine server.'], ws);
  const { code, closedAt } = await cli.finished(30_000);
  assert.equal(code, 0, cli.stderr);
  assert.ok(closedAt - startedAt < 8_000, `the run took ${closedAt - startedAt} ms`);
  assert.match(cli.stderr, /localharness: MCP server "stuck" is failed: MCP server "stuck" failed to start: no answer within 1\.5 s while waiting for the "endpoint" event/);
  assert.deepEqual(cli.events.at(-1), { type: 'turn_end', reason: 'task_completion', result: 'The fine server answered.' });
  await assertAllGone(cli.watcher.processes);
});

for (const [signal, command] of [
  ['SIGINT', 'mcp list'],
  ['SIGTERM', 'run'],
] as const) {
  test(`one ${signal} ends \`${command}\` while the stuck server is still starting (its start timeout is 30 s)`, async () => {
    const { root, ws } = tempWorkspace(`stuck-${signal}`);
    const opened = count(stuck.output(), 'STREAM OPENED');
    const args =
      command === 'mcp list'
        ? ['mcp', 'list', '--mcp-config', config(root), '--workspace', ws]
        : ['run', '--provider', 'ollama', '--base-url', 'http://127.0.0.1:9', '--model', 'm', '--workspace', ws, '--mcp-config', config(root), 'Never runs.'];
    const cli = new LiveCli(args, ws);
    // The CLI fell back to SSE and waits for the `endpoint` event that never comes.
    await waitFor(() => count(stuck.output(), 'STREAM OPENED') > opened, 'the CLI to open the stuck event stream');
    const sentAt = Date.now();
    cli.child.kill(signal);
    const { code, closedAt } = await cli.finished(10_000);
    assert.ok(closedAt - sentAt < 2_000, `${command} exited ${closedAt - sentAt} ms after ${signal}`);
    assert.notEqual(code, 0);
    assert.doesNotMatch(cli.stderr, /still stopping/, 'it stopped by itself, not through the last-resort exit');
    await assertAllGone(cli.watcher.processes);
    await waitFor(() => count(stuck.output(), 'STREAM CLOSED') >= count(stuck.output(), 'STREAM OPENED'), 'the stuck stream to be closed', 3_000);
  });
}
