// A VectorCachePort in memory, for runs without a session database (and for tests and benches).
import type { CachedVector, VectorCachePort } from '../core/embeddings';

export class MemoryVectorCache implements VectorCachePort {
  private readonly byModel = new Map<string, Map<string, Float32Array>>();

  get(model: string, hashes: readonly string[]): Map<string, Float32Array> {
    const stored = this.byModel.get(model);
    const out = new Map<string, Float32Array>();
    if (!stored) return out;
    for (const hash of hashes) {
      const vector = stored.get(hash);
      if (vector) out.set(hash, vector);
    }
    return out;
  }

  put(model: string, entries: ReadonlyArray<CachedVector>): void {
    let stored = this.byModel.get(model);
    if (!stored) this.byModel.set(model, (stored = new Map()));
    // Copies, so a caller that reuses its buffers cannot change what is cached.
    for (const { hash, vector } of entries) stored.set(hash, Float32Array.from(vector));
  }

  get size(): number {
    let n = 0;
    for (const stored of this.byModel.values()) n += stored.size;
    return n;
  }
}
