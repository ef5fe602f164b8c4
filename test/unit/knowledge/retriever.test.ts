// KnowledgeIndexRetriever on an in-memory store with an in-process embedder (the fake servers' hashed bag of
// words, no HTTP: the integration tests cover the wire). Loading by revision, the shared vector load, the query
// vector cache, the exact chunk embedding text, the keyword fall-back and its notices, aborts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EMBEDDING_MODEL_HINT, EmbeddingUnavailableError, normalise, type Embedder } from '../../../src/core/embeddings';
import { ProviderError } from '../../../src/core/provider';
import { KnowledgeIndexRetriever, MAX_CHUNK_EMBED_CHARS, chunkEmbeddingText } from '../../../src/indexing/retriever';
import { fakeEmbedding } from '../../helpers/fakeLlm/embeddings';
import { MemoryKnowledgeStore, knowledgeWrite } from '../../helpers/knowledge/memoryKnowledgeStore';

const signal = () => new AbortController().signal;

/** Embeds in-process like the fake servers do; records every call; can be told to fail or to wait. */
class InProcessEmbedder implements Embedder {
  readonly calls: string[][] = [];
  fail: Error | undefined;
  gate: Promise<void> | undefined;
  constructor(readonly model = 'in-process-embed') {}
  async embed(texts: readonly string[], signal: AbortSignal): Promise<Float32Array[]> {
    signal.throwIfAborted();
    this.calls.push([...texts]);
    if (this.gate) {
      const gate = this.gate;
      await new Promise<void>((resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        void gate.then(resolve);
      });
    }
    if (this.fail) throw this.fail;
    return texts.map((t) => normalise(fakeEmbedding(t)));
  }
  get embedded(): number {
    return this.calls.reduce((n, c) => n + c.length, 0);
  }
}

class CountingStore extends MemoryKnowledgeStore {
  chunkReads = 0;
  override chunks(path?: string) {
    this.chunkReads++;
    return super.chunks(path);
  }
}

function put(store: MemoryKnowledgeStore, path: string, functions: Array<[name: string, text: string]>): void {
  let line = 1;
  const chunks = functions.map(([name, text]) => {
    const n = text.split('\n').length;
    const c = { kind: 'function' as const, name, startLine: line, endLine: line + n - 1, text };
    line += n + 1;
    return c;
  });
  store.putFile(knowledgeWrite(path, chunks.map((c) => c.text).join('\n\n'), chunks));
}

function sampleStore(store = new MemoryKnowledgeStore()): MemoryKnowledgeStore {
  put(store, 'src/config.ts', [
    ['parseConfig', '/** Parses the configuration file into settings. */\nexport function parseConfig(text: string) {\n  return JSON.parse(text);\n}'],
    ['validatePort', '/** Checks the port number is between 1 and 65535. */\nexport function validatePort(port: number) {\n  return port > 0 && port < 65536;\n}'],
  ]);
  put(store, 'src/retry.ts', [
    ['backoffDelay', '/** Exponential backoff delay with jitter for retry attempts. */\nexport function backoffDelay(attempt: number) {\n  return Math.random() * 2 ** attempt;\n}'],
  ]);
  put(store, 'src/matrix.ts', [['determinant', '/** Determinant of a square matrix. */\nexport function determinant(m: number[][]) {\n  return 0;\n}']]);
  return store;
}

describe('chunkEmbeddingText', () => {
  it('is path and name, the summary when there is one, then the text', () => {
    assert.equal(chunkEmbeddingText({ file: 'src/a.ts', name: 'parse', summary: '  Parses a.  ', text: 'code' }), 'src/a.ts parse\nParses a.\ncode');
    assert.equal(chunkEmbeddingText({ file: 'src/a.ts', text: 'code' }), 'src/a.ts\ncode');
    assert.equal(chunkEmbeddingText({ file: 'src/a.ts', name: 'x', summary: '   ', text: 'code' }), 'src/a.ts x\ncode');
  });

  it('is clipped to MAX_CHUNK_EMBED_CHARS, never inside a surrogate pair', () => {
    const long = chunkEmbeddingText({ file: 'f.ts', text: 'x'.repeat(5000) });
    assert.equal(long.length, MAX_CHUNK_EMBED_CHARS);
    const emoji = chunkEmbeddingText({ file: 'f.ts', text: `${'x'.repeat(MAX_CHUNK_EMBED_CHARS - 'f.ts\n'.length - 1)}😀😀` });
    assert.equal(emoji.length, MAX_CHUNK_EMBED_CHARS - 1);
    assert.ok(!/[\ud800-\udbff]$/.test(emoji));
  });
});

describe('KnowledgeIndexRetriever with vectors', () => {
  it('ranks by similarity, embeds each chunk once with chunkEmbeddingText, and reads the store only when its revision moves', async () => {
    const store = sampleStore(new CountingStore()) as CountingStore;
    const embedder = new InProcessEmbedder();
    const retriever = new KnowledgeIndexRetriever({ store, embedder });
    const first = await retriever.retrieve('exponential backoff between retry attempts', { signal: signal() });
    assert.equal(first.method, 'vectors');
    assert.equal(first.items[0]?.name, 'backoffDelay');
    assert.equal(first.items[0]?.file, 'src/retry.ts');
    assert.deepEqual([first.items[0]!.startLine, first.items[0]!.endLine], [1, 4]);
    assert.deepEqual(embedder.calls[0], store.chunks().map(chunkEmbeddingText));
    const reads = store.chunkReads;
    await retriever.retrieve('matrix determinant', { signal: signal() });
    assert.equal(store.chunkReads, reads, 'same revision: no reload');
    assert.equal(embedder.embedded, 4 + 2, 'chunks once, then only the two queries');

    put(store, 'src/slug.ts', [['slugify', '/** URL slug from a title. */\nexport function slugify(title: string) {\n  return title;\n}']]);
    const found = await retriever.retrieve('make a url slug from a title', { signal: signal() });
    assert.equal(found.items[0]?.name, 'slugify');
    assert.deepEqual(embedder.calls.at(-2), [chunkEmbeddingText(store.chunks('src/slug.ts')[0]!)], 'only the new chunk');
  });

  it('re-embeds a chunk whose summary changed (its embedding text changed)', async () => {
    const store = sampleStore();
    const embedder = new InProcessEmbedder();
    const retriever = new KnowledgeIndexRetriever({ store, embedder });
    await retriever.warm(signal());
    const determinant = store.chunks('src/matrix.ts')[0]!;
    store.putFile(knowledgeWrite('src/matrix.ts', determinant.text, [{ ...determinant, summary: 'Computes the determinant by Laplace expansion.' }], { summary: 'Matrices.' }));
    await retriever.warm(signal());
    assert.deepEqual(embedder.calls.at(-1), [chunkEmbeddingText(store.chunks('src/matrix.ts')[0]!)]);
    assert.match(embedder.calls.at(-1)![0]!, /Laplace/);
  });

  it('caches query vectors (a few, most recent kept)', async () => {
    const embedder = new InProcessEmbedder();
    const retriever = new KnowledgeIndexRetriever({ store: sampleStore(), embedder });
    await retriever.retrieve('q0', { signal: signal() });
    const base = embedder.calls.length;
    await retriever.retrieve('q0', { signal: signal() });
    await retriever.retrieve('  q0  ', { signal: signal() });
    assert.equal(embedder.calls.length, base, 'same text (trimmed): no embedding');
    for (let i = 1; i <= 8; i++) await retriever.retrieve(`q${i}`, { signal: signal() });
    assert.equal(embedder.calls.length, base + 8);
    await retriever.retrieve('q8', { signal: signal() });
    assert.equal(embedder.calls.length, base + 8, 'recent: cached');
    await retriever.retrieve('q0', { signal: signal() });
    assert.equal(embedder.calls.length, base + 9, 'the oldest was dropped');
  });

  it('shares one vector load between callers asking at the same time', async () => {
    const embedder = new InProcessEmbedder();
    let open!: () => void;
    embedder.gate = new Promise((resolve) => (open = resolve));
    const retriever = new KnowledgeIndexRetriever({ store: sampleStore(), embedder });
    const a = retriever.retrieve('parse the configuration', { signal: signal() });
    const b = retriever.retrieve('matrix determinant', { signal: signal() });
    await new Promise((resolve) => setImmediate(resolve));
    embedder.gate = undefined;
    open();
    const [ra, rb] = await Promise.all([a, b]);
    assert.equal(ra.items[0]?.name, 'parseConfig');
    assert.equal(rb.items[0]?.name, 'determinant');
    assert.equal(embedder.calls.filter((c) => c.length === 4).length, 1, 'the chunks were embedded once');
  });

  it("one caller's abort does not fail another caller waiting for the same load", async () => {
    const embedder = new InProcessEmbedder();
    let open!: () => void;
    embedder.gate = new Promise((resolve) => (open = resolve));
    const retriever = new KnowledgeIndexRetriever({ store: sampleStore(), embedder });
    const controller = new AbortController();
    const aborted = retriever.retrieve('parse the configuration', { signal: controller.signal });
    const patient = retriever.retrieve('matrix determinant', { signal: signal() });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await assert.rejects(aborted, (err: Error) => err.name === 'AbortError');
    embedder.gate = undefined;
    open();
    const result = await patient;
    assert.equal(result.method, 'vectors');
    assert.equal(result.items[0]?.name, 'determinant');
  });

  it('an abort while embedding propagates (no keyword fall-back)', async () => {
    const embedder = new InProcessEmbedder();
    embedder.gate = new Promise(() => undefined);
    const retriever = new KnowledgeIndexRetriever({ store: sampleStore(), embedder });
    const controller = new AbortController();
    const pending = retriever.retrieve('anything', { signal: controller.signal });
    setImmediate(() => controller.abort());
    await assert.rejects(pending, (err: Error) => err.name === 'AbortError');
  });

  it('answers nothing for an empty request, k = 0 or an empty index, without embedding', async () => {
    const embedder = new InProcessEmbedder();
    const retriever = new KnowledgeIndexRetriever({ store: sampleStore(), embedder });
    assert.deepEqual((await retriever.retrieve('   ', { signal: signal() })).items, []);
    assert.deepEqual((await retriever.retrieve('config', { k: 0, signal: signal() })).items, []);
    assert.deepEqual((await new KnowledgeIndexRetriever({ store: new MemoryKnowledgeStore(), embedder }).retrieve('config', { signal: signal() })).items, []);
    assert.equal(embedder.calls.length, 0);
    const capped = await retriever.retrieve('config port retry matrix', { k: 1000, signal: signal() });
    assert.ok(capped.items.length <= 4);
  });
});

describe('KnowledgeIndexRetriever falling back to keywords', () => {
  it('EmbeddingUnavailableError: keywords for good, the notice once, with what to install', async () => {
    const embedder = new InProcessEmbedder();
    embedder.fail = new EmbeddingUnavailableError('in-process-embed', 'The embedding model "in-process-embed" is not available (HTTP 404).');
    const notices: string[] = [];
    const retriever = new KnowledgeIndexRetriever({ store: sampleStore(), embedder, onNotice: (n) => notices.push(n) });
    const first = await retriever.retrieve('parsing configs', { signal: signal() });
    assert.equal(first.method, 'keywords');
    assert.equal(first.items[0]?.name, 'parseConfig');
    assert.equal(first.items[0]?.why, 'keywords: parsing, configs', "the request's own words");
    assert.equal(first.items[0]?.score, 1);
    assert.match(first.notice ?? '', /no usable embedding model.*not available \(HTTP 404\)/);
    assert.ok(first.notice!.endsWith(EMBEDDING_MODEL_HINT), 'the hint is added when the message lacks it');
    const calls = embedder.calls.length;
    const second = await retriever.retrieve('port number', { signal: signal() });
    assert.equal(second.notice, undefined);
    assert.equal(second.items[0]?.name, 'validatePort');
    assert.equal(embedder.calls.length, calls, 'not asked again');
    assert.deepEqual(notices, [first.notice]);
  });

  it('another failure (server down): keywords with the error named, once per outage; vectors again after', async () => {
    const embedder = new InProcessEmbedder();
    const retriever = new KnowledgeIndexRetriever({ store: sampleStore(), embedder });
    embedder.fail = new ProviderError('connection_refused', 'Cannot reach the server at http://127.0.0.1:1.');
    const down = await retriever.retrieve('retry backoff', { signal: signal() });
    assert.equal(down.method, 'keywords');
    assert.equal(down.notice, 'Retrieval from the workspace index uses keywords for now: embedding with "in-process-embed" failed (Cannot reach the server at http://127.0.0.1:1.).');
    assert.equal((await retriever.retrieve('retry backoff', { signal: signal() })).notice, undefined);
    embedder.fail = undefined;
    const up = await retriever.retrieve('retry backoff', { signal: signal() });
    assert.equal(up.method, 'vectors');
    assert.equal(up.items[0]?.name, 'backoffDelay');
    embedder.fail = new Error('socket hang up');
    assert.match((await retriever.retrieve('matrix', { signal: signal() })).notice ?? '', /socket hang up/);
  });

  it('keyword hits are relative to the best, need a matching word, and tokenise identifiers', async () => {
    const retriever = new KnowledgeIndexRetriever({ store: sampleStore() });
    const result = await retriever.retrieve('validate_port', { signal: signal() });
    assert.equal(result.items[0]?.name, 'validatePort');
    assert.equal(result.items[0]?.why, 'keywords: validate, port');
    for (const item of result.items) assert.ok(item.score > 0 && item.score <= 1);
    assert.deepEqual((await retriever.retrieve('zzzz qqqq', { signal: signal() })).items, []);
    assert.deepEqual((await retriever.retrieve('the and of', { signal: signal() })).items, [], 'stopwords only');
  });
});
