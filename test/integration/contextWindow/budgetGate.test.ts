// The budget gate through the CLI: when even after compression less than the answer's room would remain (512
// tokens before a reply was seen, at most 40% of a small window), the turn stops with a clear message and exit
// code 1, and nothing is sent over the window.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../../helpers/cli/runCli';
import { WIRE_FORMATS } from '../../helpers/cli/wire';
import type { FakeServerHandle } from '../../helpers/fakeLlm';
import { fileTaskWorkspace } from '../../helpers/tasks/fileTask';
import { WindowedScript, type ReplyFn } from '../../helpers/fakeLlm/windowedScript';

const STOPPED = /Stopped before calling the model: the context window is full/;

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

for (const wire of WIRE_FORMATS) {
  describe(`budget gate over ${wire.name}`, () => {
    test('a window too small for the system prompt, the tools and an answer: stops before the first request', async () => {
      const ws = fileTaskWorkspace(1);
      // 500 tokens: even with the tool pre-filter offering only the tools it must (task_completion, ask_question,
      // tool_search), the system prompt and those definitions leave less than the 40% kept for the answer.
      const windowed = new WindowedScript({ window: 500 });
      const server = await wire.start(windowed.script(() => ({ text: 'never asked' })), `tiny window ${wire.name}`);
      servers.push(server);

      const run = await runCli(['run', ...wire.flags(server), '--num-ctx', '500', '--workspace', ws, '--json', 'Summarise the notes.'], { cwd: ws });
      assert.equal(run.code, 1);
      assert.equal(server.requests.length, 0, 'no request the server would have to cut');
      const error = run.events.find((e) => e.type === 'error');
      assert.match(String(error?.message), STOPPED);
      // The message says why and what to do.
      assert.match(String(error?.message), /system prompt \([\d,]+ tokens\) and tool definitions \([\d,]+\) alone leave less than 200 of the 500-token window/);
      assert.match(String(error?.message), /larger context window/);
      assert.match(run.stderr, STOPPED);
      assert.deepEqual(run.events.at(-1), { type: 'turn_end', reason: 'error' });
    });

    test('a tool result that cannot be compressed leaves too little room: stops mid-turn, never over the window', async () => {
      const ws = fileTaskWorkspace(0);
      // ~5.9 KB: just under the tool-result cut, so the whole file lands in the conversation as the latest result.
      writeFileSync(path.join(ws, 'big.txt'), 'The quick brown fox jumps over the lazy dog again and again. \n'.repeat(95));
      // The list fits with room for an answer; the list, the whole file and 512 tokens for the answer do not.
      const window = 2700;
      const windowed = new WindowedScript({ window });
      const agent: ReplyFn = (_request, index) =>
        index === 0
          ? { toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] }
          : index === 1
            ? { toolCalls: [{ name: 'read_file', arguments: { path: 'big.txt' } }] }
            : { text: 'The file repeats one sentence.' };
      const server = await wire.start(windowed.script(agent), `full window ${wire.name}`);
      servers.push(server);

      const run = await runCli(['run', ...wire.flags(server), '--num-ctx', String(window), '--workspace', ws, '--json', 'What is in big.txt?'], { cwd: ws });
      assert.equal(run.code, 1, run.stderr);
      assert.deepEqual(windowed.overWindow, []);
      // The list and the read went out; the request carrying the whole file never did.
      assert.equal(windowed.measured.filter((m) => !m.compression).length, 2);
      assert.ok(run.events.some((e) => e.type === 'tool_result' && e.name === 'read_file' && e.ok === true));
      const error = run.events.find((e) => e.type === 'error');
      assert.match(String(error?.message), STOPPED);
      assert.match(String(error?.message), new RegExp(`${window.toLocaleString('en-US')}-token window`));
      assert.match(String(error?.message), /compression could not free more/);
      assert.match(run.stderr, STOPPED);
      assert.deepEqual(run.events.at(-1), { type: 'turn_end', reason: 'error' });
    });
  });
}
