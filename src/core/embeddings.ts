// Embeddings as the core sees them: something that turns texts into vectors, a cache port for those vectors,
// and the vector maths the rankers need. The server calls and the caching live outside the core
// (src/indexing/embeddingClient.ts); the tool selector and, later, the workspace index use this port.

export interface Embedder {
  /** The embedding model, as the server names it (part of every cache key). */
  readonly model: string;
  /**
   * One vector per text, in order, normalised to length 1 (so a dot product is the cosine).
   * Throws EmbeddingUnavailableError when the server cannot embed with this model.
   */
  embed(texts: readonly string[], signal: AbortSignal): Promise<Float32Array[]>;
}

/** The server has no such model, or the model (or the whole server) cannot make embeddings. */
export class EmbeddingUnavailableError extends Error {
  readonly model: string;
  /** The HTTP status the server answered with, when there was an answer. */
  readonly status: number | undefined;

  constructor(model: string, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EmbeddingUnavailableError';
    this.model = model;
    this.status = options.status;
  }
}

/** What an embedding user can do about it, appended to the messages of EmbeddingUnavailableError. */
export const EMBEDDING_MODEL_HINT =
  'Install an embedding model (for Ollama: `ollama pull nomic-embed-text`; in LM Studio: load an embedding model such as ' +
  'text-embedding-nomic-embed-text-v1.5) and set it as the embedding model setting.';

export interface CachedVector {
  /** Content hash of the embedded text (the caller decides how it is computed). */
  hash: string;
  vector: Float32Array;
}

/** Stored vectors by model and content hash. Implementations: SQLite (persistence) and in memory (indexing). */
export interface VectorCachePort {
  /** The vectors stored for those hashes; missing hashes are simply absent from the map. */
  get(model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> | Map<string, Float32Array>;
  put(model: string, entries: ReadonlyArray<CachedVector>): Promise<void> | void;
}

/** Dot product over the common length. For normalised vectors this is the cosine similarity. */
export function dot(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** Cosine similarity of any two vectors (0 when either is all zeros). */
export function cosine(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    ab += x * y;
    aa += x * x;
    bb += y * y;
  }
  return aa === 0 || bb === 0 ? 0 : ab / Math.sqrt(aa * bb);
}

/** A Float32 copy scaled to length 1 (an all-zero vector stays zero). */
export function normalise(values: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(values);
  let sum = 0;
  for (let i = 0; i < out.length; i++) sum += out[i]! * out[i]!;
  if (sum > 0) {
    const scale = 1 / Math.sqrt(sum);
    for (let i = 0; i < out.length; i++) out[i] *= scale;
  }
  return out;
}
