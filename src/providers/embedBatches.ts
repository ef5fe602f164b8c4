// Shared by the providers' embed(): sends inputs in batches (servers cap the inputs per request and big
// requests stall other work on a local server), checks what came back, and recognises the answers that mean
// "this server cannot embed with this model" so they become EmbeddingUnavailableError, not a retryable failure.
import { EMBEDDING_MODEL_HINT, EmbeddingUnavailableError } from '../core/embeddings';
import { ProviderError } from '../core/provider';
import { capitalise } from '../shared/format';

/** Inputs per request. */
export const EMBED_BATCH_SIZE = 64;

/**
 * Calls `request` for each batch of at most `batchSize` inputs and joins the answers in order.
 * `serverLabel` names the server in error messages.
 */
export async function embedInBatches(
  model: string,
  input: readonly string[],
  serverLabel: string,
  request: (batch: string[]) => Promise<unknown>,
  batchSize = EMBED_BATCH_SIZE,
): Promise<number[][]> {
  requireModel(model, serverLabel);
  const out: number[][] = [];
  let dims: number | undefined;
  for (let start = 0; start < input.length; start += batchSize) {
    const batch = input.slice(start, start + batchSize);
    const vectors = await request(batch);
    if (!Array.isArray(vectors)) {
      throw new ProviderError('invalid_response', `${capitalise(serverLabel)} answered the embedding request without a list of embeddings.`, {
        retryable: false,
      });
    }
    if (vectors.length === 0) {
      // Some Ollama engines answer an empty list instead of an error for models that cannot embed.
      throw new EmbeddingUnavailableError(
        model,
        `${capitalise(serverLabel)} returned no embeddings for model "${model}"; the model probably cannot make embeddings. ${EMBEDDING_MODEL_HINT}`,
      );
    }
    if (vectors.length !== batch.length) {
      throw new ProviderError('invalid_response', `${capitalise(serverLabel)} returned ${vectors.length} embeddings for ${batch.length} inputs.`, {
        retryable: false,
      });
    }
    for (const raw of vectors) {
      const vector = toVector(raw);
      if (!vector) {
        throw new ProviderError('invalid_response', `${capitalise(serverLabel)} returned an embedding that is not a list of numbers.`, { retryable: false });
      }
      dims ??= vector.length;
      if (vector.length !== dims) {
        throw new ProviderError('invalid_response', `${capitalise(serverLabel)} returned embeddings of different lengths (${dims} and ${vector.length}).`, {
          retryable: false,
        });
      }
      out.push(vector);
    }
  }
  return out;
}

export function requireModel(model: string, serverLabel: string): void {
  if (typeof model !== 'string' || model.trim() === '') {
    throw new EmbeddingUnavailableError(String(model ?? ''), `No embedding model is set for ${serverLabel}. ${EMBEDDING_MODEL_HINT}`);
  }
}

/**
 * An HTTP error that means the model is missing or cannot embed, as an EmbeddingUnavailableError; undefined
 * for every other failure (those stay ProviderErrors: the server may be busy, down or out of memory).
 */
export function embeddingUnavailable(
  model: string,
  status: number,
  serverText: string,
  serverLabel: string,
  pullHint: string,
  cause: unknown,
): EmbeddingUnavailableError | undefined {
  const answer = `HTTP ${status}: ${serverText}`;
  if (CANNOT_EMBED.test(serverText) || status === 501) {
    return new EmbeddingUnavailableError(
      model,
      `Model "${model}" on ${serverLabel} cannot make embeddings (${answer}). ${EMBEDDING_MODEL_HINT}`,
      { status, cause },
    );
  }
  if (status === 404 || ((status === 400 || status === 422) && MISSING_MODEL.test(serverText))) {
    return new EmbeddingUnavailableError(
      model,
      `The embedding model "${model}" is not available on ${serverLabel} (${answer}). ${pullHint}`,
      { status, cause },
    );
  }
  return undefined;
}

// Ollama: `"x" does not support embeddings`, `this model does not support embeddings`; vLLM: `does not support
// Embeddings API`; llama.cpp: `This server does not support embeddings. Start it with --embeddings`;
// LM Studio: `Model is not an embedding model`.
const CANNOT_EMBED = /not support(?:s)? (?:the )?embed|not an embedding model|embeddings? (?:are |is )?not (?:supported|enabled|implemented)|--embeddings?\b/i;
// Ollama: `model "x" not found, try pulling it first`; vLLM: `The model `x` does not exist.`
const MISSING_MODEL = /not found|does not exist|unknown model|no such model|model .*not (?:loaded|available)/i;

function toVector(raw: unknown): number[] | undefined {
  if (typeof raw === 'string') return decodeBase64Floats(raw);
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  for (const x of raw) if (typeof x !== 'number' || !Number.isFinite(x)) return undefined;
  return raw as number[];
}

/** Servers that ignore `encoding_format: "float"` send little-endian float32 as base64. */
function decodeBase64Floats(text: string): number[] | undefined {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length === 0 || bytes.length % 4 !== 0) return undefined;
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i += 4) out.push(bytes.readFloatLE(i));
  return out.every(Number.isFinite) ? out : undefined;
}
