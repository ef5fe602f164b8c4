// `--config FILE`: the agent and context knobs from a JSON file reach the session; bad files are usage errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../helpers/cli/runCli';
import { startFakeOpenAIServer } from '../../helpers/fakeLlm';

function workspace(): { root: string; ws: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'lh-config-'));
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  return { root, ws };
}

test('instructions and the xml tool protocol from --config are used', async () => {
  const { root, ws } = workspace();
  writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
  const config = path.join(root, 'lh.json');
  writeFileSync(config, JSON.stringify({ agent: { toolProtocol: 'xml' }, context: { compressAt: 0.8 }, instructions: 'Always answer like a pirate.' }));
  const server = await startFakeOpenAIServer(
    [
      { text: 'Reading it.\n<tool>{"server_name": "local", "tool_name": "read_file", "arguments": {"path": "a.txt"}}</tool>' },
      { text: '<tool>{"server_name": "local", "tool_name": "task_completion", "arguments": {"result": "Arr, the file says alpha."}}</tool>' },
    ],
    { name: 'config' },
  );
  try {
    const run = await runCli(['run', '--provider', 'openai', '--base-url', server.url, '--model', 'm', '--workspace', ws, '--config', config, '--json', 'read a.txt'], { cwd: ws });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(run.events.at(-1), { type: 'turn_end', reason: 'task_completion', result: 'Arr, the file says alpha.' });
    const first = server.requests[0]!;
    assert.equal(first.tools, undefined, 'xml mode sends no native tools');
    const system = String((first.messages as Array<{ content?: unknown }>)[0]?.content);
    assert.match(system, /Always answer like a pirate\./);
    assert.match(system, /<tool>/);
    assert.match(JSON.stringify(server.requests[1]!.messages), /alpha/);
    assert.equal(readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'alpha\n');
  } finally {
    await server.close();
  }
});

test('a bad --config is a usage error (exit 2) naming the problem', async () => {
  const { root, ws } = workspace();
  const bad = path.join(root, 'bad.json');
  writeFileSync(bad, JSON.stringify({ agent: { toolProtocol: 'carrier-pigeon' } }));
  const run = await runCli(['run', '--model', 'm', '--workspace', ws, '--config', bad, 'x'], { cwd: ws });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /--config .*toolProtocol/);
  writeFileSync(bad, '{not json');
  const run2 = await runCli(['run', '--model', 'm', '--workspace', ws, '--config', bad, 'x'], { cwd: ws });
  assert.equal(run2.code, 2);
  writeFileSync(bad, JSON.stringify({ agnet: {} }));
  const run3 = await runCli(['run', '--model', 'm', '--workspace', ws, '--config', bad, 'x'], { cwd: ws });
  assert.equal(run3.code, 2);
  assert.match(run3.stderr, /unknown key\(s\) agnet/);
});
