// The host's chat state: core AgentEvents -> UI events -> view state, checked event by event and
// against a real turn of the core turn runner (scripted provider, real registry, gate and event bus).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { EventBus, type AgentEvent } from '../../../../src/core/agent/events';
import { runTurn } from '../../../../src/core/agent/turnRunner';
import { ApprovalGate, type ApprovalDecision, type ApprovalRequest } from '../../../../src/core/approval/gate';
import { ContextTracker } from '../../../../src/core/workingContext/tracker';
import type { ChatMessage } from '../../../../src/core/messages';
import type { FileKind, FileStat, FileSystemPort, ProcessRunner, RunResult } from '../../../../src/core/ports';
import type { ChatProvider, ChatRequest, ModelInfo, StreamDelta } from '../../../../src/core/provider';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import { defineTool, ok } from '../../../../src/core/tools/tool';
import { WorkspaceRoots } from '../../../../src/core/workspace/workspaceRoots';
import { agentEventToChatEvents, formatArguments, suggestActions } from '../../../../src/editor/chat/agentEventMapping';
import { ChatStateStore, type StoreChange } from '../../../../src/editor/chat/chatStateStore';
import { ChatViewStateSchema } from '../../../../src/shared/protocol';

test('each AgentEvent maps to the UI events the reducer understands', () => {
  const cases: Array<[AgentEvent, unknown[]]> = [
    [{ type: 'turn_start', turnId: 't', message: 'hi' }, [{ type: 'turn_start', text: 'hi' }]],
    [{ type: 'round_start', round: 2 }, [{ type: 'round_start' }]],
    [{ type: 'status', message: 'Loading model…' }, [{ type: 'status', text: 'Loading model…' }]],
    [{ type: 'thinking', text: 'hm' }, [{ type: 'thinking', text: 'hm' }]],
    [{ type: 'thinking', text: '' }, []],
    [{ type: 'text', text: 'a' }, [{ type: 'text', text: 'a' }]],
    [{ type: 'text', text: '' }, []],
    [{ type: 'tool_call', id: 'c', name: 'read_file', arguments: { path: 'a.ts' } }, [{ type: 'tool_call', callId: 'c', name: 'read_file', args: '{\n  "path": "a.ts"\n}' }]],
    [
      { type: 'approval_request', id: 'c', name: 'write_file', risk: 'write', title: 'Write a.ts', detail: '+1 line' },
      [{ type: 'approval_request', callId: 'c', title: 'Write a.ts', detail: '+1 line', risk: 'write' }],
    ],
    [{ type: 'approval_result', id: 'c', name: 'write_file', approved: true, scope: 'workspace' }, [{ type: 'approval_result', callId: 'c', approved: true, scope: 'workspace' }]],
    [{ type: 'approval_result', id: 'c', name: 'write_file', approved: false, reason: 'no' }, [{ type: 'approval_result', callId: 'c', approved: false, reason: 'no' }]],
    [{ type: 'tool_progress', id: 'c', name: 'run_command', message: '10 lines' }, [{ type: 'tool_progress', callId: 'c', text: '10 lines' }]],
    [
      { type: 'tool_result', id: 'c', name: 'edit_file', ok: true, content: 'Edited', display: 'Edited a.ts: +2 -1', durationMs: 5 },
      [
        { type: 'tool_result', callId: 'c', ok: true, denied: false, content: 'Edited', durationMs: 5 },
        { type: 'notice', text: 'Edited a.ts: +2 -1' },
      ],
    ],
    [
      { type: 'tool_result', id: 'c', name: 'run_command', ok: false, content: 'denied', denied: true, durationMs: 1 },
      [{ type: 'tool_result', callId: 'c', ok: false, denied: true, content: 'denied', durationMs: 1 }],
    ],
    [{ type: 'usage', promptTokens: 1000, completionTokens: 234 }, [{ type: 'usage', used: 1234 }]],
    [{ type: 'notice', message: 'Nudged the model' }, [{ type: 'notice', text: 'Nudged the model' }]],
    [{ type: 'error', message: 'boom' }, [{ type: 'error', text: 'boom', actions: ['showLogs'] }]],
    [{ type: 'turn_end', reason: 'ask_question', result: 'Which?' }, [{ type: 'turn_end', reason: 'ask_question', result: 'Which?' }]],
    [{ type: 'turn_end', reason: 'cancelled' }, [{ type: 'turn_end', reason: 'cancelled' }]],
  ];
  for (const [event, expected] of cases) assert.deepEqual(agentEventToChatEvents(event), expected, event.type);
});

test('tool arguments are shown as pretty JSON when they are JSON, as they came otherwise', () => {
  assert.equal(formatArguments('{"a":1}'), '{\n  "a": 1\n}');
  assert.equal(formatArguments('{"a":'), '{"a":');
  assert.equal(formatArguments({ b: [1] }), '{\n  "b": [\n    1\n  ]\n}');
  assert.equal(formatArguments(undefined), '{}');
});

test('errors offer the next step their words point to', () => {
  assert.deepEqual(suggestActions('Could not connect to Ollama at http://127.0.0.1:11434: connection refused. Is it running?'), ['openSettings', 'showLogs']);
  assert.deepEqual(suggestActions('model "llama9" not found, try pulling it first'), ['selectModel', 'showLogs']);
  assert.deepEqual(suggestActions('Stopped after 20 rounds without finishing.'), ['showLogs']);
});

test('the store numbers every change, tells subscribers, and survives a throwing one', () => {
  const store = new ChatStateStore({ contextSize: 4096 });
  const seen: StoreChange[] = [];
  const offBroken = store.subscribe(() => {
    throw new Error('broken subscriber');
  });
  const off = store.subscribe((c) => seen.push(c));
  const consoleError = console.error;
  console.error = () => {};
  try {
    store.applyAgentEvent({ type: 'turn_start', turnId: 't', message: 'hi' });
    store.applyAgentEvent({ type: 'tool_result', id: 'x', name: 'n', ok: true, content: 'c', display: 'shown', durationMs: 1 });
    store.notice('a note');
    store.error('bad thing');
    store.setContextLimit(4096); // unchanged: no event
    store.setContextLimit(8192.4);
  } finally {
    console.error = consoleError;
  }
  assert.deepEqual(seen.map((c) => c.seq), [1, 2, 3, 4, 5, 6]);
  assert.equal(store.seq, 6);
  assert.deepEqual(seen.map((c) => c.event?.type), ['turn_start', 'tool_result', 'notice', 'notice', 'error', 'context_limit']);
  assert.deepEqual(store.state.context, { used: 0, available: 8192 });
  assert.deepEqual(store.state.items.at(-1), { kind: 'error', id: 'i4', text: 'bad thing', actions: ['showLogs'] });
  off();
  offBroken();
  store.reset();
  assert.equal(seen.length, 6, 'unsubscribed');
  assert.deepEqual(store.state.items, []);
});

test('load() shows a stored conversation and announces a change without an event (resend a snapshot)', () => {
  const store = new ChatStateStore();
  const seen: StoreChange[] = [];
  store.subscribe((c) => seen.push(c));
  const history: ChatMessage[] = [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'fix it' },
    { role: 'assistant', content: 'Looking.', thinking: 'hm', toolCalls: [{ id: 'a', name: 'read_file', arguments: '{"path":"x"}' }, { id: 'b', name: 'run_command', arguments: { command: 'rm' } }] },
    { role: 'tool', content: 'file text', toolCallId: 'a', toolName: 'read_file' },
    { role: 'tool', content: 'The user denied this run_command call (no).', toolCallId: 'b', toolName: 'run_command' },
    { role: 'assistant', content: 'Done.' },
  ];
  store.load(history);
  assert.equal(seen.length, 1);
  assert.equal(seen[0]!.event, undefined);
  const items = store.state.items;
  assert.deepEqual(items.map((i) => i.kind), ['user', 'assistant', 'tool', 'tool', 'assistant']);
  assert.deepEqual(items.map((i) => (i.kind === 'tool' ? i.status : '-')), ['-', '-', 'done', 'denied', '-']);
  assert.equal(items[2]?.kind === 'tool' && items[2].result, 'file text');
  assert.equal(items[1]?.kind === 'assistant' && items[1].thinking, 'hm');
  assert.equal(ChatViewStateSchema.safeParse(store.state).success, true);
});

// ---- a real turn through the core ----

/** Replays scripted rounds as provider deltas; records what it was asked. */
class ScriptedProvider implements ChatProvider {
  readonly id = 'ollama' as const;
  readonly baseUrl = 'http://scripted.invalid';
  readonly capabilities = { thinking: true, keepAlive: false, tools: true, jsonMode: false, streaming: true, embeddings: false, contextSizeApi: true };
  readonly requests: ChatRequest[] = [];
  constructor(private readonly rounds: StreamDelta[][]) {}

  async *chat(request: ChatRequest): AsyncIterable<StreamDelta> {
    this.requests.push(request);
    const round = this.rounds[this.requests.length - 1] ?? [{ type: 'text', text: '(no more script)' }];
    for (const delta of round) yield delta;
  }

  async listModels(): Promise<ModelInfo[]> {
    return [{ name: 'scripted' }];
  }

  async modelInfo(model: string): Promise<ModelInfo> {
    return { name: model };
  }
}

/** The tools in this test never touch the disk. */
class UnusedFileSystem implements FileSystemPort {
  private fail(): never {
    throw new Error('the file system is not used in this test');
  }
  readFile(): Promise<string> { return this.fail(); }
  writeFile(): Promise<void> { return this.fail(); }
  readBytes(): Promise<Uint8Array> { return this.fail(); }
  writeBytes(): Promise<void> { return this.fail(); }
  lstat(): Promise<FileStat | undefined> { return this.fail(); }
  realpath(p: string): Promise<string> { return Promise.resolve(p); }
  readDirectory(): Promise<Array<{ name: string; kind: FileKind }>> { return this.fail(); }
  rename(): Promise<void> { return this.fail(); }
  mkdir(): Promise<void> { return this.fail(); }
}

class UnusedRunner implements ProcessRunner {
  run(): Promise<RunResult> {
    throw new Error('no commands run in this test');
  }
}

test('a real core turn (thinking, text, approved and denied tools, usage) lands in the store as the panel should show it', async () => {
  const provider = new ScriptedProvider([
    [
      { type: 'status', message: 'Loading model…' },
      { type: 'thinking', text: 'I should ' },
      { type: 'thinking', text: 'write the file.' },
      { type: 'text', text: 'Writing ' },
      { type: 'text', text: 'it now.' },
      { type: 'tool_call', call: { id: 'call_0', name: 'note', arguments: { text: 'hello' } } },
      { type: 'tool_call', call: { id: 'call_1', name: 'note', arguments: '{"text":"forbidden"}' } },
      { type: 'usage', promptTokens: 500, completionTokens: 20 },
      { type: 'done', finishReason: 'tool_calls' },
    ],
    [
      { type: 'text', text: 'Saved one note; the other was refused.' },
      { type: 'usage', promptTokens: 700, completionTokens: 30 },
      { type: 'done', finishReason: 'stop' },
    ],
  ]);
  const registry = new ToolRegistry();
  registry.register(
    defineTool({
      name: 'note',
      description: 'Save a note',
      schema: z.object({ text: z.string() }),
      risk: 'write',
      describeForApproval: (args) => ({ title: `Save note "${args.text}"`, detail: args.text }),
      invoke: async (args) => ok(`saved ${args.text}`, `Saved a note: ${args.text}`),
    }),
  );
  const asked: ApprovalRequest[] = [];
  const gate = new ApprovalGate({
    policy: { autoApprove: ['read'], rules: [] },
    ask: async (request): Promise<ApprovalDecision> => {
      asked.push(request);
      return (request.args as { text: string }).text === 'forbidden' ? { approved: false, reason: 'denied by the user' } : { approved: true, scope: 'once' };
    },
  });
  const bus = new EventBus();
  const store = new ChatStateStore({ contextSize: 8192 });
  bus.on((e) => store.applyAgentEvent(e));
  const fs = new UnusedFileSystem();
  const outcome = await runTurn(
    [],
    'Save two notes',
    {
      provider,
      model: 'scripted',
      registry,
      gate,
      bus,
      toolContext: { roots: new WorkspaceRoots([{ name: 'w', path: '/w' }], fs), fs, runner: new UnusedRunner(), tracker: new ContextTracker() },
      buildSystemPrompt: () => 'You are a test.',
    },
    new AbortController().signal,
  );
  assert.equal(outcome.reason, 'completed');
  assert.equal(asked.length, 2);

  const s = store.state;
  assert.deepEqual(
    s.items.map((i) => i.kind),
    ['user', 'assistant', 'tool', 'notice', 'tool', 'assistant'],
  );
  const [user, first, saved, notice, refused, last] = s.items;
  assert.equal(user?.kind === 'user' && user.text, 'Save two notes');
  assert.deepEqual(first?.kind === 'assistant' && [first.thinking, first.text, first.streaming], ['I should write the file.', 'Writing it now.', false]);
  assert.ok(saved?.kind === 'tool');
  assert.equal(saved.status, 'done');
  assert.equal(saved.approval?.state, 'approved');
  assert.equal(saved.approval?.title, 'Save note "hello"');
  assert.equal(saved.result, 'saved hello');
  assert.equal(notice?.kind === 'notice' && notice.text, 'Saved a note: hello', 'the display text is a notice for the user');
  assert.ok(refused?.kind === 'tool');
  assert.equal(refused.status, 'denied');
  assert.equal(refused.approval?.reason, 'denied by the user');
  assert.match(refused.result ?? '', /denied/);
  assert.equal(last?.kind === 'assistant' && last.text, 'Saved one note; the other was refused.');
  assert.equal(s.busy, false);
  assert.equal(s.status, null);
  assert.deepEqual(s.context, { used: 730, available: 8192 });
  // The notice never reached the model: it is not in what the provider was sent.
  const sent = JSON.stringify(provider.requests.map((r) => r.messages));
  assert.doesNotMatch(sent, /Saved a note: hello/);
});
