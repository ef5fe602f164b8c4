// Provider embed() against the fake servers over real HTTP, in both wire formats: the exact request shapes,
// batching, order, and the answers that mean "no embedding model here" becoming EmbeddingUnavailableError.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EmbeddingUnavailableError } from '../../../src/core/embeddings';
import { ProviderError, type ChatProvider } from '../../../src/core/provider';
import { EMBED_BATCH_SIZE } from '../../../src/providers/embedBatches';
import { OllamaProvider } from '../../../src/providers/ollama';
import { OpenAICompatibleProvider } from '../../../src/providers/openaiCompatible';
import {
  embedRequests,
  fakeEmbedding,
  startFakeOllamaServer,
  startFakeOpenAIServer,
  type FakeOllamaOptions,
  type FakeOpenAIOptions,
  type FakeServerHandle,
} from '../../helpers/fakeLlm';
import { closedPort, signal } from '../../helpers/fakeLlm/streamHelpers';

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const CHAT_MODEL = { name: 'qwen3:8b', contextLength: 40960, capabilities: ['completion', 'tools'] };

async function ollama(options: FakeOllamaOptions = {}) {
  const server = await startFakeOllamaServer([], { name: 'ollama embed', ...options });
  servers.push(server);
  return { server, provider: new OllamaProvider({ host: server.url }) };
}

async function openai(options: FakeOpenAIOptions = {}) {
  const server = await startFakeOpenAIServer([], { name: 'openai embed', ...options });
  servers.push(server);
  return { server, provider: new OpenAICompatibleProvider({ baseUrl: server.url }) };
}

function assertVectorsMatch(actual: number[][], texts: readonly string[]): void {
  assert.equal(actual.length, texts.length);
  actual.forEach((vector, i) => {
    const expected = fakeEmbedding(texts[i]!);
    assert.equal(vector.length, expected.length);
    vector.forEach((x, j) => assert.ok(Math.abs(x - expected[j]!) < 1e-6, `text ${i}, dim ${j}: ${x} vs ${expected[j]}`));
  });
}

const TEXTS = ['move or rename a file', 'read a text file', 'run a shell command'];
const manyTexts = (n: number) => Array.from({ length: n }, (_, i) => `text number ${i} about topic ${i % 7}`);

describe('Ollama /api/embed', () => {
  it('sends the documented request and returns one vector per input, in order', async () => {
    const { server, provider } = await ollama();
    const vectors = await provider.embed('nomic-embed-text', TEXTS, signal());
    assertVectorsMatch(vectors, TEXTS);
    const [request] = embedRequests(server);
    assert.equal(request?.method, 'POST');
    assert.equal(request?.path, '/api/embed');
    assert.deepEqual(request?.body, { model: 'nomic-embed-text', input: TEXTS, truncate: true, keep_alive: '30m' });
  });

  it(`batches large inputs (${EMBED_BATCH_SIZE} per request) and keeps the order`, async () => {
    const { server, provider } = await ollama();
    const texts = manyTexts(2 * EMBED_BATCH_SIZE + 2);
    const vectors = await provider.embed('nomic-embed-text', texts, signal());
    assertVectorsMatch(vectors, texts);
    assert.deepEqual(
      embedRequests(server).map((r) => ((r.body as { input: string[] }).input).length),
      [EMBED_BATCH_SIZE, EMBED_BATCH_SIZE, 2],
    );
  });

  it('asks nothing for no inputs', async () => {
    const { server, provider } = await ollama();
    assert.deepEqual(await provider.embed('nomic-embed-text', [], signal()), []);
    assert.equal(embedRequests(server).length, 0);
  });

  it('a model that is not installed is EmbeddingUnavailableError telling how to pull it', async () => {
    const { provider } = await ollama({ models: [CHAT_MODEL], embeddingModels: ['nomic-embed-text'] });
    const err = await provider.embed('mxbai-embed-large', TEXTS, signal()).then(
      () => assert.fail('expected an error'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof EmbeddingUnavailableError, String(err));
    assert.equal(err.status, 404);
    assert.equal(err.model, 'mxbai-embed-large');
    assert.match(err.message, /not available on Ollama at http:\/\/127\.0\.0\.1:\d+ \(HTTP 404: model "mxbai-embed-large" not found, try pulling it first\)/);
    assert.match(err.message, /ollama pull mxbai-embed-large/);
  });

  it('a chat model that cannot embed is EmbeddingUnavailableError suggesting an embedding model', async () => {
    const { provider } = await ollama({ models: [CHAT_MODEL], embeddingModels: [] });
    const err = await provider.embed('qwen3:8b', TEXTS, signal()).catch((e: unknown) => e);
    assert.ok(err instanceof EmbeddingUnavailableError, String(err));
    assert.equal(err.status, 400);
    assert.match(err.message, /Model "qwen3:8b" on Ollama at .* cannot make embeddings \(HTTP 400: "qwen3:8b" does not support embeddings\)/);
    assert.match(err.message, /ollama pull nomic-embed-text/);
  });

  it('no model set is EmbeddingUnavailableError without a request', async () => {
    const { server, provider } = await ollama();
    await assert.rejects(provider.embed('  ', TEXTS, signal()), (e: unknown) => e instanceof EmbeddingUnavailableError && /No embedding model is set/.test(e.message));
    assert.equal(embedRequests(server).length, 0);
  });

  it('a server that is not running is a ProviderError, not "unavailable"', async () => {
    const provider = new OllamaProvider({ host: `http://127.0.0.1:${await closedPort()}` });
    const err = await provider.embed('nomic-embed-text', TEXTS, signal()).catch((e: unknown) => e);
    assert.ok(err instanceof ProviderError && !(err instanceof EmbeddingUnavailableError), String(err));
    assert.equal(err.kind, 'connection_refused');
  });

  it('a cancelled request is a ProviderError of kind aborted', async () => {
    const { provider } = await ollama();
    const err = await provider.embed('nomic-embed-text', TEXTS, AbortSignal.abort()).catch((e: unknown) => e);
    assert.ok(err instanceof ProviderError, String(err));
    assert.equal(err.kind, 'aborted');
  });
});

describe('OpenAI-compatible /v1/embeddings', () => {
  it('asks for floats explicitly and returns one vector per input, in order', async () => {
    const { server, provider } = await openai();
    const vectors = await provider.embed('text-embedding-nomic-embed-text-v1.5', TEXTS, signal());
    assertVectorsMatch(vectors, TEXTS);
    const [request] = embedRequests(server);
    assert.equal(request?.path, '/v1/embeddings');
    assert.deepEqual(request?.body, { model: 'text-embedding-nomic-embed-text-v1.5', input: TEXTS, encoding_format: 'float' });
  });

  it('puts results back in input order by their index', async () => {
    const { provider } = await openai({ embeddingsReversed: true });
    assertVectorsMatch(await provider.embed('emb', TEXTS, signal()), TEXTS);
  });

  it('batches large inputs', async () => {
    const { server, provider } = await openai();
    const texts = manyTexts(EMBED_BATCH_SIZE + 1);
    assertVectorsMatch(await provider.embed('emb', texts, signal()), texts);
    assert.deepEqual(
      embedRequests(server).map((r) => ((r.body as { input: string[] }).input).length),
      [EMBED_BATCH_SIZE, 1],
    );
  });

  it('an unknown model (404) is EmbeddingUnavailableError', async () => {
    const { provider } = await openai({ embeddingModels: ['text-embedding-nomic-embed-text-v1.5'] });
    const err = await provider.embed('nope', TEXTS, signal()).catch((e: unknown) => e);
    assert.ok(err instanceof EmbeddingUnavailableError, String(err));
    assert.equal(err.status, 404);
    assert.match(err.message, /The embedding model "nope" is not available on the OpenAI-compatible server at .* \(HTTP 404: model "nope" not found\)/);
    assert.match(err.message, /set the embedding model setting/);
  });

  it('a chat model (400 "is not an embedding model") is EmbeddingUnavailableError', async () => {
    const { provider } = await openai({ embeddingModels: [] });
    const err = await provider.embed('tiny', TEXTS, signal()).catch((e: unknown) => e);
    assert.ok(err instanceof EmbeddingUnavailableError, String(err));
    assert.equal(err.status, 400);
    assert.match(err.message, /Model "tiny" on .* cannot make embeddings \(HTTP 400: Model "tiny" is not an embedding model\)/);
  });

  it('a server that is not running is a ProviderError, not "unavailable"', async () => {
    const provider = new OpenAICompatibleProvider({ baseUrl: `http://127.0.0.1:${await closedPort()}/v1` });
    const err = await provider.embed('emb', TEXTS, signal()).catch((e: unknown) => e);
    assert.ok(err instanceof ProviderError && !(err instanceof EmbeddingUnavailableError), String(err));
    assert.equal(err.kind, 'connection_refused');
  });
});

it('both providers implement the optional ChatProvider.embed', () => {
  const providers: ChatProvider[] = [new OllamaProvider(), new OpenAICompatibleProvider()];
  for (const p of providers) assert.equal(typeof p.embed, 'function', p.id);
});
