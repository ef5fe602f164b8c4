// The packed vector matrix and its top-k selection against a brute-force reference (cosine of every row, full
// sort), plus the edge cases: ties, k beyond the rows, floors, rows of the wrong length, a query of another
// model; and reciprocal rank fusion.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cosine } from '../../../src/core/embeddings';
import { fuseRankings, RRF_K } from '../../../src/indexing/rankFusion';
import { topK, VectorMatrix } from '../../../src/indexing/vectorMatrix';
import { seeded as random } from '../../helpers/tokens/mixedCorpus';

function vectors(n: number, dims: number, seed: number): Float32Array[] {
  const next = random(seed);
  return Array.from({ length: n }, () => Float32Array.from({ length: dims }, () => next() * 2 - 1));
}

function bruteForce(rows: Float32Array[], query: Float32Array, k: number): Array<{ index: number; score: number }> {
  return rows
    .map((row, index) => ({ index, score: cosine(row, query) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, k);
}

describe('VectorMatrix', () => {
  it('packs rows into one contiguous array, each of length 1', () => {
    const rows = vectors(7, 5, 1);
    const m = VectorMatrix.fromRows(rows);
    assert.equal(m.rows, 7);
    assert.equal(m.dims, 5);
    assert.equal(m.data.length, 35);
    for (let r = 0; r < 7; r++) {
      const row = m.row(r);
      const length = Math.sqrt(row.reduce((s, x) => s + x * x, 0));
      assert.ok(Math.abs(length - 1) < 1e-6);
      assert.ok(Math.abs(cosine(row, rows[r]!) - 1) < 1e-6, 'same direction');
      assert.equal(row.buffer, m.data.buffer, 'a view, not a copy');
    }
  });

  it('finds the same top-k as cosine over every row and a full sort (random data, several k)', () => {
    const rows = vectors(500, 64, 7);
    const m = VectorMatrix.fromRows(rows);
    for (const [seed, k] of [[11, 1], [12, 5], [13, 20], [14, 100]] as const) {
      const query = vectors(1, 64, seed)[0]!;
      const got = m.topK(query, k);
      const want = bruteForce(rows, query, k);
      assert.deepEqual(got.map((h) => h.index), want.map((h) => h.index), `k=${k}`);
      got.forEach((h, i) => assert.ok(Math.abs(h.score - want[i]!.score) < 1e-5));
      for (let i = 1; i < got.length; i++) assert.ok(got[i - 1]!.score >= got[i]!.score);
    }
  });

  it('does not need a normalised query, and score() agrees with topK', () => {
    const rows = vectors(50, 16, 3);
    const m = VectorMatrix.fromRows(rows);
    const query = vectors(1, 16, 4)[0]!.map((x) => x * 37);
    const [best] = m.topK(query, 1);
    assert.ok(Math.abs(best!.score - bruteForce(rows, query, 1)[0]!.score) < 1e-5);
    assert.ok(Math.abs(m.score(query, best!.index) - best!.score) < 1e-6);
  });

  it('keeps the lower row first on ties, returns fewer rows than k when there are fewer, none for k = 0', () => {
    const same = Float32Array.from([1, 0, 0]);
    const m = VectorMatrix.fromRows([Float32Array.from([0, 1, 0]), same, same, Float32Array.from([0, 0, 1]), same]);
    assert.deepEqual(m.topK(Float32Array.from([1, 0, 0]), 2).map((h) => h.index), [1, 2]);
    assert.deepEqual(m.topK(Float32Array.from([1, 0, 0]), 10).map((h) => h.index), [1, 2, 4, 0, 3]);
    assert.deepEqual(m.topK(Float32Array.from([1, 0, 0]), 0), []);
    assert.deepEqual(m.topK(Float32Array.from([1, 0, 0]), -3), []);
  });

  it('leaves out rows at or below the floor (unrelated chunks)', () => {
    const m = VectorMatrix.fromRows([Float32Array.from([1, 0]), Float32Array.from([-1, 0]), Float32Array.from([0, 1]), Float32Array.from([0.6, 0.8])]);
    assert.deepEqual(m.topK(Float32Array.from([1, 0]), 4, 0).map((h) => h.index), [0, 3]);
  });

  it('stores rows of another length (or not finite) as zeros that never match, and counts them', () => {
    const m = VectorMatrix.fromRows([Float32Array.from([1, 0]), Float32Array.from([1, 0, 0]), Float32Array.from([NaN, 1]), Float32Array.from([0, 0])]);
    assert.equal(m.invalidRows, 2);
    assert.deepEqual(m.topK(Float32Array.from([1, 1]), 4, 0).map((h) => h.index), [0]);
  });

  it('refuses a query of another dimension with a clear error (the embedding model changed)', () => {
    const m = VectorMatrix.fromRows(vectors(3, 8, 5));
    assert.throws(() => m.topK(new Float32Array(4), 2), /4 dimensions but the index vectors have 8/);
    assert.deepEqual(VectorMatrix.fromRows([]).topK(new Float32Array(4), 2), [], 'an empty index has no dimension to disagree with');
  });
});

describe('topK over plain scores', () => {
  it('selects the best without sorting everything, ties by index, NaN and the floor left out', () => {
    assert.deepEqual(topK([0.2, 0.9, NaN, 0.9, 0.5, 0], 3), [
      { index: 1, score: 0.9 },
      { index: 3, score: 0.9 },
      { index: 4, score: 0.5 },
    ]);
    assert.deepEqual(topK([0, 0, 1], 5, 0).map((h) => h.index), [2]);
  });
});

describe('fuseRankings (reciprocal rank fusion)', () => {
  it('sums 1/(K + rank) over the lists; an item high in both beats one first in only one', () => {
    const vectorsList = [{ index: 7, score: 0.9 }, { index: 3, score: 0.8 }, { index: 5, score: 0.7 }];
    const keywords = [{ index: 3, score: 12 }, { index: 9, score: 8 }];
    const fused = fuseRankings([vectorsList, keywords], 10);
    assert.deepEqual(fused.map((h) => h.index), [3, 7, 9, 5]);
    assert.ok(Math.abs(fused[0]!.score - (1 / (RRF_K + 2) + 1 / (RRF_K + 1))) < 1e-12);
    assert.ok(Math.abs(fused[1]!.score - 1 / (RRF_K + 1)) < 1e-12);
  });

  it('breaks ties by the first list, then by index, and honours the limit', () => {
    // 4 is first in the keywords, 8 first in the vectors: equal sums, the vector ranking decides.
    const fused = fuseRankings([[{ index: 8, score: 1 }], [{ index: 4, score: 1 }]], 2);
    assert.deepEqual(fused.map((h) => h.index), [8, 4]);
    assert.deepEqual(fuseRankings([[], [{ index: 2, score: 1 }, { index: 1, score: 1 }]], 1).map((h) => h.index), [2]);
    assert.deepEqual(fuseRankings([[{ index: 1, score: 1 }]], 0), []);
  });
});
