// When the chat's session factory rebuilds the session: the key is the SessionBuild from the editor's composition
// root, serialised. Every setting that reaches the session (or the provider it talks through) gives a new session
// with the conversation carried over; a setting read live each turn (approval, sandbox, mode, indexing) keeps it.
// The real turn engine builds the sessions; nothing talks to a server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { EventBus } from '../../../src/core/agent/events';
import { ContextTracker } from '../../../src/core/workingContext/tracker';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import * as engine from '../../../src/editor/engine/turnEngine';
import { ChatTools } from '../../../src/editor/agent/chatTools';
import { editorSessionBuild } from '../../../src/editor/agent/editorPorts';
import { rebuildKey } from '../../../src/editor/agent/rebuildKey';
import { SessionFactory, type SessionRequest } from '../../../src/editor/agent/sessionFactory';
import { WorkspaceRuleStore, type KeyValueStore } from '../../../src/editor/approval/rules';
import { ChatStateStore } from '../../../src/editor/chat/chatStateStore';
import { Logger } from '../../../src/editor/log/logger';
import { DEFAULT_SETTINGS, type HarnessSettings } from '../../../src/editor/settings/harnessSettings';
import { RecordingLogSink } from '../../helpers/recordingLogSink';

class MemoryMemento implements KeyValueStore {
  private readonly values = new Map<string, unknown>();
  get(key: string): unknown {
    return this.values.get(key);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
}

const BASE: HarnessSettings = { ...DEFAULT_SETTINGS, model: 'm' };
const FOLDERS = [{ name: 'ws', path: tmpdir() }];

function factory(): SessionFactory {
  const tracker = new ContextTracker();
  return new SessionFactory({
    store: new ChatStateStore(),
    log: new Logger(new RecordingLogSink()),
    bus: new EventBus(),
    tools: new ChatTools(async () => engine),
    rules: new WorkspaceRuleStore(new MemoryMemento()),
    ask: async () => ({ approved: false, reason: 'not in this test' }),
    fs: new NodeFileSystem(),
    createRunner: (fallback) => fallback,
    tracker: () => tracker,
  });
}

function request(settings: HarnessSettings, turn: Partial<SessionRequest> = {}): SessionRequest {
  return {
    engine,
    settings,
    provider: engine.createChatProvider(settings, undefined, new Logger(new RecordingLogSink())),
    model: settings.model,
    access: 'all',
    folders: FOLDERS,
    noFolder: { name: 'no-folder', path: '/nonexistent-lh-test' },
    systemInfo: { os: 'test', shell: '/bin/sh', workspaceFolders: FOLDERS.map((f) => f.path) },
    plannerKey: null,
    orchestrator: async () => undefined,
    ...turn,
  };
}

/** Each changes something the session is built from. */
const SESSION_CHANGES: Record<string, (s: HarnessSettings) => Partial<HarnessSettings>> = {
  maxRounds: (s) => ({ maxRounds: s.maxRounds + 1 }),
  think: (s) => ({ think: !s.think }),
  thinkingBudget: (s) => ({ thinkingBudget: s.thinkingBudget + 1 }),
  contextSize: () => ({ contextSize: 8192 }),
  agent: () => ({ agent: { toolProtocol: 'xml' } }),
  context: () => ({ context: { compressAt: 0.6 } }),
  instructions: () => ({ instructions: 'Answer in French.' }),
  fallbackModels: () => ({ fallbackModels: ['other'] }),
  maxOfferedTools: (s) => ({ maxOfferedTools: s.maxOfferedTools + 1 }),
  embeddingModel: () => ({ embeddingModel: 'nomic-embed-text' }),
  skillsUserFolder: () => ({ skillsUserFolder: '/elsewhere/skills' }),
  provider: () => ({ provider: 'openai' }),
  ollamaHost: () => ({ ollamaHost: 'http://127.0.0.1:9' }),
  keepAlive: () => ({ keepAlive: '5m' }),
  firstByteTimeoutMs: (s) => ({ firstByteTimeoutMs: s.firstByteTimeoutMs + 1 }),
  model: () => ({ model: 'other-model' }),
};

/** Read live by the gate, the command runner and the turn host each turn: the session stays. */
const LIVE_CHANGES: Record<string, Partial<HarnessSettings>> = {
  mode: { mode: 'plan' },
  autoApprove: { autoApprove: ['read', 'write'] },
  rules: { rules: [{ tool: 'run_command', commandPrefix: 'npm test', decision: 'allow' }] },
  sensitivePatterns: { sensitivePatterns: ['**/*.pem'] },
  commandEnv: { commandEnv: ['NODE_ENV'] },
  sandbox: { sandbox: { ...DEFAULT_SETTINGS.sandbox, network: !DEFAULT_SETTINGS.sandbox.network } },
  reindexOnSave: { reindexOnSave: !DEFAULT_SETTINGS.reindexOnSave },
  indexOnRead: { indexOnRead: DEFAULT_SETTINGS.indexOnRead === 'off' ? 'ask' : 'off' },
  indexEmbeddingModel: { indexEmbeddingModel: 'nomic-embed-text' },
  // The panel's images are checked against the model per message.
  images: { images: { ...DEFAULT_SETTINGS.images, vision: DEFAULT_SETTINGS.images.vision === 'off' ? 'on' : 'off' } },
  openaiBaseUrl: { openaiBaseUrl: 'http://127.0.0.1:9/v1' },
};

test('the same settings keep the session', async () => {
  const f = factory();
  const first = await f.sessionFor(request(BASE));
  assert.equal(await f.sessionFor(request({ ...BASE })), first);
});

for (const [name, change] of Object.entries(SESSION_CHANGES)) {
  test(`a change of ${name} builds a new session that continues the conversation`, async () => {
    const f = factory();
    const first = await f.sessionFor(request(BASE));
    first.history.push({ role: 'user', content: 'hello' }, { role: 'assistant', content: 'hi' });
    const rebuilt = await f.sessionFor(request({ ...BASE, ...change(BASE) }));
    assert.notEqual(rebuilt, first);
    assert.deepEqual(rebuilt.history, first.history);
  });
}

for (const [name, changed] of Object.entries(LIVE_CHANGES)) {
  test(`a change of ${name} keeps the session`, async () => {
    const f = factory();
    const first = await f.sessionFor(request(BASE));
    assert.equal(await f.sessionFor(request({ ...BASE, ...changed })), first);
  });
}

test('trust, the folders and the planner rebuild too', async () => {
  const cases: Partial<SessionRequest>[] = [
    { access: 'read-only' },
    { access: 'none' },
    { folders: [{ name: 'other', path: '/other' }] },
    { folders: [{ name: 'renamed', path: FOLDERS[0]!.path }] },
    { plannerKey: '["ollama","http://127.0.0.1:11434","planner","ollama","http://127.0.0.1:11434","executor",8]' },
  ];
  for (const turn of cases) {
    const f = factory();
    const first = await f.sessionFor(request(BASE));
    assert.notEqual(await f.sessionFor(request(BASE, turn)), first, JSON.stringify(turn));
  }
});

test('every field the builder gets is in the key; the conversation and the live objects are not', () => {
  // Guards settings not written yet: whatever the composition root hands the builder decides the key.
  const settings: HarnessSettings = { ...BASE, instructions: 'Be brief.', embeddingModel: 'nomic-embed-text', contextSize: 4096 };
  const fs = new NodeFileSystem();
  const chat = {
    registry: engine.createToolRegistry(),
    gate: new engine.ApprovalGate({ policy: { autoApprove: [], rules: [] } }),
    tracker: new ContextTracker(),
    fs,
    runner: engine.createFallbackRunner(),
    bus: new EventBus(),
    panel: { dispatch: () => undefined },
  };
  const { engine: _engine, plannerKey: _planner, orchestrator: _orchestrator, ...turn } = request(settings, { access: 'read-only' });
  const build = editorSessionBuild(chat, turn, { history: [] });
  const key = (b: typeof build) => rebuildKey(b, {});
  const fields = Object.keys(build.settings) as (keyof typeof build.settings)[];
  assert.ok(fields.length >= 14, `the builder settings: ${fields.join(', ')}`);
  for (const field of fields) {
    const changed = { ...build, settings: { ...build.settings, [field]: otherValue(build.settings[field]) } };
    assert.notEqual(key(changed), key(build), `settings.${field}`);
  }
  assert.notEqual(key({ ...build, ports: { ...build.ports, model: 'other' } }), key(build), 'the model');
  assert.notEqual(key({ ...build, ports: { ...build.ports, systemInfo: { ...build.ports.systemInfo, shell: '/bin/zsh' } } }), key(build), 'the environment line');
  const recorded = (id: string) => ({ ...build, recording: { id, onMessage: () => undefined } });
  assert.notEqual(key(recorded('a')), key(recorded('b')), 'the recording');
  // The conversation carries over; live objects are new each turn or the same for the whole chat.
  assert.equal(key({ ...build, history: [{ role: 'user', content: 'hello' }] }), key(build), 'the history');
  assert.equal(key({ ...build, contextState: { evictedThrough: 3 } as never }), key(build), 'the context state');
  assert.equal(key({ ...build, ports: { ...build.ports, gate: new engine.ApprovalGate({ policy: { autoApprove: ['read'], rules: [] } }) } }), key(build), 'a live object');
  assert.equal(key(editorSessionBuild(chat, turn, { history: [] })), key(build), 'the same turn again');
});

/** A different value of the same shape. */
function otherValue(value: unknown): unknown {
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'string') return `${value}-changed`;
  if (Array.isArray(value)) return [...value, value.length ? value[0] : 'extra'];
  if (value && typeof value === 'object') return { ...value, changed: true };
  return 'set';
}
