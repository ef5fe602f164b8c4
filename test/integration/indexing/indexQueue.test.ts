// The secondary loop end to end: a real AgentSession whose weak reader model reads two files through read_file,
// the IndexQueue on its event bus, and the real indexer (summaries by the weak indexing model, embeddings by
// the same fake Ollama server, a real sql.js database). After the answer — not before — the two files are
// offered in the order they were read, and the choices are honoured.
import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtSession } from '../../helpers/builtSession';
import { EventBus } from '../../../src/core/agent/events';
import { ApprovalGate } from '../../../src/core/approval/gate';
import { ContextTracker } from '../../../src/core/workingContext/tracker';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { registerBuiltinTools } from '../../../src/core/tools/builtin/index';
import { WorkspaceRoots } from '../../../src/core/workspace/workspaceRoots';
import { IndexQueue, type QueueChoice } from '../../../src/indexing/indexQueue';
import { createKnowledge } from '../../../src/indexing/knowledge';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { NodeProcessRunner } from '../../../src/node/nodeProcessRunner';
import { SessionStore } from '../../../src/persistence/sessionStore';
import { OllamaProvider } from '../../../src/providers/ollama';
import { featureWorkspace, moduleName } from '../../helpers/knowledge/featureModules';
import { startFakeOllamaServer, type ChatBody } from '../../helpers/fakeLlm';
import { indexingModel, isIndexingRequest } from '../../helpers/weakModels';
import { readerModel, readerTask } from '../../helpers/weakModels/readerModel';

const cleanup: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const c of cleanup.reverse()) await c();
});

it('the agent reads two files; after its answer the two are offered in order and the choices are honoured', async () => {
  const { root } = await featureWorkspace({ count: 2, functions: 3, indexed: [] });
  const reader = readerModel();
  const summarizer = indexingModel('good');
  const server = await startFakeOllamaServer((request: ChatBody) => (isIndexingRequest(request) ? summarizer(request) : reader(request)), { name: 'queue loop' });
  const dbDir = mkdtempSync(path.join(tmpdir(), 'lh-queue-db-'));
  const store = await SessionStore.open(path.join(dbDir, 'session.db'));
  cleanup.push(async () => {
    await store.close();
    await server.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(dbDir, { recursive: true, force: true });
  });

  const provider = new OllamaProvider({ host: server.url });
  const fs = new NodeFileSystem();
  const { indexer } = createKnowledge({ store: store.knowledgeFor(root), vectors: store.vectors, provider, model: 'test-model', embedModel: 'nomic-embed-text', fs, workspace: root });
  const seen: string[] = [];
  const reads: string[] = [];
  const asked: Array<{ path: string; index: number; total: number; eventsBefore: string[] }> = [];
  const answers: QueueChoice[] = [{ kind: 'full' }, { kind: 'metadata' }];
  const queue = new IndexQueue({
    indexer,
    store: store.knowledgeFor(root),
    fs,
    mode: () => 'ask',
    neverTypes: { has: () => false, add: () => undefined },
    ask: async (entry, position) => {
      asked.push({ path: entry.path, ...position, eventsBefore: [...seen] });
      return answers.shift();
    },
  });
  const bus = new EventBus();
  bus.on((e) => {
    seen.push(e.type);
    if (e.type === 'tool_result' && e.name === 'read_file' && e.ok) reads.push(e.id);
    queue.observe(e);
  });
  const registry = new ToolRegistry();
  registerBuiltinTools(registry);
  const newSession = () =>
    builtSession(
      {
        provider,
        model: 'test-model',
        registry,
        gate: new ApprovalGate({ policy: { autoApprove: ['read'], rules: [] } }),
        tracker: new ContextTracker(),
        roots: new WorkspaceRoots([{ name: path.basename(root), path: root }], fs),
        fs,
        runner: new NodeProcessRunner(),
        bus,
        systemInfo: { os: 'Linux', shell: '/bin/sh', workspaceFolders: [root] },
      },
      { allowedRisks: ['read'], maxRounds: 6 },
    );
  const session = newSession();

  const files = [moduleName(1), moduleName(2)];
  const outcome = await session.send(readerTask(files), new AbortController().signal);
  assert.equal(outcome.reason === 'completed' || outcome.reason === 'task_completion', true, outcome.error ?? outcome.reason);
  assert.equal(reads.length, 2, 'the model read both files');
  await queue.settled();

  assert.deepEqual(
    asked.map((a) => `${a.path} ${a.index}/${a.total}`),
    [`${files[0]} 1/2`, `${files[1]} 2/2`],
  );
  for (const a of asked) assert.equal(a.eventsBefore.at(-1), 'turn_end', `${a.path} was offered only after the turn ended`);
  const first = store.knowledgeFor(root).getFile(files[0]!)!;
  assert.deepEqual([first.mode, first.state], ['full', 'indexed']);
  assert.match(first.summary ?? '', /step1_0/);
  const second = store.knowledgeFor(root).getFile(files[1]!)!;
  assert.deepEqual([second.mode, second.state], ['metadata', 'metadata']);
  assert.equal(queue.length, 0);

  // A new conversation reads the same, unchanged files again: nothing is queued, they are indexed as they are.
  await newSession().send(readerTask(files), new AbortController().signal);
  await queue.settled();
  assert.equal(reads.length, 4, 'read again');
  assert.equal(asked.length, 2);
  assert.equal(queue.length, 0);
  assert.deepEqual(reader.failures, []);
});
