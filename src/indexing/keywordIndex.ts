// BM25 over the chunks as an inverted index: per term, the chunks holding it and how often. A query then costs
// the postings of its few terms instead of a pass over every chunk per term (bm25Scores in core does that,
// fine for a thousand tools, too slow for 10,000 chunks before every model call). Same formula and
// parameters as src/core/tools/selection/bm25.ts, so the two rank alike (a unit test holds them together).
import type { ScoredRow } from './vectorMatrix';
import { topK } from './vectorMatrix';

const K1 = 1.2;
const B = 0.75;

interface Postings {
  /** Document indices, ascending. */
  docs: Int32Array;
  /** Term frequency in each of those documents. */
  counts: Float32Array;
}

export class KeywordIndex {
  private readonly postings = new Map<string, Postings>();
  private readonly lengths: Float32Array;
  private readonly avgLength: number;
  /** Scores of the last query, reset entry by entry (only touched documents), so queries allocate little. */
  private readonly scratch: Float64Array;

  constructor(documents: ReadonlyArray<readonly string[]>) {
    const n = documents.length;
    this.lengths = new Float32Array(n);
    this.scratch = new Float64Array(n);
    const building = new Map<string, { docs: number[]; counts: number[] }>();
    let total = 0;
    documents.forEach((tokens, doc) => {
      this.lengths[doc] = tokens.length;
      total += tokens.length;
      const counts = new Map<string, number>();
      for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
      for (const [term, count] of counts) {
        let p = building.get(term);
        if (!p) building.set(term, (p = { docs: [], counts: [] }));
        p.docs.push(doc);
        p.counts.push(count);
      }
    });
    this.avgLength = n > 0 ? total / n || 1 : 1;
    for (const [term, p] of building) this.postings.set(term, { docs: Int32Array.from(p.docs), counts: Float32Array.from(p.counts) });
  }

  get size(): number {
    return this.lengths.length;
  }

  /** The `limit` best documents for the query tokens (positive scores only), best first; ties by lower index. */
  search(queryTokens: readonly string[], limit: number): ScoredRow[] {
    const n = this.lengths.length;
    const scores = this.scratch;
    const touched: number[] = [];
    for (const term of new Set(queryTokens)) {
      const p = this.postings.get(term);
      if (!p) continue;
      const df = p.docs.length;
      // The "+1" form never goes negative, so a term in most documents still counts a little.
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let i = 0; i < df; i++) {
        const doc = p.docs[i]!;
        const tf = p.counts[i]!;
        const norm = 1 - B + (B * this.lengths[doc]!) / this.avgLength;
        if (scores[doc] === 0) touched.push(doc);
        scores[doc] += (idf * tf * (K1 + 1)) / (tf + K1 * norm);
      }
    }
    touched.sort((a, b) => a - b); // index order, so ties keep the lower index first
    const hits = topK(
      touched.map((doc) => scores[doc]!),
      limit,
      0,
    ).map((hit) => ({ index: touched[hit.index]!, score: hit.score }));
    for (const doc of touched) scores[doc] = 0;
    return hits;
  }

  /** Whether the document holds the term (for saying which words matched). */
  has(doc: number, term: string): boolean {
    const docs = this.postings.get(term)?.docs;
    if (!docs) return false;
    let lo = 0;
    let hi = docs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const d = docs[mid]!;
      if (d === doc) return true;
      if (d < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }
}
