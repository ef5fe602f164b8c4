// The plan → execute → synthesize orchestrator in process, over both wire formats: planner, executor and main
// model each on their own fake server (different ports), scripted as weak models that answer from the request
// alone. The header task shows any repeated edit on disk, so "nothing ran twice" is read from the files.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FakeServerHandle, ChatBody } from '../../helpers/fakeLlm';
import { headerCounts, headerTaskText, headerWorkspace, singleModelReply } from '../../helpers/weakModels/headerTask';
import { plannerModel, isPlanRequest, isSynthesisRequest } from '../../helpers/weakModels/plannerModel';
import { executorModel } from '../../helpers/weakModels/executorModel';
import { WIRES, closedPort, historyIsValid, offered, okResults, runOrchestrated } from './harness';

const FILES = 6;

for (const wire of WIRES) {
  describe(`planner/executor orchestrator over ${wire.name}`, () => {
    const servers: FakeServerHandle[] = [];
    const start = async (script: (request: ChatBody) => ReturnType<typeof singleModelReply>, name: string) => {
      const s = await wire.start(script, name);
      servers.push(s);
      return s;
    };
    after(async () => {
      await Promise.all(servers.map((s) => s.close()));
    });
    const structured = (r: ChatBody) => r.format !== undefined || r.response_format !== undefined;

    test('a multi-file task is planned on the planner, executed step by step on the executor only, answered by the planner; writes are still asked', async () => {
      const { ws, files } = headerWorkspace(FILES);
      const planner = await start(plannerModel({ plan: 'clumsy' }), 'planner');
      const executor = await start(executorModel(), 'executor');
      const main = await start(singleModelReply, 'main (must stay idle)');
      const run = await runOrchestrated({
        ws,
        task: headerTaskText(FILES),
        planner: wire.provider(wire.urlOf(planner)),
        executor: wire.provider(wire.urlOf(executor)),
        main: wire.provider(wire.urlOf(main)),
      });

      assert.equal(run.outcome.reason, 'completed', JSON.stringify(run.events.filter((e) => e.type === 'notice' || e.type === 'error')));
      assert.deepEqual(headerCounts(ws, files), files.map(() => 1));
      // Planner: one structured plan request without tools, one synthesis request without tools.
      assert.equal(planner.requests.length, 2);
      assert.ok(isPlanRequest(planner.requests[0]!) && structured(planner.requests[0]!));
      assert.ok(isSynthesisRequest(planner.requests[1]!));
      for (const r of planner.requests) assert.deepEqual(offered(r), []);
      // Executor: every request offers tools, three rounds a step (read, edit, done); the main model is never asked.
      assert.equal(executor.requests.length, FILES * 3);
      for (const r of executor.requests) assert.ok(offered(r).includes('edit_file') && !offered(r).includes('todo_write'));
      assert.equal(main.requests.length, 0);
      // The approval gate asked for every write, and only for writes.
      assert.deepEqual(run.asked, files.map(() => 'edit_file'));
      assert.deepEqual(okResults(run.events, 'edit_file'), files);

      const plan = run.events.find((e) => e.type === 'plan');
      assert.ok(plan && plan.type === 'plan');
      assert.deepEqual(plan.steps.map((s) => s.id), ['1', '2', '3', '4', '5', '6']);
      assert.deepEqual(plan.steps[2]!.dependsOn, ['2']); // the clumsy single depends_on, kept
      const steps = run.events.filter((e) => e.type === 'step_start' || e.type === 'step_end').map((e) => (e.type === 'step_start' ? `start ${e.stepId}` : `end ${e.stepId} ${e.status}`));
      assert.deepEqual(steps, files.flatMap((_, i) => [`start ${i + 1}`, `end ${i + 1} ok`]));
      const types = run.events.map((e) => e.type);
      assert.ok(types.indexOf('plan') < types.indexOf('step_start'));
      assert.ok(types.lastIndexOf('step_end') < types.lastIndexOf('text'));
      assert.deepEqual(run.events.at(-1), { type: 'turn_end', reason: 'completed', result: `Added the header to ${FILES} of ${FILES} files.` });
      // The plan is the todo list, ticked step by step.
      const last = run.todoLists.at(-1)!;
      assert.equal(last.length, FILES);
      assert.ok(last.every((t) => t.status === 'done'));
      assert.ok(run.todoLists.some((l) => l[0]?.status === 'done' && l[1]?.status === 'in_progress' && l[5]?.status === 'pending'));
      // History reads like a normal turn: the request, the calls with their results in order, the answer.
      assert.equal(run.history[0]!.role, 'user');
      assert.equal(run.history[0]!.content, headerTaskText(FILES));
      assert.ok(historyIsValid(run.history));
      assert.equal(run.history.filter((m) => m.toolCalls?.length).length, FILES * 2);
      assert.equal(run.history.at(-1)!.content, `Added the header to ${FILES} of ${FILES} files.`);
    });

    test('fallback: a plan invalid twice → the single-model loop does the task', async () => {
      const { ws, files } = headerWorkspace(FILES);
      const planner = await start(plannerModel({ plan: 'invalid' }), 'planner (invalid)');
      const executor = await start(executorModel(), 'executor');
      const main = await start(singleModelReply, 'main');
      const run = await runOrchestrated({ ws, task: headerTaskText(FILES), planner: wire.provider(wire.urlOf(planner)), executor: wire.provider(wire.urlOf(executor)), main: wire.provider(wire.urlOf(main)) });
      assert.equal(run.outcome.reason, 'task_completion'); // the single-model loop finished with task_completion
      assert.equal(planner.requests.length, 2); // the plan and its one retry
      assert.equal(executor.requests.length, 0);
      assert.ok(notices(run).some((n) => /plan was invalid twice/.test(n)), notices(run).join('\n'));
      assert.deepEqual(headerCounts(ws, files), files.map(() => 1));
      assert.deepEqual(okResults(run.events, 'edit_file'), files);
      // The request is in history once; one turn_start, one turn_end.
      assert.equal(run.history.filter((m) => m.role === 'user' && m.content === headerTaskText(FILES)).length, 1);
      assert.equal(run.outcome.result, `All ${FILES} files now start with "Reviewed: yes".`);
      assert.equal(run.events.filter((e) => e.type === 'turn_start').length, 1);
      assert.equal(run.events.filter((e) => e.type === 'turn_end').length, 1);
    });

    test('fallback: a step that fails twice → the single-model loop continues from history, nothing done twice', async () => {
      const { ws, files } = headerWorkspace(FILES);
      const planner = await start(plannerModel({ plan: 'good' }), 'planner');
      const executor = await start(executorModel({ breakOn: files[2] }), 'executor (breaks on doc-03)');
      const main = await start(singleModelReply, 'main');
      const run = await runOrchestrated({ ws, task: headerTaskText(FILES), planner: wire.provider(wire.urlOf(planner)), executor: wire.provider(wire.urlOf(executor)), main: wire.provider(wire.urlOf(main)) });
      assert.equal(run.outcome.reason, 'task_completion'); // the single-model loop finished with task_completion
      assert.ok(notices(run).some((n) => /step 3 .*failed twice/.test(n)), notices(run).join('\n'));
      assert.deepEqual(headerCounts(ws, files), files.map(() => 1));
      assert.deepEqual(okResults(run.events, 'edit_file'), files); // each file edited exactly once
      // Steps 1 and 2 on the executor (3 requests each), step 3 twice with 4 rounds each; the rest on the main model.
      assert.equal(executor.requests.length, 2 * 3 + 2 * 4);
      assert.ok(main.requests.length >= (FILES - 2) * 2);
      // The main model's first request carries the executor's work: its edits of doc-01 and doc-02.
      const firstMain = JSON.stringify(main.requests[0]!.messages);
      assert.match(firstMain, /Edited doc-01\.txt/);
      assert.match(firstMain, /do not repeat them/);
      assert.ok(historyIsValid(run.history));
      assert.deepEqual(stepEnds(run), ['1 ok', '2 ok', '3 failed']);
    });

    test('fallback: an executor that answers with text and no tool → the single-model loop finishes', async () => {
      const { ws, files } = headerWorkspace(FILES);
      const planner = await start(plannerModel({ plan: 'good' }), 'planner');
      const executor = await start(executorModel({ deflectOn: files[1] }), 'executor (deflects on doc-02)');
      const main = await start(singleModelReply, 'main');
      const run = await runOrchestrated({ ws, task: headerTaskText(FILES), planner: wire.provider(wire.urlOf(planner)), executor: wire.provider(wire.urlOf(executor)), main: wire.provider(wire.urlOf(main)) });
      assert.equal(run.outcome.reason, 'task_completion'); // the single-model loop finished with task_completion
      assert.ok(notices(run).some((n) => /answered step 2 without calling a tool/.test(n)), notices(run).join('\n'));
      assert.deepEqual(headerCounts(ws, files), files.map(() => 1));
      assert.deepEqual(okResults(run.events, 'edit_file'), files);
      assert.deepEqual(stepEnds(run), ['1 ok', '2 failed']);
      assert.ok(historyIsValid(run.history));
    });

    test('fallback: an unreachable executor server → the single-model loop finishes', async () => {
      const { ws, files } = headerWorkspace(FILES);
      const planner = await start(plannerModel({ plan: 'good' }), 'planner');
      const main = await start(singleModelReply, 'main');
      const run = await runOrchestrated({ ws, task: headerTaskText(FILES), planner: wire.provider(wire.urlOf(planner)), executor: wire.provider(wire.closedUrl(await closedPort())), main: wire.provider(wire.urlOf(main)) });
      assert.equal(run.outcome.reason, 'task_completion'); // the single-model loop finished with task_completion
      assert.ok(notices(run).some((n) => /executor \(executor-model at .*\) failed on step 1/.test(n)), notices(run).join('\n'));
      assert.deepEqual(headerCounts(ws, files), files.map(() => 1));
      assert.deepEqual(okResults(run.events, 'edit_file'), files);
      assert.equal(planner.requests.length, 1);
      assert.equal(run.history.filter((m) => m.role === 'user' && m.content === headerTaskText(FILES)).length, 1);
    });

    test('fallback: an unreachable planner server → the single-model loop finishes', async () => {
      const { ws, files } = headerWorkspace(FILES);
      const executor = await start(executorModel(), 'executor');
      const main = await start(singleModelReply, 'main');
      const run = await runOrchestrated({ ws, task: headerTaskText(FILES), planner: wire.provider(wire.closedUrl(await closedPort())), executor: wire.provider(wire.urlOf(executor)), main: wire.provider(wire.urlOf(main)) });
      assert.equal(run.outcome.reason, 'task_completion'); // the single-model loop finished with task_completion
      assert.ok(notices(run).some((n) => /planner \(planner-model at .*\) failed/.test(n)), notices(run).join('\n'));
      assert.deepEqual(headerCounts(ws, files), files.map(() => 1));
      assert.deepEqual(okResults(run.events, 'edit_file'), files);
      assert.equal(executor.requests.length, 0);
    });

    test('Stop cancels the planned run at once: no more steps, no synthesis, no fallback, history valid', async () => {
      const { ws, files } = headerWorkspace(FILES);
      const planner = await start(plannerModel({ plan: 'good' }), 'planner');
      const executor = await start(executorModel(), 'executor');
      const main = await start(singleModelReply, 'main');
      const stop = new AbortController();
      const run = await runOrchestrated({
        ws,
        task: headerTaskText(FILES),
        planner: wire.provider(wire.urlOf(planner)),
        executor: wire.provider(wire.urlOf(executor)),
        main: wire.provider(wire.urlOf(main)),
        signal: stop.signal,
        onEvent: (e) => {
          if (e.type === 'step_start' && e.index === 1) stop.abort();
        },
      });
      assert.equal(run.outcome.reason, 'cancelled');
      assert.deepEqual(headerCounts(ws, files), [1, 0, 0, 0, 0, 0]);
      assert.equal(planner.requests.length, 1);
      assert.equal(main.requests.length, 0);
      assert.equal(executor.requests.length, 3);
      assert.ok(historyIsValid(run.history));
      assert.deepEqual(run.events.at(-1), { type: 'turn_end', reason: 'cancelled' });
    });
  });
}

function notices(run: { events: Array<{ type: string; message?: string }> }): string[] {
  return run.events.filter((e) => e.type === 'notice').map((e) => e.message ?? '');
}

function stepEnds(run: { events: Array<{ type: string }> }): string[] {
  return run.events.filter((e) => e.type === 'step_end').map((e) => {
    const s = e as unknown as { stepId: string; status: string };
    return `${s.stepId} ${s.status}`;
  });
}
