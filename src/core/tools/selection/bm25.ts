// Okapi BM25 over small documents (one per tool). Documents are prepared once (term counts) so ranking a
// thousand tools per model call costs a pass over the query terms, not a re-tokenisation.

export interface Bm25Params {
  /** Term-frequency saturation (default 1.2). */
  k1?: number;
  /** Length normalisation, 0 = none, 1 = full (default 0.75). */
  b?: number;
}

export interface Bm25Document {
  readonly length: number;
  readonly counts: ReadonlyMap<string, number>;
}

export function bm25Document(tokens: readonly string[]): Bm25Document {
  const counts = new Map<string, number>();
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  return { length: tokens.length, counts };
}

/** BM25 score of every document for the query tokens (a repeated query token counts once). */
export function bm25Scores(docs: readonly Bm25Document[], queryTokens: readonly string[], params: Bm25Params = {}): Float64Array {
  const k1 = params.k1 ?? 1.2;
  const b = params.b ?? 0.75;
  const scores = new Float64Array(docs.length);
  if (docs.length === 0) return scores;
  let totalLength = 0;
  for (const d of docs) totalLength += d.length;
  const avgLength = totalLength / docs.length || 1;
  const n = docs.length;
  for (const term of new Set(queryTokens)) {
    let df = 0;
    for (const d of docs) if (d.counts.has(term)) df++;
    if (df === 0) continue;
    // The "+1" form never goes negative, so a term in most documents still counts a little.
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    for (let i = 0; i < n; i++) {
      const tf = docs[i]!.counts.get(term);
      if (!tf) continue;
      const norm = 1 - b + (b * docs[i]!.length) / avgLength;
      scores[i] += (idf * tf * (k1 + 1)) / (tf + k1 * norm);
    }
  }
  return scores;
}

/** Indices of the `limit` best scores, best first; ties keep the original order. Zero scores are left out when `positiveOnly`. */
export function topIndices(scores: ArrayLike<number>, limit: number, positiveOnly = false): number[] {
  const indices: number[] = [];
  for (let i = 0; i < scores.length; i++) if (!positiveOnly || scores[i]! > 0) indices.push(i);
  indices.sort((x, y) => scores[y]! - scores[x]! || x - y);
  return limit < indices.length ? indices.slice(0, Math.max(0, limit)) : indices;
}

/** A ready-made index for callers that rank the same documents by many queries (tool_search). */
export class Bm25Index<T> {
  private readonly docs: Bm25Document[];

  constructor(
    private readonly items: readonly T[],
    tokensOf: (item: T) => readonly string[],
    private readonly params: Bm25Params = {},
  ) {
    this.docs = items.map((item) => bm25Document(tokensOf(item)));
  }

  /** Items with a positive score, best first. */
  search(queryTokens: readonly string[], limit = Infinity): Array<{ item: T; score: number }> {
    const scores = bm25Scores(this.docs, queryTokens, this.params);
    return topIndices(scores, limit, true).map((i) => ({ item: this.items[i]!, score: scores[i]! }));
  }
}
