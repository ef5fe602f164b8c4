// Retrieval quality on a planted corpus (207 chunks of sixteen realistic modules, 41 questions each answered by
// exactly one chunk), with embeddings from real HTTP servers (fake Ollama and OpenAI-compatible: hashed bag of
// word stems) through the real providers and the shared CachedEmbedder. The chunk that answers a question must
// rank in the top 3 for at least 90 % of the questions; the figures are printed. Also: keyword retrieval when
// the server has no embedding model (notice said once, method 'keywords'), and vectors that the indexer
// embedded are answered by the shared cache, not the server, when the retriever loads.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EMBEDDING_MODEL_HINT } from '../../../src/core/embeddings';
import type { Retrieval } from '../../../src/core/knowledge/types';
import { CachedEmbedder } from '../../../src/indexing/embeddingClient';
import { MemoryVectorCache } from '../../../src/indexing/memoryVectorCache';
import { KnowledgeIndexRetriever, chunkEmbeddingText } from '../../../src/indexing/retriever';
import { OllamaProvider } from '../../../src/providers/ollama';
import { OpenAICompatibleProvider } from '../../../src/providers/openaiCompatible';
import { embedRequests, embeddedInputCount, startFakeOllamaServer, startFakeOpenAIServer, type FakeServerHandle } from '../../helpers/fakeLlm';
import { MemoryKnowledgeStore } from '../../helpers/knowledge/memoryKnowledgeStore';
import { PLANTED_QUESTIONS, indexCorpus } from '../../helpers/knowledge/plantedCorpus';

const MODEL = 'nomic-embed-text';
const signal = () => new AbortController().signal;

let ollama: FakeServerHandle;
let openai: FakeServerHandle;
let noEmbedding: FakeServerHandle;
const store = new MemoryKnowledgeStore();
let chunkCount = 0;

before(async () => {
  ollama = await startFakeOllamaServer([], { name: 'retrieval quality (ollama)' });
  openai = await startFakeOpenAIServer([], { name: 'retrieval quality (openai)' });
  noEmbedding = await startFakeOllamaServer([], { name: 'retrieval quality (no embedding model)', embeddingModels: [] });
  chunkCount = indexCorpus(store);
});
after(async () => {
  await Promise.all([ollama.close(), openai.close(), noEmbedding.close()]);
});

interface Quality {
  top3: number;
  top1: number;
  misses: string[];
  rankings: string[][];
}

/** Asks every planted question; the rate of questions whose answer ranks 1st and in the top 3. */
async function measure(retriever: KnowledgeIndexRetriever, check?: (r: Retrieval) => void): Promise<Quality> {
  let top3 = 0;
  let top1 = 0;
  const misses: string[] = [];
  const rankings: string[][] = [];
  for (const { question, answer } of PLANTED_QUESTIONS) {
    const retrieval = await retriever.retrieve(question, { k: 5, signal: signal() });
    check?.(retrieval);
    const keys = retrieval.items.map((item) => `${item.file}#${item.name}`);
    rankings.push(keys);
    const rank = keys.indexOf(answer);
    if (rank === 0) top1++;
    if (rank >= 0 && rank < 3) top3++;
    else misses.push(`"${question}" → ${keys.slice(0, 3).join(', ')}`);
  }
  return { top3: top3 / PLANTED_QUESTIONS.length, top1: top1 / PLANTED_QUESTIONS.length, misses, rankings };
}

function report(label: string, q: Quality): void {
  console.log(
    `# ${label}: answer in top 3 for ${(100 * q.top3).toFixed(1)} % of ${PLANTED_QUESTIONS.length} questions ` +
      `(top 1: ${(100 * q.top1).toFixed(1)} %) over ${chunkCount} chunks`,
  );
  for (const miss of q.misses) console.log(`#   miss: ${miss}`);
}

describe('the planted corpus', () => {
  it('has at least 200 chunks and 30 questions, each answered by exactly one chunk', () => {
    assert.ok(chunkCount >= 200, `${chunkCount} chunks`);
    assert.ok(PLANTED_QUESTIONS.length >= 30);
    const keys = store.chunks().map((c) => `${c.file}#${c.name}`);
    for (const { answer } of PLANTED_QUESTIONS) assert.equal(keys.filter((k) => k === answer).length, 1, answer);
    assert.equal(new Set(PLANTED_QUESTIONS.map((q) => q.answer)).size, PLANTED_QUESTIONS.length, 'one question per answer');
  });
});

describe('retrieval quality with embeddings over HTTP', () => {
  it('Ollama /api/embed: the answering chunk ranks in the top 3 for >= 90 % of the questions', async () => {
    const cache = new MemoryVectorCache();
    // The indexer embeds the chunks (the same text the retriever asks for) into the shared cache …
    const indexer = new CachedEmbedder({ provider: new OllamaProvider({ host: ollama.url }), model: MODEL, cache });
    await indexer.embed(store.chunks().map(chunkEmbeddingText), signal());
    const afterIndexing = embeddedInputCount(ollama);

    // … so the retriever's own embedder (a new process's, same cache) loads them without asking the server.
    const embedder = new CachedEmbedder({ provider: new OllamaProvider({ host: ollama.url }), model: MODEL, cache });
    const retriever = new KnowledgeIndexRetriever({ store, embedder });
    assert.equal(await retriever.warm(signal()), chunkCount);
    assert.equal(embeddedInputCount(ollama), afterIndexing, 'loading the index embeds nothing: the cache answers');
    assert.equal(embedder.stats.cacheHits, chunkCount);

    const quality = await measure(retriever, (r) => {
      assert.equal(r.method, 'vectors');
      assert.equal(r.notice, undefined);
      assert.ok(r.items.length > 0 && r.items.length <= 5);
      r.items.forEach((item, i) => {
        assert.equal(item.rank, i + 1);
        assert.match(item.why, /^similar to the request \(-?\d\.\d\d\)/);
        assert.ok(item.score > -1 && item.score <= 1);
      });
    });
    report('Ollama embeddings (cosine fused with keywords)', quality);
    assert.ok(quality.top3 >= 0.9, `top-3 rate ${quality.top3}`);
    assert.equal(embeddedInputCount(ollama) - afterIndexing, PLANTED_QUESTIONS.length, 'each question embedded once');

    // The same questions again: every vector is known, the server is not asked.
    const requests = embedRequests(ollama).length;
    const again = await measure(retriever);
    assert.deepEqual(again.rankings, quality.rankings);
    assert.equal(embedRequests(ollama).length, requests);
  });

  it('pure cosine ranking (hybrid off) is reported too, and stays well above chance', async () => {
    const embedder = new CachedEmbedder({ provider: new OllamaProvider({ host: ollama.url }), model: MODEL });
    const quality = await measure(new KnowledgeIndexRetriever({ store, embedder, hybrid: false }), (r) => {
      for (const item of r.items) assert.equal(item.why, `similar to the request (${item.score.toFixed(2)})`);
      for (let i = 1; i < r.items.length; i++) assert.ok(r.items[i - 1]!.score >= r.items[i]!.score, 'cosine order');
    });
    report('Ollama embeddings, cosine only', quality);
    // Chance is 3/207 = 1.4 %; the bag-of-words fake model alone gets about three quarters.
    assert.ok(quality.top3 >= 0.6, `top-3 rate ${quality.top3}`);
  });

  it('OpenAI-compatible /v1/embeddings: same rankings as Ollama (same model, other wire format)', async () => {
    const embedder = new CachedEmbedder({ provider: new OpenAICompatibleProvider({ baseUrl: openai.url }), model: MODEL });
    const viaOpenAI = await measure(new KnowledgeIndexRetriever({ store, embedder }));
    const viaOllama = await measure(
      new KnowledgeIndexRetriever({ store, embedder: new CachedEmbedder({ provider: new OllamaProvider({ host: ollama.url }), model: MODEL }) }),
    );
    report('OpenAI-compatible embeddings (cosine fused with keywords)', viaOpenAI);
    assert.ok(viaOpenAI.top3 >= 0.9, `top-3 rate ${viaOpenAI.top3}`);
    assert.deepEqual(viaOpenAI.rankings, viaOllama.rankings);
    assert.ok(embeddedInputCount(openai) >= chunkCount + PLANTED_QUESTIONS.length);
  });
});

describe('retrieval without an embedding model', () => {
  it('falls back to BM25 keywords, says so once with what to install, and still finds the answers', async () => {
    const notices: string[] = [];
    const embedder = new CachedEmbedder({ provider: new OllamaProvider({ host: noEmbedding.url }), model: MODEL });
    const retriever = new KnowledgeIndexRetriever({ store, embedder, onNotice: (n) => notices.push(n) });
    const seen: Array<string | undefined> = [];
    const quality = await measure(retriever, (r) => {
      assert.equal(r.method, 'keywords');
      seen.push(r.notice);
      for (const item of r.items) {
        assert.match(item.why, /^keywords: \w/);
        assert.ok(item.score > 0 && item.score <= 1);
      }
      assert.equal(r.items[0]?.score, 1, 'scores are relative to the best hit');
    });
    report('keywords only (server without an embedding model)', quality);
    assert.equal(notices.length, 1, 'said once');
    assert.equal(seen[0], notices[0]);
    assert.ok(seen.slice(1).every((n) => n === undefined));
    assert.match(notices[0]!, /keywords/);
    assert.match(notices[0]!, /nomic-embed-text/);
    assert.ok(notices[0]!.includes(EMBEDDING_MODEL_HINT), notices[0]);
    assert.equal(retriever.method, 'keywords');
    assert.equal(embedRequests(noEmbedding).length, 1, 'the server is asked once, not before every call');
    // Keywords do well here because the questions name topics the code spells out; a floor, not a target.
    assert.ok(quality.top3 >= 0.75, `top-3 rate ${quality.top3}`);
  });

  it('no embedder configured: keywords from the start, with the hint', async () => {
    const notices: string[] = [];
    const retriever = new KnowledgeIndexRetriever({ store, onNotice: (n) => notices.push(n) });
    const first = await retriever.retrieve('parse a duration like 5m into milliseconds', { signal: signal() });
    assert.equal(first.method, 'keywords');
    assert.equal(first.items.length, 5, 'defaultK');
    assert.equal(first.items[0]!.name, 'parseDuration');
    assert.match(first.items[0]!.why, /^keywords: .*duration/);
    assert.match(first.notice ?? '', /No embedding model is set/);
    assert.ok(first.notice!.includes(EMBEDDING_MODEL_HINT));
    const second = await retriever.retrieve('matrix determinant', { k: 2, signal: signal() });
    assert.equal(second.notice, undefined);
    assert.equal(second.items.length, 2);
    assert.deepEqual(notices, [first.notice]);
  });
});
