// A planned turn in the editor's panel: the plan and each step that did not succeed become notice lines, steps that
// went well add nothing (their tool calls are ordinary cards), and the plan is the todo list of "What the model knows",
// ticking off step by step. The second half runs a real planned turn on the session the controller builds, against
// a fake Ollama server with a planner and an executor model, and watches the chat state and the tracker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { startFakeOllamaServer, type ChatBody } from '../../helpers/fakeLlm';
import { plannerModel } from '../../helpers/weakModels/plannerModel';
import { executorModel } from '../../helpers/weakModels/executorModel';
import { headerCounts, headerTaskText, headerWorkspace } from '../../helpers/weakModels/headerTask';
import { EventBus, type AgentEvent } from '../../../src/core/agent/events';
import { ContextTracker } from '../../../src/core/workingContext/tracker';
import type { ApprovalRequest } from '../../../src/core/approval/gate';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { NodeProcessRunner } from '../../../src/node/nodeProcessRunner';
import { ApprovalGate, createChatProvider, createToolRegistry } from '../../../src/editor/engine/turnEngine';
import { editorSession } from '../../helpers/editorSession';
import { agentEventToChatEvents } from '../../../src/editor/chat/agentEventMapping';
import { ChatStateStore } from '../../../src/editor/chat/chatStateStore';
import { hotContextView } from '../../../src/editor/chat/hotContextView';
import { Logger } from '../../../src/editor/log/logger';
import { chooseOrchestrator, orchestratorOptions } from '../../../src/editor/orchestrator/orchestratorEndpoints';
import { planNotice, stepNotice } from '../../../src/editor/orchestrator/orchestratorNotices';
import { DEFAULT_SETTINGS, type HarnessSettings } from '../../../src/editor/settings/harnessSettings';
import { ChatViewStateSchema } from '../../../src/shared/protocol';
import { RecordingLogSink } from '../../helpers/recordingLogSink';

test('plan, step_start and step_end map to notices only where there is news', () => {
  const plan: AgentEvent = {
    type: 'plan',
    steps: [
      { id: '1', goal: 'Read src/a.ts.', toolHint: 'read_file', dependsOn: [] },
      { id: '2', goal: 'Replace  foo\nwith bar in src/a.ts', toolHint: 'edit_file', dependsOn: ['1'] },
    ],
    doneWhen: 'src/a.ts says bar.',
  };
  assert.deepEqual(agentEventToChatEvents(plan), [{ type: 'notice', text: 'Planned 2 steps: 1. Read src/a.ts; 2. Replace foo with bar in src/a.ts. Done when src/a.ts says bar.' }]);
  assert.deepEqual(agentEventToChatEvents({ type: 'step_start', stepId: '1', goal: 'Read src/a.ts.', index: 0, total: 2 }), []);
  assert.deepEqual(agentEventToChatEvents({ type: 'step_end', stepId: '1', status: 'ok', summary: 'read it' }), []);
  assert.deepEqual(agentEventToChatEvents({ type: 'step_end', stepId: '2', status: 'failed', summary: 'edit_file was denied: denied by the user' }), [
    { type: 'notice', text: 'Step 2 failed: edit_file was denied: denied by the user.' },
  ]);
  assert.deepEqual(agentEventToChatEvents({ type: 'step_end', stepId: '3', status: 'skipped', summary: 'skipped: step 2 did not succeed' }), [
    { type: 'notice', text: 'Step 3 was skipped: step 2 did not succeed.' },
  ]);
});

test('notice wording: one step, no done-when, no summary, long goals clipped to one line', () => {
  assert.equal(planNotice({ steps: [{ id: '1', goal: 'Run the tests', dependsOn: [] }], doneWhen: '' }), 'Planned 1 step: 1. Run the tests.');
  assert.equal(stepNotice({ stepId: '4', status: 'failed' }), 'Step 4 failed.');
  assert.equal(stepNotice({ stepId: '4', status: 'ok' }), undefined);
  const long = planNotice({ steps: [{ id: '1', goal: `${'x'.repeat(300)}\n\nmore`, dependsOn: [] }], doneWhen: '' });
  assert.equal(long.includes('\n'), false);
  assert.ok(long.length < 200, long);
  assert.match(long, /x…\.$/);
});

test('a planned editor turn: plan notice in the chat, todos tick off step by step, tools only on the executor, the answer from the planner', async () => {
  const { ws, files } = headerWorkspace(3);
  const planner = plannerModel({ plan: 'good' });
  const executor = executorModel();
  const server = await startFakeOllamaServer(
    (body: ChatBody) => (body.model === 'small' ? executor(body) : body.model === 'big' ? planner(body) : undefined),
    {
      name: 'planned editor turn',
      models: [
        { name: 'big', contextLength: 32768, capabilities: ['completion', 'tools'] },
        { name: 'small', contextLength: 8192, capabilities: ['completion', 'tools'] },
      ],
    },
  );
  try {
    const log = new Logger(new RecordingLogSink());
    const settings: HarnessSettings = {
      ...DEFAULT_SETTINGS,
      ollamaHost: server.origin,
      model: 'big',
      think: false,
      orchestrator: { ...DEFAULT_SETTINGS.orchestrator, enabled: true, executorModel: 'small' },
    };
    const decision = chooseOrchestrator(settings, 'big', false);
    if (decision.kind !== 'on') throw new Error(`not planned: ${JSON.stringify(decision)}`);
    const bus = new EventBus();
    const store = new ChatStateStore();
    bus.on((e) => store.applyAgentEvent(e));
    const tracker = new ContextTracker();
    // The todo list as "What the model knows" shows it, every time the tracker changes.
    const seen: string[] = [];
    tracker.onChange(() => {
      const todos = hotContextView(tracker.snapshot()).todos.map((t) => t.status[0]).join('');
      if (todos && seen.at(-1) !== todos) seen.push(todos);
    });
    const asked: string[] = [];
    const fs = new NodeFileSystem();
    const session = editorSession(
      {
        registry: createToolRegistry(),
        gate: new ApprovalGate({
          policy: { autoApprove: settings.autoApprove, rules: [] },
          ask: async (request: ApprovalRequest) => {
            asked.push(request.toolName);
            return { approved: true, scope: 'once' };
          },
        }),
        tracker,
        fs,
        runner: new NodeProcessRunner(),
        bus,
        panel: store,
      },
      {
        provider: createChatProvider(settings, undefined, log),
        model: 'big',
        settings,
        access: 'all',
        folders: [{ name: 'ws', path: ws }],
        systemInfo: { os: 'test', shell: '/bin/sh', workspaceFolders: [ws] },
        orchestrator: await orchestratorOptions(decision.choice, async (s) => createChatProvider(s, undefined, log)),
      },
    );

    const outcome = await session.send(headerTaskText(3), new AbortController().signal);
    assert.equal(outcome.reason, 'completed', outcome.error);
    assert.deepEqual(headerCounts(ws, files), [1, 1, 1], 'each file edited exactly once');
    assert.deepEqual(asked, ['edit_file', 'edit_file', 'edit_file'], 'every write went through the approval dialog');

    // p = pending, i = in progress, d = done: one step at a time, in order.
    assert.deepEqual(seen, ['ppp', 'ipp', 'dpp', 'dip', 'ddp', 'ddi', 'ddd']);
    assert.ok(hotContextView(tracker.snapshot()).todos.every((t) => t.status === 'done'));

    const state = store.state;
    assert.equal(ChatViewStateSchema.safeParse(state).success, true);
    const notices = state.items.filter((i) => i.kind === 'notice').map((i) => (i as { text: string }).text);
    assert.ok(notices.some((n) => /^Planned 3 steps: 1\. Add the line "Reviewed: yes" at the top of doc-01\.txt; 2\. .*doc-02\.txt; 3\. .*doc-03\.txt\. Done when /.test(n)), notices.join('\n'));
    assert.equal(state.items.filter((i) => i.kind === 'tool').length, 6, 'a read and an edit per step, as ordinary tool cards');
    const answer = state.items.filter((i) => i.kind === 'assistant').at(-1) as { text: string } | undefined;
    assert.equal(answer?.text, 'Added the header to 3 of 3 files.');

    const requests = server.requests as ChatBody[];
    const withTools = requests.filter((r) => Array.isArray(r.tools) && r.tools.length > 0);
    assert.ok(withTools.length >= 6);
    assert.deepEqual([...new Set(withTools.map((r) => r.model))], ['small'], 'tools are offered to the executor only');
    assert.ok(requests.filter((r) => r.model === 'big').length === 2, 'the planner planned once and answered once');
  } finally {
    await server.close();
    await rm(ws, { recursive: true, force: true });
  }
});
