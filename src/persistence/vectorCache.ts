// Embedding vectors in the session database (table `embeddings`, migration 4), keyed by model and content
// hash. The journal stores statement parameters as JSON, where bytes do not survive, so a vector travels as
// hex text and SQLite's unhex() turns it into the BLOB: the journal replays to exactly the same bytes.
import { PersistenceError } from './errors';
import type { Clock } from '../core/ports';
import type { CachedVector, VectorCachePort } from '../core/embeddings';
import type { JournalOp } from './journalFormat';
import type { JournaledDatabase } from './journaledDatabase';

/** Rows per transaction (one journal line): keeps single lines a few MB at most for large models. */
const ROWS_PER_WRITE = 256;

const UPSERT =
  'INSERT INTO embeddings (model, hash, dims, vector, created_at) VALUES (?, ?, ?, unhex(?), ?) ' +
  'ON CONFLICT (model, hash) DO UPDATE SET dims = excluded.dims, vector = excluded.vector, created_at = excluded.created_at';
/** Hashes looked up per query. One fixed SQL text (short chunks are padded) keeps one prepared statement. */
const HASHES_PER_QUERY = 100;
const SELECT_MANY = `SELECT hash, dims, vector FROM embeddings WHERE model = ? AND hash IN (${new Array(HASHES_PER_QUERY).fill('?').join(', ')})`;

export class SqlVectorCache implements VectorCachePort {
  constructor(
    private readonly db: JournaledDatabase,
    private readonly clock: Clock,
  ) {}

  get(model: string, hashes: readonly string[]): Map<string, Float32Array> {
    checkModel(model);
    const out = new Map<string, Float32Array>();
    const unique = [...new Set(hashes)];
    for (const hash of unique) {
      if (typeof hash !== 'string') throw new PersistenceError('invalid-input', 'A vector hash must be a string.');
    }
    for (let start = 0; start < unique.length; start += HASHES_PER_QUERY) {
      const chunk = unique.slice(start, start + HASHES_PER_QUERY);
      const padding = new Array<string>(HASHES_PER_QUERY - chunk.length).fill(chunk[chunk.length - 1]!);
      for (const row of this.db.all(SELECT_MANY, [model, ...chunk, ...padding])) {
        const vector = decodeVector(row.vector, Number(row.dims));
        // A row whose bytes do not match its length is treated as missing: it is only a cache.
        if (vector) out.set(String(row.hash), vector);
      }
    }
    return out;
  }

  /** Durable when it returns. A read-only database (another process writes) keeps nothing: it is only a cache. */
  put(model: string, entries: ReadonlyArray<CachedVector>): void {
    checkModel(model);
    if (this.db.readOnly || entries.length === 0) return;
    const now = this.clock.now();
    const ops: JournalOp[] = entries.map((entry) => {
      checkEntry(entry);
      return [UPSERT, [model, entry.hash, entry.vector.length, encodeVectorHex(entry.vector), now]];
    });
    for (let start = 0; start < ops.length; start += ROWS_PER_WRITE) this.db.write(ops.slice(start, start + ROWS_PER_WRITE));
  }

  /** How many vectors are stored (for one model, or all). */
  count(model?: string): number {
    const row =
      model === undefined
        ? this.db.get('SELECT COUNT(*) AS n FROM embeddings')
        : this.db.get('SELECT COUNT(*) AS n FROM embeddings WHERE model = ?', [model]);
    return Number(row?.n ?? 0);
  }
}

/** Stored bytes are little-endian float32; on little-endian machines (nearly all) they are copied as they are. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Little-endian float32 bytes as hex (the same on every platform). */
export function encodeVectorHex(vector: Float32Array): string {
  if (LITTLE_ENDIAN) return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('hex');
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < vector.length; i++) view.setFloat32(i * 4, vector[i]!, true);
  return Buffer.from(bytes.buffer).toString('hex');
}

export function decodeVector(blob: unknown, dims: number): Float32Array | undefined {
  if (!(blob instanceof Uint8Array) || !Number.isSafeInteger(dims) || dims <= 0 || blob.byteLength !== dims * 4) return undefined;
  if (LITTLE_ENDIAN) {
    // An aligned copy the vector owns: the blob may be a view into a bigger buffer (Buffer.slice() would be too).
    const copy = new Uint8Array(blob.byteLength);
    copy.set(blob);
    return new Float32Array(copy.buffer);
  }
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const out = new Float32Array(dims);
  for (let i = 0; i < dims; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

function checkModel(model: string): void {
  if (typeof model !== 'string' || model === '') throw new PersistenceError('invalid-input', 'A vector needs the name of its embedding model.');
}

function checkEntry(entry: CachedVector): void {
  if (typeof entry?.hash !== 'string' || entry.hash === '') throw new PersistenceError('invalid-input', 'A vector needs a content hash.');
  if (!(entry.vector instanceof Float32Array) || entry.vector.length === 0) {
    throw new PersistenceError('invalid-input', `The vector for ${entry.hash} must be a non-empty Float32Array.`);
  }
  for (let i = 0; i < entry.vector.length; i++) {
    if (!Number.isFinite(entry.vector[i])) throw new PersistenceError('invalid-input', `The vector for ${entry.hash} contains a non-finite number.`);
  }
}
