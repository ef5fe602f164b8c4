// A server that silently cuts the prompt counts far fewer prompt tokens than were sent. Through the CLI, over
// both wire formats: the user gets exactly one notice per session, naming the fix for that kind of server,
// and the cut counts do not drag the token calibration down (the budget keeps trusting its own estimate).
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/cli/runCli';
import { WIRE_FORMATS } from '../../helpers/cli/wire';
import type { FakeServerHandle } from '../../helpers/fakeLlm';
import { fileTaskModel, fileTaskWorkspace } from '../../helpers/tasks/fileTask';
import { WindowedScript } from '../../helpers/fakeLlm/windowedScript';

const WINDOW = 8192;
const TRUNCATION = /counted [\d,]+ prompt tokens, but we sent about/;

const FIX: Record<string, RegExp> = {
  ollama: /num_ctx/,
  openai: /reload the model with a larger context length/,
};

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

for (const wire of WIRE_FORMATS) {
  describe(`silent truncation over ${wire.name}`, () => {
    test('a server reporting a third of the prompt: one notice for the whole session, with the fix', async () => {
      const ws = fileTaskWorkspace(3);
      const windowed = new WindowedScript({ window: WINDOW, reportShare: 0.3 });
      const server = await wire.start(windowed.script(fileTaskModel()), `under-reporting ${wire.name}`);
      servers.push(server);

      const run = await runCli(['run', ...wire.flags(server), '--num-ctx', String(WINDOW), '--workspace', ws, '--approve', 'all', '--json', 'Rename the notes.'], {
        cwd: ws,
        timeoutMs: 30_000,
      });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(server.requests.length, 7, 'list, three reads and three moves');

      const notices = run.events.filter((e) => e.type === 'notice' && TRUNCATION.test(String(e.message)));
      assert.equal(notices.length, 1, JSON.stringify(notices));
      const message = String(notices[0]!.message);
      assert.match(message, FIX[wire.name]!);
      assert.match(message, new RegExp(`${WINDOW.toLocaleString('en-US')}-token window`));
      // It came with the first cut count, not at the end.
      const firstUsage = run.events.findIndex((e) => e.type === 'usage');
      assert.ok(run.events.indexOf(notices[0]!) > firstUsage && run.events.indexOf(notices[0]!) < firstUsage + 5);

      // The cut counts never became "the truth": what the client budgets stays near what it really sends.
      const used = run.events.filter((e) => e.type === 'context').map((e) => Number(e.used));
      const sent = windowed.measured.map((m) => m.tokens);
      assert.equal(used.length, sent.length);
      for (let i = 0; i < used.length; i++) assert.ok(used[i]! > sent[i]! * 0.7, `request ${i}: budgeted ${used[i]}, sent ${sent[i]} proxy tokens`);
    });

    test('an honest server: no truncation notice', async () => {
      const ws = fileTaskWorkspace(2);
      const windowed = new WindowedScript({ window: WINDOW });
      const server = await wire.start(windowed.script(fileTaskModel()), `honest ${wire.name}`);
      servers.push(server);
      const run = await runCli(['run', ...wire.flags(server), '--num-ctx', String(WINDOW), '--workspace', ws, '--approve', 'all', '--json', 'Rename the notes.'], {
        cwd: ws,
        timeoutMs: 30_000,
      });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(server.requests.length, 5);
      assert.deepEqual(
        run.events.filter((e) => e.type === 'notice' && TRUNCATION.test(String(e.message))),
        [],
      );
    });
  });
}
