// The editor's setup check without the editor: the check runs through the provider the controller builds (the
// logging wrapper), its result is kept in global state and in the sessions database (a real sql.js file), and the
// session the controller builds next starts from it: text-based tool calls for a model that wrote its calls as
// text, and the window the server really runs budgeted from the first request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EventBus, type AgentEvent } from '../../../src/core/agent/events';
import { ContextTracker } from '../../../src/core/workingContext/tracker';
import { systemClock } from '../../../src/core/ports';
import { runSetupCheck } from '../../../src/core/setupCheck/runSetupCheck';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { NodeProcessRunner } from '../../../src/node/nodeProcessRunner';
import { ApprovalGate, createChatProvider, createToolRegistry } from '../../../src/editor/engine/turnEngine';
import { editorSession } from '../../helpers/editorSession';
import { Logger } from '../../../src/editor/log/logger';
import { EditorSessionService } from '../../../src/editor/history/sessionService';
import { DEFAULT_SETTINGS } from '../../../src/editor/settings/harnessSettings';
import { SetupCheckMemory } from '../../../src/editor/setupCheck/setupCheckMemory';
import { startFakeOllamaServer } from '../../helpers/fakeLlm';
import { RecordingLogSink } from '../../helpers/recordingLogSink';
import { setupProbeModel } from '../../helpers/weakModels';
import { MemoryKv as GlobalState } from '../../helpers/memoryKv';

test('a check kept by the editor: the next session starts in xml mode and budgets the window the server runs', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-setup-editor-'));
  const probe = setupProbeModel({ native: 'json-text', text: 'follows' });
  const server = await startFakeOllamaServer((body) => probe(body) ?? { text: 'Hello from the model.' }, {
    models: [{ name: 'coder:7b', contextLength: 32768, capabilities: ['completion', 'tools'] }],
    runningContext: 4096,
  });
  const sessions = new EditorSessionService({ dbPath: path.join(dir, 'sessions.db'), warn: () => undefined, lockRetryDelaysMs: [], storeOptions: { foldIdleMs: 0 } });
  t.after(async () => {
    await sessions.dispose();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const log = new Logger(new RecordingLogSink());
  const settings = { ...DEFAULT_SETTINGS, ollamaHost: server.origin, model: 'coder:7b', contextSize: 16384 };
  const provider = createChatProvider(settings, undefined, log);
  const global = new GlobalState();
  const memory = new SetupCheckMemory({ global, sessionsKv: () => sessions.kv() });

  const result = await runSetupCheck({
    provider,
    model: settings.model,
    contextSize: settings.contextSize,
    toolProtocol: 'auto',
    embeddingModels: {},
    recall: (m) => memory.recallWindow(provider, m),
    clock: systemClock,
    signal: AbortSignal.timeout(20_000),
  });
  assert.equal(result.report.server.kind, 'ollama', 'the logging wrapper passes serverStatus through');
  assert.equal(result.report.window.running, 4096);
  assert.equal(result.report.tools.protocol, 'xml');
  await memory.keep(provider, result);
  assert.equal((await memory.report(provider, 'coder:7b'))?.overall.verdict, 'limited', 'the picker finds the report');
  assert.deepEqual(await memory.recallWindow(provider, 'coder:7b'), { tokens: 4096, base: 16384 });

  // What the session factory does next: a recorded session (its window memory lives in the database) that reads
  // the setup check's reports from global state.
  const recording = (await sessions.forTurn('Say hello', { model: settings.model, provider: settings.provider }))!;
  const fs = new NodeFileSystem();
  const bus = new EventBus();
  const events: AgentEvent[] = [];
  bus.on((e) => events.push(e));
  const session = editorSession(
    {
      registry: createToolRegistry(),
      gate: new ApprovalGate({ policy: { autoApprove: ['read'], rules: [] } }),
      tracker: new ContextTracker(),
      fs,
      runner: new NodeProcessRunner(),
      bus,
      memories: global,
    },
    {
      provider,
      model: settings.model,
      settings,
      access: 'all',
      folders: [{ name: 'ws', path: dir }],
      systemInfo: { os: 'test', shell: '/bin/sh', workspaceFolders: [dir] },
      recording,
    },
  );
  const before = server.requests.length;
  const outcome = await session.send('Say hello', AbortSignal.timeout(20_000));
  assert.equal(outcome.reason, 'completed');
  const notices = events.flatMap((e) => (e.type === 'notice' ? [e.message] : []));
  assert.ok(notices.some((m) => /^The setup check \(\d{4}-\d\d-\d\d\) found that coder:7b does not call tools natively/.test(m)), notices.join('\n'));
  const first = server.requests[before]!;
  assert.equal(first.tools, undefined, 'no tools offered through the API');
  assert.match(String((first.messages as Array<{ content: string }>)[0]!.content), /# Calling tools/);
  const firstContext = events.find((e) => e.type === 'context');
  assert.equal(firstContext?.type === 'context' && firstContext.window, 4096, 'budgeted for the window the check found, from the first request');
});
