// Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): several rankings of the same items become one
// by summing 1 / (K + rank) per list. It needs no common score scale, so cosine similarities (whose spread
// differs from model to model) and BM25 scores (unbounded) combine without tuning. The retriever fuses the
// embedding ranking with keywords because small embedding models blur identifiers and rare words.
import type { ScoredRow } from './vectorMatrix';

/** The usual constant: damps the weight of the very first ranks so one list cannot decide alone. */
export const RRF_K = 60;

/**
 * The `limit` best items over all lists, best first, each with its fused score. Lists are best first; an item
 * missing from a list gets nothing from it. Ties go to the better rank in the first list, then the lower index.
 */
export function fuseRankings(lists: ReadonlyArray<readonly ScoredRow[]>, limit: number, k = RRF_K): ScoredRow[] {
  const fused = new Map<number, number>();
  const firstRank = new Map<number, number>();
  lists.forEach((list, l) => {
    list.forEach((row, rank) => {
      fused.set(row.index, (fused.get(row.index) ?? 0) + 1 / (k + rank + 1));
      if (l === 0) firstRank.set(row.index, rank);
    });
  });
  return [...fused]
    .sort(([a, sa], [b, sb]) => sb - sa || (firstRank.get(a) ?? Infinity) - (firstRank.get(b) ?? Infinity) || a - b)
    .slice(0, Math.max(0, limit))
    .map(([index, score]) => ({ index, score }));
}
