// A planned run survives the editor closing: the plan and each finished step are stored with the session (real
// sql.js file), and a new process continues at the first unfinished step — no second plan, no step run twice,
// a step cut off halfway finishing from what it already did. Weak scripted models answer from the request alone.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtSession, NO_BACKOFF } from '../../helpers/builtSession';
import { EventBus, type AgentEvent } from '../../../src/core/agent/events';
import { ApprovalGate } from '../../../src/core/approval/gate';
import { ContextTracker } from '../../../src/core/workingContext/tracker';
import type { ChatProvider } from '../../../src/core/provider';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { registerBuiltinTools } from '../../../src/core/tools/builtin/index';
import { WorkspaceRoots } from '../../../src/core/workspace/workspaceRoots';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { NodeProcessRunner } from '../../../src/node/nodeProcessRunner';
import { SessionStore } from '../../../src/persistence/sessionStore';
import { startRecording, type SessionRecorder } from '../../../src/persistence/sessionRecorder';
import { savedRunOf, unfinishedRun } from '../../../src/persistence/planRuns';
import type { FakeServerHandle } from '../../helpers/fakeLlm';
import { headerCounts, headerTaskText, headerWorkspace, singleModelReply } from '../../helpers/weakModels/headerTask';
import { plannerModel, isPlanRequest, isSynthesisRequest } from '../../helpers/weakModels/plannerModel';
import { executorModel } from '../../helpers/weakModels/executorModel';
import { WIRES, historyIsValid } from './harness';

const FILES = 5;

interface Models {
  planner: ChatProvider;
  executor: ChatProvider;
  main: ChatProvider;
}

/** One "window": a store opened on the file, a recorder, a session built on what was stored. */
async function openWindow(file: string, ws: string, models: Models, sessionId?: string, forward: (e: AgentEvent) => boolean = () => true) {
  const store = await SessionStore.open(file, { foldIdleMs: 0 });
  const recorder: SessionRecorder = await startRecording(store, {
    ...(sessionId !== undefined && { sessionId }),
    meta: { title: headerTaskText(FILES), model: 'main-model', provider: 'test' },
    warn: (m) => assert.fail(`recorder warned: ${m}`),
  });
  const bus = new EventBus();
  const events: AgentEvent[] = [];
  bus.on((e) => {
    events.push(e);
    if (forward(e)) recorder.onEvent(e);
  });
  const fs = new NodeFileSystem();
  const registry = new ToolRegistry();
  registerBuiltinTools(registry);
  const session = builtSession(
    {
      provider: models.main,
      model: 'main-model',
      registry,
      gate: new ApprovalGate({ policy: { autoApprove: ['read', 'write'], rules: [] }, ask: async () => ({ approved: true, scope: 'once' }) }),
      tracker: new ContextTracker(),
      roots: new WorkspaceRoots([{ name: path.basename(ws), path: ws }], fs),
      fs,
      runner: new NodeProcessRunner(),
      bus,
      systemInfo: { os: 'Linux', shell: '/bin/sh', workspaceFolders: [ws] },
    },
    { agent: NO_BACKOFF },
    {
      history: recorder.history,
      recording: { onMessage: (m) => recorder.onMessage(m) },
      orchestrator: { planner: { provider: models.planner, model: 'planner-model' }, executor: { provider: models.executor, model: 'executor-model' } },
    },
  );
  return { store, recorder, session, events, bus };
}

for (const wire of WIRES) {
  describe(`resuming a planned run over ${wire.name}`, () => {
    const servers: FakeServerHandle[] = [];
    after(async () => {
      await Promise.all(servers.map((s) => s.close()));
    });
    const start = async (script: Parameters<typeof wire.start>[0], name: string) => {
      const s = await wire.start(script, name);
      servers.push(s);
      return s;
    };

    for (const how of ['the window closed (no turn end stored)', 'the user pressed Stop'] as const) {
      test(`${how} halfway through step 3 → a new window continues at step 3, nothing planned or run twice`, async () => {
        const { ws, files } = headerWorkspace(FILES);
        const planner = await start(plannerModel({ plan: 'clumsy' }), 'planner');
        const executor = await start(executorModel(), 'executor');
        const main = await start(singleModelReply, 'main (must stay idle)');
        const models = { planner: wire.provider(wire.urlOf(planner)), executor: wire.provider(wire.urlOf(executor)), main: wire.provider(wire.urlOf(main)) };
        const db = path.join(mkdtempSync(path.join(tmpdir(), 'lh-resume-')), 'sessions.db');

        // First window: cut off right after step 3's edit ran (its read and edit are stored, its "done" is not).
        const closed = how.startsWith('the window closed');
        const abort = new AbortController();
        let edits = 0;
        const first = await openWindow(db, ws, models, undefined, (e) => !(closed && (abort.signal.aborted || e.type === 'turn_end')));
        first.bus.on((e) => {
          if (e.type === 'tool_result' && e.name === 'edit_file' && ++edits === 3) abort.abort();
        });
        const cut = await first.session.send(headerTaskText(FILES), abort.signal);
        assert.equal(cut.reason, 'cancelled');
        await first.recorder.settle();
        await first.store.close();
        assert.deepEqual(headerCounts(ws, files), [1, 1, 1, 0, 0]);
        const executorCallsBefore = executor.requests.length;

        // Second window: the stored run is offered for resuming, with the steps that finished.
        const second = await openWindow(db, ws, models, first.recorder.id);
        const run = unfinishedRun(second.recorder.planRuns);
        assert.ok(run, `no unfinished run in ${JSON.stringify(second.recorder.planRuns)}`);
        assert.equal(run.state, closed ? 'running' : 'stopped');
        assert.equal(run.request, headerTaskText(FILES));
        assert.deepEqual(run.records.map((r) => `${r.stepId} ${r.status}`), ['1 ok', '2 ok']);
        assert.ok(run.records[0]!.result.includes('edit_file'), 'a step record keeps its results for later steps');
        assert.equal(second.session.history[run.messageIndex]?.content, run.request, 'messageIndex points at the request');

        const outcome = await second.session.resumePlan(savedRunOf(run), new AbortController().signal);
        assert.equal(outcome.reason, 'completed', JSON.stringify(second.events.filter((e) => e.type === 'notice' || e.type === 'error')));
        // Every file has the header exactly once: step 3's edit was not repeated, steps 1–2 not run again.
        assert.deepEqual(headerCounts(ws, files), files.map(() => 1));
        assert.equal(planner.requests.filter(isPlanRequest).length, 1, 'planned once');
        assert.equal(planner.requests.filter(isSynthesisRequest).length, 1, 'answered once');
        assert.equal(main.requests.length, 0);
        const resumedSteps = second.events.filter((e) => e.type === 'step_start').map((e) => (e.type === 'step_start' ? e.stepId : ''));
        assert.deepEqual(resumedSteps, ['3', '4', '5']);
        // Step 3 saw its own read and edit and only said it was done (one request); steps 4–5 took three each.
        assert.equal(executor.requests.length - executorCallsBefore, 1 + 2 * 3);
        const plan = second.events.find((e) => e.type === 'plan');
        assert.ok(plan && plan.type === 'plan' && plan.resumed === true);
        assert.ok(historyIsValid(second.session.history));
        assert.equal(second.session.history.filter((m) => m.role === 'user').length, 1, 'the request is stored once');
        await second.recorder.settle();
        await second.store.close();

        // A third window sees the run finished: nothing left to resume, the records complete.
        const third = await openWindow(db, ws, models, first.recorder.id);
        assert.equal(unfinishedRun(third.recorder.planRuns), undefined);
        assert.equal(third.recorder.planRuns.length, 1);
        assert.equal(third.recorder.planRuns[0]!.state, 'completed');
        assert.deepEqual(third.recorder.planRuns[0]!.records.map((r) => r.status), files.map(() => 'ok'));
        await third.store.close();
      });
    }
  });
}
