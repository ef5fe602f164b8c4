// Plans as real planners write them (issue 20): "List the notes", "Read each note and rename it after its kind"
// (all twelve files in one step), "Confirm every note is renamed", on the 12-note task, over both wire formats.
// The planner, executor and main model are weak models on their own fake servers that decide from the request
// alone. A step runs until its work is done, its status comes from evidence, an answer that shows work left is
// never shown and the single-model loop finishes what is left, and the files really change on disk, once each.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import type { ChatBody, FakeServerHandle, Script } from '../../helpers/fakeLlm';
import { coarsePlannerModel, type CoarsePlannerOptions } from '../../helpers/weakModels/coarsePlanner';
import { renameExecutorModel, type RenameExecutorOptions } from '../../helpers/weakModels/renameExecutor';
import { renameTaskModel } from '../../helpers/weakModels/renameTaskModel';
import { FILE_COUNT, FILE_TASK, fileTaskWorkspace, renamed } from '../../helpers/tasks/fileTask';
import { WindowedScript } from '../../helpers/fakeLlm/windowedScript';
import { WIRES, historyIsValid, runOrchestrated, type OrchestratedRun } from './harness';

const ALL_RENAMED = Array.from({ length: FILE_COUNT }, (_, i) => renamed(i + 1)).sort();

for (const wire of WIRES) {
  describe(`coarse plans over ${wire.name}`, () => {
    const servers: FakeServerHandle[] = [];
    after(async () => {
      await Promise.all(servers.map((s) => s.close()));
    });
    const start = async (script: Script, name: string) => {
      const s = await wire.start(script, name);
      servers.push(s);
      return s;
    };

    async function run(options: { planner?: CoarsePlannerOptions; executor?: RenameExecutorOptions; executorWindow?: number; executorRounds?: number } = {}) {
      const ws = fileTaskWorkspace();
      const executorModel = renameExecutorModel(options.executor);
      const mainModel = renameTaskModel({ trustsTrimmed: false });
      const windowed = options.executorWindow ? new WindowedScript({ window: options.executorWindow }) : undefined;
      const planner = await start(coarsePlannerModel(options.planner), 'coarse planner');
      const executor = await start(windowed ? windowed.script((r) => executorModel(r)) : (r: ChatBody) => executorModel(r), 'rename executor');
      const main = await start((r: ChatBody) => mainModel(r), 'main');
      const result = await runOrchestrated({
        ws,
        task: FILE_TASK,
        planner: wire.provider(wire.urlOf(planner)),
        executor: wire.provider(wire.urlOf(executor)),
        main: wire.provider(wire.urlOf(main)),
        ...(options.executorWindow && { executorWindow: options.executorWindow }),
        ...(options.executorRounds && { executorRounds: options.executorRounds }),
      });
      return { ws, run: result, planner, executor, main, executorModel, mainModel, windowed };
    }

    test('all notes in one step: the step goes on until every note is renamed, each once; every step request starts with the same bytes', async () => {
      const t = await run();
      assert.equal(t.run.outcome.reason, 'completed', story(t.run));
      assert.equal(t.run.outcome.result, `Renamed all ${FILE_COUNT} notes after their kind.`);
      assert.deepEqual(readdirSync(t.ws).sort(), ALL_RENAMED);
      assert.deepEqual(moves(t.run), { ok: FILE_COUNT, failed: 0 });
      assert.deepEqual(t.executorModel.failures, []);
      assert.deepEqual(stepEnds(t.run), ['1 ok', '2 ok', '3 ok']);
      assert.equal(t.main.requests.length, 0, 'the single-model loop was not needed');
      assert.equal(t.planner.requests.length, 2, 'one plan, one answer');
      // Step 2 took a read and a move per note and one closing sentence: no cap cut it short.
      assert.equal(t.executor.requests.filter((r) => stepOf(r) === 2).length, FILE_COUNT * 2 + 1);
      assertFixedPrefix(t.executor.requests);
      assert.ok(historyIsValid(t.run.history));
    });

    test('a tired executor stops saying work remains: it is sent back each time and the step ends only when all are renamed', async () => {
      const t = await run({ executor: { tiredAfter: 5 } });
      assert.equal(t.run.outcome.reason, 'completed', story(t.run));
      assert.deepEqual(readdirSync(t.ws).sort(), ALL_RENAMED);
      assert.deepEqual(moves(t.run), { ok: FILE_COUNT, failed: 0 });
      assert.deepEqual(stepEnds(t.run), ['1 ok', '2 ok', '3 ok']);
      const nudged = t.executor.requests.filter((r) => stepOf(r) === 2 && lastUser(r).startsWith('The step is not done yet'));
      assert.ok(nudged.length >= 2, `sent back ${nudged.length} times`);
      assert.match(lastUser(nudged[0]!), /There are 7 remaining/);
      assert.equal(t.main.requests.length, 0);
      assertFixedPrefix(t.executor.requests);
    });

    for (const whenLeft of ['markup', 'not-done'] as const) {
      test(`an executor that quits after 8 notes, an answer ${whenLeft === 'markup' ? 'written as tool markup' : 'that says NOT DONE'}: nothing raw is shown, the single-model loop renames the other 4`, async () => {
        const t = await run({ planner: { confirmStep: false, whenLeft }, executor: { quitsAfter: 8 } });
        assert.equal(t.run.outcome.reason, 'task_completion', story(t.run));
        assert.deepEqual(readdirSync(t.ws).sort(), ALL_RENAMED);
        assert.deepEqual(moves(t.run), { ok: FILE_COUNT, failed: 0 }, 'each note moved once');
        assert.deepEqual(t.mainModel.failures, []);
        assert.deepEqual(stepEnds(t.run), ['1 ok', '2 ok']);
        const notice = notices(t.run).find((n) => n.startsWith('The planned run stopped'));
        assert.match(notice ?? '', whenLeft === 'markup' ? /answer shows work left \(it tried to call list_directory\)/ : /answer shows work left \(4 notes are not renamed yet/);
        const shown = t.run.events.filter((e) => e.type === 'text').map((e) => (e.type === 'text' ? e.text : '')).join('');
        assert.doesNotMatch(shown, /<tool>|tool_name|NOT DONE/, 'no markup or marker reached the user');
        assert.ok(!t.run.history.some((m) => m.role === 'assistant' && /<tool>|NOT DONE/.test(m.content)));
        // The main model saw the executor's 8 renames and did only the rest: 4 reads and 4 moves, then done.
        assert.equal(t.main.requests.length, 4 * 2 + 1);
        assert.ok(historyIsValid(t.run.history));
      });
    }

    test('the turn\'s round budget runs out mid-step: the turn stops and says so, the step stays open for Resume, nothing is called done', async () => {
      const t = await run({ executorRounds: 10 });
      assert.equal(t.run.outcome.reason, 'max_rounds', story(t.run));
      assert.match(t.run.outcome.error ?? '', /Stopped after 10 executor rounds without finishing step 2 of 3/);
      assert.deepEqual(stepEnds(t.run), ['1 ok'], 'step 2 has no status: it did not finish');
      assert.equal(t.executor.requests.length, 10);
      assert.deepEqual(moves(t.run), { ok: 4, failed: 0 });
      assert.equal(t.planner.requests.length, 1, 'no answer written for unfinished work');
      assert.equal(t.main.requests.length, 0, 'the budget bounds the turn: no fallback');
      assert.ok(historyIsValid(t.run.history));
    });

    test('a 4,096-token executor window: the long step continues in new segments, no request exceeds the window, nothing is done twice', async () => {
      const t = await run({ executorWindow: 4096 });
      assert.equal(t.run.outcome.reason, 'completed', story(t.run));
      assert.deepEqual(t.windowed!.overWindow, [], 'no executor request over the window');
      assert.deepEqual(readdirSync(t.ws).sort(), ALL_RENAMED);
      assert.deepEqual(moves(t.run), { ok: FILE_COUNT, failed: 0 });
      assert.deepEqual(t.executorModel.failures, []);
      const restarted = t.executor.requests.filter((r) => stepOf(r) === 2 && /Already done in this step/.test(userText(r)));
      assert.ok(restarted.length > 0, 'step 2 went on in a new segment');
      assertFixedPrefix(t.executor.requests, { segments: true });
    });
  });
}

type Message = { role: string; content?: string };

function messagesOf(r: ChatBody): Message[] {
  return (r.messages ?? []) as Message[];
}

function userText(r: ChatBody): string {
  return messagesOf(r)[1]?.content ?? '';
}

function lastUser(r: ChatBody): string {
  return [...messagesOf(r)].reverse().find((m) => m.role === 'user')?.content ?? '';
}

function stepOf(r: ChatBody): number {
  return Number(/^Step (\d+) of/.exec(userText(r))?.[1] ?? 0);
}

/**
 * Every executor request: the same system message and tool definitions as the first, the step in the user message
 * after it; within a step each request extends the one before (unless `segments`: a new segment may restart it).
 */
function assertFixedPrefix(requests: readonly ChatBody[], options: { segments?: boolean } = {}): void {
  const first = requests[0]!;
  for (const r of requests) {
    assert.deepEqual(messagesOf(r)[0], messagesOf(first)[0], 'the same system message');
    assert.equal(JSON.stringify(r.tools), JSON.stringify(first.tools), 'the same tools, in the same order');
    assert.ok(stepOf(r) > 0, 'the step is in the user message after the system prompt');
  }
  for (let i = 1; i < requests.length; i++) {
    const [before, now] = [messagesOf(requests[i - 1]!), messagesOf(requests[i]!)];
    if (stepOf(requests[i - 1]!) !== stepOf(requests[i]!)) continue;
    if (options.segments && userText(requests[i]!) !== userText(requests[i - 1]!)) continue;
    assert.deepEqual(now.slice(0, before.length), before, `request ${i} extends request ${i - 1} (append-only within a step)`);
  }
}

function moves(run: OrchestratedRun): { ok: number; failed: number } {
  const results = run.events.filter((e) => e.type === 'tool_result' && e.name === 'move_file');
  return { ok: results.filter((e) => e.type === 'tool_result' && e.ok).length, failed: results.filter((e) => e.type === 'tool_result' && !e.ok).length };
}

function stepEnds(run: OrchestratedRun): string[] {
  return run.events.flatMap((e) => (e.type === 'step_end' ? [`${e.stepId} ${e.status}`] : []));
}

function notices(run: OrchestratedRun): string[] {
  return run.events.flatMap((e) => (e.type === 'notice' ? [e.message] : []));
}

function story(run: OrchestratedRun): string {
  return JSON.stringify(run.events.filter((e) => e.type === 'notice' || e.type === 'error' || e.type === 'step_end' || e.type === 'turn_end'));
}
