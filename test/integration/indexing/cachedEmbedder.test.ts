// The shared embedding client over real HTTP (fake Ollama / OpenAI-compatible servers) and a real sql.js
// session database: the server embeds each text once; later calls, new clients and reopened databases are
// answered from memory or the vector cache without a request.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddingUnavailableError, dot } from '../../../src/core/embeddings';
import { CachedEmbedder, contentHash } from '../../../src/indexing/embeddingClient';
import { MemoryVectorCache } from '../../../src/indexing/memoryVectorCache';
import { SessionStore } from '../../../src/persistence/sessionStore';
import { OllamaProvider } from '../../../src/providers/ollama';
import { OpenAICompatibleProvider } from '../../../src/providers/openaiCompatible';
import { embedRequests, embeddedInputCount, fakeEmbedding, startFakeOllamaServer, startFakeOpenAIServer, type FakeServerHandle } from '../../helpers/fakeLlm';

const MODEL = 'nomic-embed-text';
const TEXTS = ['move or rename a file', 'read a text file', 'run a shell command'];
const signal = () => new AbortController().signal;
const bytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

let server: FakeServerHandle;
let dir: string;
before(async () => {
  server = await startFakeOllamaServer([], { name: 'cached embedder' });
  dir = mkdtempSync(path.join(tmpdir(), 'lh-embed-'));
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const provider = () => new OllamaProvider({ host: server.url });

describe('CachedEmbedder', () => {
  it('returns normalised Float32 vectors that point where the server said', async () => {
    const embedder = new CachedEmbedder({ provider: provider(), model: MODEL });
    const vectors = await embedder.embed(TEXTS, signal());
    assert.equal(vectors.length, 3);
    vectors.forEach((v, i) => {
      assert.ok(v instanceof Float32Array);
      assert.ok(Math.abs(dot(v, v) - 1) < 1e-5, 'unit length');
      const expected = Float32Array.from(fakeEmbedding(TEXTS[i]!));
      assert.ok(dot(v, expected) / Math.sqrt(dot(expected, expected)) > 0.9999, 'same direction');
    });
  });

  it('asks the server only for texts it has not seen, each once', async () => {
    const embedder = new CachedEmbedder({ provider: provider(), model: 'once-model' });
    const start = embeddedInputCount(server);
    await embedder.embed(['a b', 'c d', 'a b'], signal());
    assert.equal(embeddedInputCount(server) - start, 2, 'a duplicate in one call is sent once');
    const requests = embedRequests(server).length;
    const again = await embedder.embed(['c d', 'a b'], signal());
    assert.equal(embedRequests(server).length, requests, 'all from memory: no request');
    assert.equal(again.length, 2);
    await embedder.embed(['a b', 'e f'], signal());
    assert.equal(embeddedInputCount(server) - start, 3, 'only the new text');
    assert.deepEqual(embedder.stats, { memoryHits: 3, cacheHits: 0, computed: 3, serverCalls: 2 });
  });

  it('keys vectors by model: another model is asked again', async () => {
    const start = embeddedInputCount(server);
    await new CachedEmbedder({ provider: provider(), model: 'model-one' }).embed(['same text'], signal());
    await new CachedEmbedder({ provider: provider(), model: 'model-two' }).embed(['same text'], signal());
    assert.equal(embeddedInputCount(server) - start, 2);
    assert.notEqual(contentHash('model-one', 'same text'), contentHash('model-two', 'same text'));
    assert.match(contentHash('m', 't'), /^[0-9a-f]{64}$/);
  });

  it('forgets the oldest vectors past its memory limit', async () => {
    const embedder = new CachedEmbedder({ provider: provider(), model: 'small-memory', memoryLimit: 2 });
    await embedder.embed(['one', 'two', 'three'], signal());
    const start = embeddedInputCount(server);
    await embedder.embed(['three'], signal());
    assert.equal(embeddedInputCount(server), start, 'recent: still in memory');
    await embedder.embed(['one'], signal());
    assert.equal(embeddedInputCount(server) - start, 1, 'oldest: asked again');
  });

  it('cannot embed without a model or a provider that embeds, and says what to do without asking anyone', async () => {
    const start = embedRequests(server).length;
    await assert.rejects(
      new CachedEmbedder({ provider: provider(), model: '' }).embed(TEXTS, signal()),
      (e: unknown) => e instanceof EmbeddingUnavailableError && /No embedding model is set/.test(e.message) && /ollama pull nomic-embed-text/.test(e.message),
    );
    await assert.rejects(
      new CachedEmbedder({ provider: { baseUrl: 'http://x' }, model: MODEL }).embed(TEXTS, signal()),
      (e: unknown) => e instanceof EmbeddingUnavailableError && /cannot ask the server at http:\/\/x for embeddings/.test(e.message),
    );
    assert.equal(embedRequests(server).length, start);
  });

  it('passes the server\'s "no such model" on as EmbeddingUnavailableError', async () => {
    const bare = await startFakeOllamaServer([], { embeddingModels: [] });
    try {
      const embedder = new CachedEmbedder({ provider: new OllamaProvider({ host: bare.url }), model: MODEL });
      await assert.rejects(embedder.embed(TEXTS, signal()), (e: unknown) => e instanceof EmbeddingUnavailableError && /ollama pull nomic-embed-text/.test(e.message));
    } finally {
      await bare.close();
    }
  });

  it('works with the OpenAI-compatible wire format too', async () => {
    const openai = await startFakeOpenAIServer([], { embeddingsReversed: true });
    try {
      const embedder = new CachedEmbedder({ provider: new OpenAICompatibleProvider({ baseUrl: openai.url }), model: 'text-embedding-nomic-embed-text-v1.5', cache: new MemoryVectorCache() });
      const [a, b] = await embedder.embed(['move a file', 'read a file'], signal());
      const expected = Float32Array.from(fakeEmbedding('move a file'));
      assert.ok(dot(a!, expected) / Math.sqrt(dot(expected, expected)) > 0.9999);
      assert.ok(dot(a!, b!) < 0.9999);
      assert.equal(embedRequests(openai).length, 1);
    } finally {
      await openai.close();
    }
  });
});

describe('CachedEmbedder with the session database', () => {
  it('a new client on the same store gets stored vectors without a request; so does a reopened store', async () => {
    const file = path.join(dir, 'sessions.db');
    const store = await SessionStore.open(file, { foldIdleMs: 0 });
    const first = await new CachedEmbedder({ provider: provider(), model: 'db-model', cache: store.vectors }).embed(TEXTS, signal());
    const requests = embedRequests(server).length;

    const second = new CachedEmbedder({ provider: provider(), model: 'db-model', cache: store.vectors });
    const fromCache = await second.embed(TEXTS, signal());
    assert.equal(embedRequests(server).length, requests, 'no request: the database had them');
    assert.deepEqual(second.stats, { memoryHits: 0, cacheHits: 3, computed: 0, serverCalls: 0 });
    fromCache.forEach((v, i) => assert.equal(Buffer.compare(bytes(v), bytes(first[i]!)), 0));
    await store.close();

    const reopened = await SessionStore.open(file, { foldIdleMs: 0 });
    try {
      const third = new CachedEmbedder({ provider: provider(), model: 'db-model', cache: reopened.vectors });
      const afterReopen = await third.embed([...TEXTS, 'a new text'], signal());
      assert.equal(embedRequests(server).length, requests + 1, 'only the new text went to the server');
      assert.deepEqual(third.stats, { memoryHits: 0, cacheHits: 3, computed: 1, serverCalls: 1 });
      afterReopen.slice(0, 3).forEach((v, i) => assert.equal(Buffer.compare(bytes(v), bytes(first[i]!)), 0));
    } finally {
      await reopened.close();
    }
  });

  it('a broken cache is reported and skipped: embedding goes on through the server', async () => {
    const store = await SessionStore.open(path.join(dir, 'closed.db'), { foldIdleMs: 0 });
    const cache = store.vectors;
    await store.close();
    const problems: unknown[] = [];
    const embedder = new CachedEmbedder({ provider: provider(), model: 'closed-db', cache, onCacheError: (e) => problems.push(e) });
    const vectors = await embedder.embed(TEXTS, signal());
    assert.equal(vectors.length, 3);
    assert.equal(problems.length, 2, 'the failed lookup and the failed store');
    assert.match(String(problems[0]), /closed/);
  });
});
