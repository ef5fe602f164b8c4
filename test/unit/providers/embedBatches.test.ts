// Which server answers mean "this model cannot embed here" (the user must act) and which are ordinary
// failures (retry, wait), in the words real servers use; and what embedInBatches accepts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EmbeddingUnavailableError } from '../../../src/core/embeddings';
import { ProviderError } from '../../../src/core/provider';
import { embedInBatches, embeddingUnavailable } from '../../../src/providers/embedBatches';

const classify = (status: number, text: string) => embeddingUnavailable('m', status, text, 'the server', 'Pull it.', undefined);

describe('embeddingUnavailable', () => {
  it('recognises "cannot embed" answers of Ollama, llama.cpp, vLLM and LM Studio', () => {
    for (const [status, text] of [
      [400, '"qwen3:8b" does not support embeddings'],
      [500, 'this model does not support embeddings'],
      [501, 'This server does not support embeddings. Start it with `--embeddings`'],
      [400, 'The model does not support Embeddings API'],
      [400, 'Model is not an embedding model'],
      [501, 'Not Implemented'],
    ] as const) {
      const err = classify(status, text);
      assert.ok(err instanceof EmbeddingUnavailableError, `${status} ${text}`);
      assert.match(err.message, /cannot make embeddings/);
      assert.match(err.message, /ollama pull nomic-embed-text/);
    }
  });

  it('recognises missing models', () => {
    for (const [status, text] of [
      [404, 'model "x" not found, try pulling it first'],
      [404, 'File Not Found'],
      [400, 'The model `x` does not exist.'],
    ] as const) {
      const err = classify(status, text);
      assert.ok(err instanceof EmbeddingUnavailableError, `${status} ${text}`);
      assert.match(err.message, /is not available on the server .* Pull it\.$/);
    }
  });

  it('leaves busy, broken or too-long answers to the ordinary error handling', () => {
    for (const [status, text] of [
      [500, 'CUDA error: out of memory'],
      [503, 'Loading model'],
      [400, "This model's maximum context length is 512 tokens. However, you requested 900 tokens."],
      [400, 'input is too large to process. increase the physical batch size'],
      [429, 'Too many requests'],
    ] as const) {
      assert.equal(classify(status, text), undefined, `${status} ${text}`);
    }
  });
});

describe('embedInBatches', () => {
  it('splits into batches and joins the answers in order', async () => {
    const seen: string[][] = [];
    const out = await embedInBatches('m', ['a', 'b', 'c', 'd', 'e'], 'the server', async (batch) => {
      seen.push(batch);
      return batch.map((t) => [t.charCodeAt(0), 1]);
    }, 2);
    assert.deepEqual(seen, [['a', 'b'], ['c', 'd'], ['e']]);
    assert.deepEqual(out.map((v) => v[0]), [97, 98, 99, 100, 101]);
  });

  it('decodes base64 float32 vectors from servers that ignore encoding_format', async () => {
    const b64 = Buffer.from(new Float32Array([0.5, -1.25]).buffer).toString('base64');
    assert.deepEqual(await embedInBatches('m', ['a'], 'the server', async () => [b64]), [[0.5, -1.25]]);
  });

  it('an empty list for some inputs means the model cannot embed', async () => {
    await assert.rejects(embedInBatches('m', ['a'], 'the server', async () => []), EmbeddingUnavailableError);
  });

  it('refuses answers that do not fit: wrong count, not numbers, mixed lengths, no list', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [[[1], [2]], /returned 2 embeddings for 1 inputs/],
      [[['x']], /not a list of numbers/],
      [[[Number.NaN]], /not a list of numbers/],
      [{ embeddings: [] }, /without a list of embeddings/],
    ];
    for (const [answer, message] of cases) {
      await assert.rejects(embedInBatches('m', ['a'], 'the server', async () => answer), (e: unknown) => e instanceof ProviderError && message.test(e.message));
    }
    await assert.rejects(
      embedInBatches('m', ['a', 'b'], 'the server', async () => [[1, 2], [1]]),
      (e: unknown) => e instanceof ProviderError && e.kind === 'invalid_response' && /different lengths/.test(e.message),
    );
  });
});
