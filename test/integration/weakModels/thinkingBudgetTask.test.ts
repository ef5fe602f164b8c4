// A reasoning model that thinks past the budget before every step of the 12-note rename, through the real CLI over
// both wire formats: each overlong reasoning is stopped at the budget, the step is asked again without thinking, and
// the task completes. (Ollama gets `think: false`; the OpenAI-compatible server, not known to be llama.cpp, gets
// the /no_think switch in the note.)
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { WIRE_FORMATS } from '../../helpers/cli/wire';
import type { FakeServerHandle } from '../../helpers/fakeLlm';
import { estimateTokens } from '../../../src/core/tokens';
import { renameTaskModel } from '../../helpers/weakModels';
import { CUT_REASONING_MARK, reasoningModel, thinkingOff } from '../../helpers/weakModels/reasoningModel';
import { lastUserContent } from './weakCli';
import { FILE_COUNT, FILE_TASK, fileTaskWorkspace } from '../../helpers/tasks/fileTask';
import { assertAllRenamed, lastLines, runAgent } from '../smallWindows/smallWindowRuns';

const BUDGET = 400;
const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

for (const wire of WIRE_FORMATS) {
  describe(`thinking budget over ${wire.name}`, () => {
    test('a model that thinks 3,000 tokens a step is stopped at the budget each time, and the task completes', async (t) => {
      const ws = fileTaskWorkspace(FILE_COUNT, 400); // short notes: the fake OpenAI server's model is loaded with 4,096 tokens
      const server = await wire.start(reasoningModel(renameTaskModel({ trustsTrimmed: false }), 3000), `thinking budget (${wire.name})`);
      servers.push(server);
      const run = await runAgent([...wire.flags(server), '--max-rounds', '60', '--thinking-budget', String(BUDGET), FILE_TASK], ws);

      // Thinking per model call, as shown: each round's reasoning ends at the budget.
      const perRound: number[] = [];
      for (const e of run.events) {
        if (e.type === 'round_start') perRound.push(0);
        else if (e.type === 'thinking' && perRound.length) perRound[perRound.length - 1]! += estimateTokens(String(e.text));
      }
      const stops = run.events.filter((e) => e.type === 'status' && /Thinking budget reached/.test(String(e.message))).length;
      const retries = server.requests.filter((r) => thinkingOff(r) && lastUserContent(r).includes(CUT_REASONING_MARK)).length;
      t.diagnostic(`${perRound.length} rounds, ${stops} budget stops, ${server.requests.length} requests (${retries} retries without thinking); thinking per round max ${Math.max(...perRound)}`);
      assert.equal(run.code, 0, lastLines(run.stderr));
      assertAllRenamed(ws, FILE_COUNT, `exit ${run.code}`);
      assert.equal(run.events.at(-1)?.reason, 'task_completion');
      assert.equal(stops, perRound.length, 'every round thought past the budget and was stopped');
      // The compression pass keeps to the budget too (its stops are not rounds, so they show no status).
      assert.ok(retries >= stops, 'each stop asked once more, without thinking, with the partial reasoning');
      assert.ok(perRound.every((n) => n > BUDGET && n < BUDGET + 60), `thinking per round stayed at the budget: ${perRound.join(' ')}`);
    });
  });
}
