// The indexer end to end: real files, a real sql.js session database (knowledge store and vector cache), the
// fake Ollama / OpenAI-compatible servers answering the summaries with the weak indexing model and embedding
// with their hashed bag of words, and the real retriever reading what was stored.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, symlinkSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChatProvider } from '../../../src/core/provider';
import { INVALID_JSON_NOTE } from '../../../src/indexing/indexer';
import { createKnowledge } from '../../../src/indexing/knowledge';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { SessionStore } from '../../../src/persistence/sessionStore';
import { OllamaProvider } from '../../../src/providers/ollama';
import { OpenAICompatibleProvider } from '../../../src/providers/openaiCompatible';
import { embedRequests, embeddedInputCount, startFakeOllamaServer, startFakeOpenAIServer, type FakeServerHandle, type ScriptedReply } from '../../helpers/fakeLlm';
import { indexingModel, isIndexingRequest, type IndexingBehaviour } from '../../helpers/weakModels';
import { BILLING_TS, CONFIG_TS, makeWorkspace } from '../../helpers/knowledge/workspaceFixture';

const EMBED = 'nomic-embed-text';
const cleanup: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const c of cleanup.reverse()) await c();
});

const signal = () => new AbortController().signal;

function summaryScript(behaviour: IndexingBehaviour, extra: Partial<ScriptedReply> = {}) {
  const model = indexingModel(behaviour);
  return (request: Parameters<typeof model>[0]): ScriptedReply =>
    isIndexingRequest(request) ? { ...model(request), ...extra } : { text: 'This server only indexes.' };
}

interface Setup {
  ws: string;
  db: string;
  server: FakeServerHandle;
  store: SessionStore;
  provider: ChatProvider;
  knowledge: ReturnType<typeof createKnowledge>;
  notices: string[];
  reopen(): Promise<void>;
}

async function setup(options: {
  behaviour?: IndexingBehaviour;
  wire?: 'ollama' | 'openai';
  embedModel?: string;
  embeddingModels?: string[];
  reply?: Partial<ScriptedReply>;
  waitForIdle?: (signal: AbortSignal) => Promise<void>;
} = {}): Promise<Setup> {
  const ws = makeWorkspace();
  const db = path.join(mkdtempSync(path.join(tmpdir(), 'lh-index-db-')), 'knowledge.db');
  const script = summaryScript(options.behaviour ?? 'good', options.reply);
  const serverOptions = { name: 'indexer', ...(options.embeddingModels && { embeddingModels: options.embeddingModels }) };
  const server = options.wire === 'openai' ? await startFakeOpenAIServer(script, serverOptions) : await startFakeOllamaServer(script, serverOptions);
  const provider: ChatProvider = options.wire === 'openai' ? new OpenAICompatibleProvider({ baseUrl: server.url }) : new OllamaProvider({ host: server.url });
  const notices: string[] = [];
  const build = (store: SessionStore) =>
    createKnowledge({
      store: store.knowledgeFor(ws),
      vectors: store.vectors,
      provider,
      model: 'test-model',
      embedModel: options.embedModel ?? EMBED,
      fs: new NodeFileSystem(),
      workspace: ws,
      onNotice: (m) => notices.push(m),
      ...(options.waitForIdle && { waitForIdle: options.waitForIdle }),
    });
  const store = await SessionStore.open(db);
  const s: Setup = {
    ws,
    db,
    server,
    store,
    provider,
    knowledge: build(store),
    notices,
    async reopen() {
      await s.store.close();
      s.store = await SessionStore.open(db);
      s.knowledge = build(s.store);
    },
  };
  cleanup.push(async () => {
    await s.store.close();
    await server.close();
    rmSync(ws, { recursive: true, force: true });
    rmSync(path.dirname(db), { recursive: true, force: true });
  });
  return s;
}

describe('Indexer', () => {
  for (const wire of ['ollama', 'openai'] as const) {
    it(`full indexing stores summaries, entities, relations and vectors; a query finds the chunk (${wire})`, async () => {
      const s = await setup({ wire });
      const result = await s.knowledge.indexer.index({ path: 'src/config.ts', mode: 'full' }, { signal: signal() });
      assert.equal(result.outcome, 'indexed', result.reason);
      assert.deepEqual(result.notices, []);
      assert.equal(s.server.requests.length, 1, 'one summary request');
      assert.ok(isIndexingRequest(s.server.requests[0]!));
      assert.ok(result.modelMs > 0 && result.totalMs >= result.modelMs);

      const file = s.store.knowledgeFor(s.ws).getFile('src/config.ts')!;
      assert.equal(file.state, 'indexed');
      assert.equal(file.mode, 'full');
      assert.equal(file.language, 'typescript');
      assert.equal(file.embedModel, EMBED);
      assert.match(file.summary ?? '', /parseConfig/);
      assert.equal(file.lines, CONFIG_TS.split('\n').length - 1);
      const chunks = s.store.knowledgeFor(s.ws).chunks('src/config.ts');
      assert.equal(chunks.length, result.chunks);
      const parse = chunks.find((c) => c.name === 'parseConfig')!;
      assert.match(parse.summary ?? '', /function parseConfig/);
      assert.ok(s.store.knowledgeFor(s.ws).entities('src/config.ts').some((e) => e.name === 'validatePort' && e.kind === 'function'));
      assert.equal(embeddedInputCount(s.server), chunks.length, 'every chunk embedded once');

      await s.knowledge.indexer.index({ path: 'src/billing.ts', mode: 'full' }, { signal: signal() });
      await s.knowledge.indexer.index({ path: 'docs/guide.md', mode: 'full' }, { signal: signal() });
      const retrieval = await s.knowledge.retriever.retrieve('where are the server config settings parsed from the JSON file?', { k: 3, signal: signal() });
      assert.equal(retrieval.method, 'vectors');
      assert.equal(retrieval.items[0]?.file, 'src/config.ts');
      assert.equal(retrieval.items[0]?.name, 'parseConfig');
      const billing = await s.knowledge.retriever.retrieve('compute the invoice total with quantity and price', { k: 1, signal: signal() });
      assert.equal(billing.items[0]?.file, 'src/billing.ts');
    });
  }

  it('is incremental: the same content is "unchanged" without a model call, a changed file is redone, reopened databases keep it', async () => {
    const s = await setup();
    const first = await s.knowledge.indexer.index({ path: 'src/config.ts', mode: 'full' }, { signal: signal() });
    assert.equal(first.outcome, 'indexed');
    const requests = s.server.log.length;

    const again = await s.knowledge.indexer.index({ path: path.join(s.ws, 'src/config.ts'), mode: 'full' }, { signal: signal() });
    assert.equal(again.outcome, 'unchanged');
    assert.equal(again.modelMs, 0);
    assert.equal(s.server.log.length, requests, 'no request at all');

    await s.reopen();
    const reopened = await s.knowledge.indexer.index({ path: 'src/config.ts', mode: 'full' }, { signal: signal() });
    assert.equal(reopened.outcome, 'unchanged', 'the index survived closing the database');
    assert.equal(s.server.log.length, requests);

    // Another mode is other work; so is force.
    const embedOnly = await s.knowledge.indexer.index({ path: 'src/config.ts', mode: 'embed' }, { signal: signal() });
    assert.equal(embedOnly.outcome, 'indexed');
    assert.equal(s.server.requests.length, 1, 'embed mode asks no summary');
    const forced = await s.knowledge.indexer.index({ path: 'src/config.ts', mode: 'embed', force: true }, { signal: signal() });
    assert.equal(forced.outcome, 'indexed');

    // A changed function: one summary request, and only chunks whose text changed are embedded again.
    const embeddedBefore = embeddedInputCount(s.server);
    writeFileSync(path.join(s.ws, 'src/config.ts'), CONFIG_TS.replace('port < 65536', 'port <= 65535'));
    const changed = await s.knowledge.indexer.index({ path: 'src/config.ts', mode: 'full' }, { signal: signal() });
    assert.equal(changed.outcome, 'indexed');
    assert.equal(s.server.requests.length, 2);
    const newlyEmbedded = embeddedInputCount(s.server) - embeddedBefore;
    assert.ok(newlyEmbedded >= 1 && newlyEmbedded < changed.chunks + 1, `embedded ${newlyEmbedded} of ${changed.chunks}`);
    assert.match(s.store.knowledgeFor(s.ws).chunks('src/config.ts').find((c) => c.name === 'validatePort')!.text, /<= 65535/);
  });

  it('after invalid JSON twice, indexes with metadata only and says so', async () => {
    const s = await setup({ behaviour: 'always-broken' });
    const result = await s.knowledge.indexer.index({ path: 'src/config.ts', mode: 'full' }, { signal: signal() });
    assert.equal(result.outcome, 'metadata');
    assert.deepEqual(result.notices, [INVALID_JSON_NOTE]);
    assert.equal(s.server.requests.length, 2, 'the first try and one retry');
    assert.equal(embedRequests(s.server).length, 0, 'metadata only: no vectors');
    const file = s.store.knowledgeFor(s.ws).getFile('src/config.ts')!;
    assert.equal(file.state, 'metadata');
    assert.equal(file.note, INVALID_JSON_NOTE);
    assert.equal(file.summary, undefined);
    const chunks = s.store.knowledgeFor(s.ws).chunks('src/config.ts');
    assert.ok(chunks.length >= 3 && chunks.every((c) => c.summary === undefined));
    assert.deepEqual(
      s.store.knowledgeFor(s.ws).entities('src/config.ts').map((e) => e.name),
      ['ServerConfig', 'parseConfig', 'validatePort'],
      'the outline still names the declarations',
    );
    // A fallback is not "done": the next request tries the model again.
    const retry = await s.knowledge.indexer.index({ path: 'src/config.ts', mode: 'full' }, { signal: signal() });
    assert.equal(retry.outcome, 'metadata');
    assert.equal(s.server.requests.length, 4);
  });

  it('a clumsy model (numbers as strings, unknown fields) still gives a full index', async () => {
    const s = await setup({ behaviour: 'clumsy' });
    const result = await s.knowledge.indexer.index({ path: 'src/server.ts', mode: 'full' }, { signal: signal() });
    assert.equal(result.outcome, 'indexed', result.reason);
    assert.deepEqual(
      s.store.knowledgeFor(s.ws).relations('src/server.ts').map((r) => [r.kind, r.to, r.line]),
      [['imports', './config', 1]],
    );
    assert.ok(s.store.knowledgeFor(s.ws).entities('src/server.ts').some((e) => e.name === 'start' && e.kind === 'method' && e.line === 6), 'line "6" read as a number');
  });

  it('without an embedding model on the server: stored without vectors with a note; retrieval falls back to keywords and says so', async () => {
    const s = await setup({ embeddingModels: [] });
    const result = await s.knowledge.indexer.index({ path: 'src/billing.ts', mode: 'full' }, { signal: signal() });
    assert.equal(result.outcome, 'indexed');
    assert.equal(result.notices.length, 1);
    assert.match(result.notices[0]!, /no vectors: .*keywords/i);
    const file = s.store.knowledgeFor(s.ws).getFile('src/billing.ts')!;
    assert.equal(file.embedModel, '');
    assert.ok(file.summary, 'the summaries are still there');
    // Only the vectors are missing: indexing again tries the embeddings, not the summary.
    await s.knowledge.indexer.index({ path: 'src/config.ts', mode: 'full' }, { signal: signal() });
    const chunkSummaries = s.store.knowledgeFor(s.ws).chunks('src/config.ts').map((c) => c.summary);
    assert.ok(chunkSummaries.length > 1 && chunkSummaries.every((t) => typeof t === 'string' && t.length > 0), JSON.stringify(chunkSummaries));
    const chats = s.server.requests.length;
    const embeds = embedRequests(s.server).length;
    const again = await s.knowledge.indexer.index({ path: 'src/config.ts', mode: 'full' }, { signal: signal() });
    assert.equal(again.outcome, 'indexed');
    assert.equal(s.server.requests.length, chats, 'the stored summaries were reused');
    assert.equal(embedRequests(s.server).length, embeds + 1, 'the embeddings were tried again');
    assert.deepEqual(s.store.knowledgeFor(s.ws).chunks('src/config.ts').map((c) => c.summary), chunkSummaries);
    assert.deepEqual(s.store.knowledgeFor(s.ws).entities('src/config.ts').map((e) => e.name), ['ServerConfig', 'parseConfig', 'validatePort']);

    const retrieval = await s.knowledge.retriever.retrieve('invoice total discount', { k: 2, signal: signal() });
    assert.equal(retrieval.method, 'keywords');
    assert.equal(retrieval.items[0]?.file, 'src/billing.ts');
    assert.match(retrieval.notice ?? s.notices.join('\n'), /keyword/i);
  });

  it('with no embedding model set at all, indexes chunks without vectors and retrieves by keywords', async () => {
    const s = await setup({ embedModel: '' });
    const result = await s.knowledge.indexer.index({ path: 'src/billing.ts', mode: 'embed' }, { signal: signal() });
    assert.equal(result.outcome, 'indexed');
    assert.equal(s.server.log.length, 0, 'no request: nothing to summarize, nothing to embed with');
    const retrieval = await s.knowledge.retriever.retrieve('apply a discount percent', { k: 1, signal: signal() });
    assert.equal(retrieval.method, 'keywords');
    assert.equal(retrieval.items[0]?.name?.includes('applyDiscount'), true, JSON.stringify(retrieval.items[0]));
  });

  it('refuses binary files, huge files, folders and paths outside the workspace, storing nothing and asking nothing', async () => {
    const s = await setup();
    const outside = mkdtempSync(path.join(tmpdir(), 'lh-outside-'));
    writeFileSync(path.join(outside, 'secret.ts'), 'export const key = 1;\n');
    symlinkSync(path.join(outside, 'secret.ts'), path.join(s.ws, 'src/link.ts'));
    cleanup.push(() => rmSync(outside, { recursive: true, force: true }));
    const cases: Array<[string, RegExp]> = [
      ['assets/logo.png', /binary/],
      ['assets/bundle.js', /1\.0 MB indexing limit/],
      ['src', /folder/],
      ['../elsewhere.ts', /"\.\."/],
      [path.join(outside, 'secret.ts'), /outside the workspace/],
      ['src/link.ts', /outside the workspace through a symbolic link/],
    ];
    for (const [given, reason] of cases) {
      const result = await s.knowledge.indexer.index({ path: given, mode: 'full' }, { signal: signal() });
      assert.equal(result.outcome, 'refused', given);
      assert.match(result.reason ?? '', reason, given);
    }
    const missing = await s.knowledge.indexer.index({ path: 'src/nothing.ts', mode: 'full' }, { signal: signal() });
    assert.equal(missing.outcome, 'failed');
    assert.match(missing.reason ?? '', /does not exist/);
    assert.deepEqual(s.store.knowledgeFor(s.ws).listFiles(), []);
    assert.equal(s.server.log.length, 0);
  });

  it('metadata mode stores the outline without any model call; a line range indexes only those lines', async () => {
    const s = await setup();
    const meta = await s.knowledge.indexer.index({ path: 'src/config.ts', mode: 'metadata' }, { signal: signal() });
    assert.equal(meta.outcome, 'metadata');
    assert.equal(s.server.log.length, 0);
    const file = s.store.knowledgeFor(s.ws).getFile('src/config.ts')!;
    assert.deepEqual([file.state, file.mode, file.embedModel, file.bytes], ['metadata', 'metadata', '', Buffer.byteLength(CONFIG_TS)]);

    const ranged = await s.knowledge.indexer.index({ path: 'src/billing.ts', mode: 'full', range: { startLine: 5, endLine: 99 } }, { signal: signal() });
    assert.equal(ranged.outcome, 'indexed');
    const billing = s.store.knowledgeFor(s.ws).getFile('src/billing.ts')!;
    assert.deepEqual(billing.range, { startLine: 5, endLine: BILLING_TS.split('\n').length - 1 }, 'the end is clipped to the file');
    assert.ok(s.store.knowledgeFor(s.ws).chunks('src/billing.ts').every((c) => c.startLine >= 5));
    const bad = await s.knowledge.indexer.index({ path: 'src/billing.ts', mode: 'full', range: { startLine: 50, endLine: 60 } }, { signal: signal() });
    assert.equal(bad.outcome, 'refused');
    assert.match(bad.reason ?? '', /past the end/);
  });

  it('a cancelled index stores nothing; remove() takes a file out of the index', async () => {
    const s = await setup({ reply: { delayMs: 2000 } });
    const controller = new AbortController();
    const running = s.knowledge.indexer.index({ path: 'src/config.ts', mode: 'full' }, { signal: controller.signal });
    while (s.server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await assert.rejects(running);
    assert.equal(s.store.knowledgeFor(s.ws).getFile('src/config.ts'), undefined);
    await s.server.waitForClientAbort(1, 2000);

    await s.knowledge.indexer.index({ path: 'src/billing.ts', mode: 'metadata' }, { signal: signal() });
    assert.equal(s.knowledge.indexer.remove('src/billing.ts'), true);
    assert.equal(s.knowledge.indexer.remove('src/billing.ts'), false);
    assert.equal(s.knowledge.indexer.remove('../x.ts'), false);
    assert.deepEqual(s.store.knowledgeFor(s.ws).listFiles(), []);
  });

  it('yields to a running chat turn before each model call', async () => {
    let release!: () => void;
    const idle = new Promise<void>((resolve) => (release = resolve));
    let waits = 0;
    const s = await setup({
      waitForIdle: async (sig) => {
        waits++;
        sig.throwIfAborted();
        await idle;
      },
    });
    const running = s.knowledge.indexer.index({ path: 'src/config.ts', mode: 'full' }, { signal: signal() });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(s.server.log.length, 0, 'no model call while the turn runs');
    release();
    const result = await running;
    assert.equal(result.outcome, 'indexed');
    assert.equal(waits, 2, 'before the summary and before the one embedding batch');
    assert.ok(result.waitedMs >= 50, `waited ${result.waitedMs} ms`);
  });

  it('the summaries port gives a summary only while the file is what was indexed', async () => {
    const s = await setup();
    await s.knowledge.indexer.index({ path: 'src/config.ts', mode: 'full' }, { signal: signal() });
    await s.knowledge.indexer.index({ path: 'src/billing.ts', mode: 'embed' }, { signal: signal() });
    const summary = await s.knowledge.summaries.summaryFor(path.join(s.ws, 'src/config.ts'), signal());
    assert.equal(summary?.path, 'src/config.ts');
    assert.match(summary?.summary ?? '', /parseConfig/);
    assert.ok(summary!.chunks.some((c) => c.name === 'parseConfig' && /parseConfig/.test(c.summary ?? '')));
    assert.equal(await s.knowledge.summaries.summaryFor('src/billing.ts', signal()), undefined, 'no summary without the model');
    assert.equal(await s.knowledge.summaries.summaryFor('../etc/passwd', signal()), undefined);
    writeFileSync(path.join(s.ws, 'src/config.ts'), CONFIG_TS + '// changed\n');
    assert.equal(await s.knowledge.summaries.summaryFor('src/config.ts', signal()), undefined, 'a stale summary would mislead');
  });
});
