// The chunk vectors as ONE contiguous Float32Array (row-major, every row normalised), so ranking a query is a
// single tight loop of dot products over adjacent memory plus a running top-k: no per-chunk objects to chase,
// no score array to sort. 10,000 rows of 768 dimensions take 30 MB and rank in a few milliseconds.

export interface ScoredRow {
  /** Row index (the position of the vector in the list it was built from). */
  index: number;
  score: number;
}

export class VectorMatrix {
  /** Rows whose vector had another length than `dims` (or was not finite): stored as zeros, they never match. */
  readonly invalidRows: number;

  private constructor(
    readonly data: Float32Array,
    readonly rows: number,
    readonly dims: number,
    invalidRows: number,
  ) {
    this.invalidRows = invalidRows;
  }

  /** Packs the vectors row by row, each scaled to length 1. `dims` defaults to the first vector's length. */
  static fromRows(vectors: readonly Float32Array[], dims = vectors[0]?.length ?? 0): VectorMatrix {
    const data = new Float32Array(vectors.length * dims);
    let invalid = 0;
    vectors.forEach((vector, r) => {
      if (vector.length !== dims) {
        invalid++;
        return;
      }
      let sum = 0;
      for (let j = 0; j < dims; j++) sum += vector[j]! * vector[j]!;
      if (!Number.isFinite(sum)) {
        invalid++;
        return;
      }
      const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
      const base = r * dims;
      for (let j = 0; j < dims; j++) data[base + j] = vector[j]! * scale;
    });
    return new VectorMatrix(data, vectors.length, dims, invalid);
  }

  /** A view of one row (no copy). */
  row(index: number): Float32Array {
    return this.data.subarray(index * this.dims, (index + 1) * this.dims);
  }

  /** Cosine similarity of the query to one row. */
  score(query: Float32Array, index: number): number {
    this.checkQuery(query);
    const q = unit(query);
    const base = index * this.dims;
    let sum = 0;
    for (let j = 0; j < this.dims; j++) sum += this.data[base + j]! * q[j]!;
    return sum;
  }

  /**
   * The `k` rows most similar to `query` (cosine: the query is normalised here), best first; ties keep the lower
   * row index first. Rows scoring at or below `floor` are left out.
   */
  topK(query: Float32Array, k: number, floor = -Infinity): ScoredRow[] {
    const { data, dims, rows } = this;
    this.checkQuery(query);
    const q = unit(query);
    const top = new TopK(k, floor);
    for (let r = 0, base = 0; r < rows; r++, base += dims) {
      // Four accumulators: independent additions the engine can pipeline.
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let j = 0;
      for (; j + 3 < dims; j += 4) {
        s0 += data[base + j]! * q[j]!;
        s1 += data[base + j + 1]! * q[j + 1]!;
        s2 += data[base + j + 2]! * q[j + 2]!;
        s3 += data[base + j + 3]! * q[j + 3]!;
      }
      for (; j < dims; j++) s0 += data[base + j]! * q[j]!;
      top.offer(r, s0 + s1 + s2 + s3);
    }
    return top.result();
  }

  private checkQuery(query: Float32Array): void {
    if (query.length !== this.dims && this.rows > 0) {
      throw new Error(`the query vector has ${query.length} dimensions but the index vectors have ${this.dims}; the embedding model changed`);
    }
  }
}

/** The `k` best of `scores`, best first, ties by lower index; scores at or below `floor` are left out. */
export function topK(scores: ArrayLike<number>, k: number, floor = -Infinity): ScoredRow[] {
  const top = new TopK(k, floor);
  for (let i = 0; i < scores.length; i++) top.offer(i, scores[i]!);
  return top.result();
}

/**
 * A running selection of the k best (index, score) pairs: a sorted array of at most k entries, where a new
 * score costs one comparison unless it beats the current k-th (k is small: 5 to 50).
 */
class TopK {
  private readonly indices: Int32Array;
  private readonly scores: Float64Array;
  private count = 0;
  private readonly k: number;

  constructor(k: number, private readonly floor: number) {
    this.k = Math.max(0, Math.floor(Number.isFinite(k) ? k : 0));
    this.indices = new Int32Array(this.k);
    this.scores = new Float64Array(this.k);
  }

  offer(index: number, score: number): void {
    if (!(score > this.floor)) return; // also drops NaN
    const { k, scores, indices } = this;
    if (k === 0) return;
    if (this.count === k && !(score > scores[k - 1]!)) return;
    // Offers come in index order, so an equal score goes after those already held: ties keep the lower index first.
    let pos = this.count < k ? this.count : k - 1;
    while (pos > 0 && scores[pos - 1]! < score) {
      scores[pos] = scores[pos - 1]!;
      indices[pos] = indices[pos - 1]!;
      pos--;
    }
    scores[pos] = score;
    indices[pos] = index;
    if (this.count < k) this.count++;
  }

  result(): ScoredRow[] {
    const out: ScoredRow[] = [];
    for (let i = 0; i < this.count; i++) out.push({ index: this.indices[i]!, score: this.scores[i]! });
    return out;
  }
}

function unit(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let j = 0; j < vector.length; j++) sum += vector[j]! * vector[j]!;
  if (sum === 0 || Math.abs(sum - 1) < 1e-6) return vector;
  const out = new Float32Array(vector.length);
  const scale = 1 / Math.sqrt(sum);
  for (let j = 0; j < vector.length; j++) out[j] = vector[j]! * scale;
  return out;
}
