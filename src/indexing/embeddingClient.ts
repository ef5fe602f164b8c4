// The embedding client shared by tool selection and the workspace index: texts → normalised Float32 vectors,
// each text embedded by the server once. Lookup order: this process's memory, then the vector cache port
// (SQLite across runs), then the server, asked only for what is still missing (the provider batches).
import { createHash } from 'node:crypto';
import { EMBEDDING_MODEL_HINT, EmbeddingUnavailableError, normalise, type Embedder, type VectorCachePort } from '../core/embeddings';
import { ProviderError, type ChatProvider } from '../core/provider';

export interface CachedEmbedderOptions {
  /** The server: any provider with `embed`; one without it makes every call throw EmbeddingUnavailableError. */
  provider: Pick<ChatProvider, 'embed' | 'baseUrl'>;
  /** The embedding model as the server names it. Empty: every call throws EmbeddingUnavailableError. */
  model: string;
  /** Where vectors outlive the process (SessionStore.vectors); absent: memory only. */
  cache?: VectorCachePort;
  /** Vectors kept in memory, oldest dropped first (default 50,000; 768-dim vectors take 3 KB each). */
  memoryLimit?: number;
  /** A cache that fails (a closed database, a full disk) is reported here and skipped: it is only a cache. */
  onCacheError?: (err: unknown) => void;
}

export interface EmbedderStats {
  /** Texts answered from this process's memory. */
  memoryHits: number;
  /** Texts answered by the cache port. */
  cacheHits: number;
  /** Texts the server embedded. */
  computed: number;
  /** Calls to the provider (each may be several HTTP requests for large inputs). */
  serverCalls: number;
}

/** The cache key of a text: sha256 of model and text, hex. */
export function contentHash(model: string, text: string): string {
  return createHash('sha256').update(model).update('\0').update(text).digest('hex');
}

export class CachedEmbedder implements Embedder {
  readonly model: string;
  readonly stats: EmbedderStats = { memoryHits: 0, cacheHits: 0, computed: 0, serverCalls: 0 };
  private readonly memory = new Map<string, Float32Array>();
  private readonly memoryLimit: number;

  constructor(private readonly options: CachedEmbedderOptions) {
    this.model = options.model;
    this.memoryLimit = Math.max(1, options.memoryLimit ?? 50_000);
  }

  async embed(texts: readonly string[], signal: AbortSignal): Promise<Float32Array[]> {
    signal.throwIfAborted();
    const { provider } = this.options;
    const where = provider.baseUrl ? `the server at ${provider.baseUrl}` : 'the model server';
    if (this.model.trim() === '') throw new EmbeddingUnavailableError(this.model, `No embedding model is set. ${EMBEDDING_MODEL_HINT}`);
    if (!provider.embed) {
      throw new EmbeddingUnavailableError(this.model, `Local Harness cannot ask ${where} for embeddings. ${EMBEDDING_MODEL_HINT}`);
    }
    if (texts.length === 0) return [];

    const hashes = texts.map((text) => contentHash(this.model, text));
    // Vectors for this call; memory may drop entries while a big call runs, this map does not.
    const found = new Map<string, Float32Array>();
    const missing = new Map<string, string>();
    hashes.forEach((hash, i) => {
      const vector = this.memory.get(hash);
      if (vector) {
        if (!found.has(hash)) this.stats.memoryHits++;
        found.set(hash, vector);
      } else missing.set(hash, texts[i]!);
    });

    if (missing.size > 0 && this.options.cache) {
      try {
        const cached = await this.options.cache.get(this.model, [...missing.keys()]);
        for (const [hash, vector] of cached) {
          if (!missing.has(hash) || vector.length === 0) continue;
          missing.delete(hash);
          found.set(hash, vector);
          this.remember(hash, vector);
          this.stats.cacheHits++;
        }
      } catch (err) {
        this.options.onCacheError?.(err);
      }
      signal.throwIfAborted();
    }

    if (missing.size > 0) {
      const pending = [...missing];
      this.stats.serverCalls++;
      const raw = await provider.embed(this.model, pending.map(([, text]) => text), signal);
      if (raw.length !== pending.length) {
        throw new ProviderError('invalid_response', `${where} returned ${raw.length} embeddings for ${pending.length} texts.`, { retryable: false });
      }
      const fresh = pending.map(([hash], i) => ({ hash, vector: normalise(raw[i]!) }));
      for (const { hash, vector } of fresh) {
        found.set(hash, vector);
        this.remember(hash, vector);
      }
      this.stats.computed += fresh.length;
      if (this.options.cache) {
        try {
          await this.options.cache.put(this.model, fresh);
        } catch (err) {
          this.options.onCacheError?.(err);
        }
      }
    }
    return hashes.map((hash) => found.get(hash)!);
  }

  private remember(hash: string, vector: Float32Array): void {
    this.memory.set(hash, vector);
    if (this.memory.size > this.memoryLimit) {
      // Maps iterate in insertion order: the first key is the oldest.
      const oldest = this.memory.keys().next().value as string;
      this.memory.delete(oldest);
    }
  }
}
