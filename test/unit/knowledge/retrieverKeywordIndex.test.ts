// The retriever's inverted BM25 index ranks exactly like core's bm25Scores (same formula and parameters) on the
// planted corpus, only without a pass over every chunk per query term; and it says which terms a chunk holds.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bm25Document, bm25Scores } from '../../../src/core/tools/selection/bm25';
import { tokenize } from '../../../src/core/tools/selection/toolText';
import { chunkKeywordTokens } from '../../../src/indexing/chunkText';
import { KeywordIndex } from '../../../src/indexing/keywordIndex';
import { topK } from '../../../src/indexing/vectorMatrix';
import { PLANTED_QUESTIONS, loadCorpus } from '../../helpers/knowledge/plantedCorpus';

describe('KeywordIndex', () => {
  const chunks = loadCorpus().flatMap((f) => f.chunks.map((c) => ({ ...c, file: f.path })));
  const tokens = chunks.map(chunkKeywordTokens);
  const index = new KeywordIndex(tokens);
  const docs = tokens.map(bm25Document);

  it('gives the same scores and order as bm25Scores for every planted question', () => {
    for (const { question } of PLANTED_QUESTIONS) {
      const q = tokenize(question);
      const want = topK(bm25Scores(docs, q), 20, 0);
      const got = index.search(q, 20);
      assert.deepEqual(got.map((h) => h.index), want.map((h) => h.index), question);
      got.forEach((h, i) => assert.ok(Math.abs(h.score - want[i]!.score) < 1e-9));
    }
  });

  it('repeated searches give the same answer (the scratch scores are reset), and nothing for unknown words', () => {
    const q = tokenize('parse the duration string');
    const first = index.search(q, 10);
    index.search(tokenize('matrix determinant inverse'), 10);
    assert.deepEqual(index.search(q, 10), first);
    assert.deepEqual(index.search(['zzzzqqq'], 10), []);
    assert.deepEqual(index.search([], 10), []);
    assert.deepEqual(new KeywordIndex([]).search(['a'], 3), []);
  });

  it('chunk tokens (tokenised word by word, remembered) are exactly tokenize of path, name twice, summary and text', () => {
    const withSummary = { ...chunks[3]!, summary: 'Reads the settings_file and parses HTTPHeaders.' };
    const cases: Array<{ file: string; name?: string; summary?: string; text: string }> = [...chunks, withSummary, { file: 'a.ts', text: '' }];
    for (const c of cases) {
      const name = c.name ? tokenize(c.name) : [];
      const summary = c.summary ? tokenize(c.summary) : [];
      assert.deepEqual(chunkKeywordTokens(c), [...tokenize(c.file), ...name, ...name, ...summary, ...tokenize(c.text)]);
    }
  });

  it('knows which terms a chunk holds', () => {
    const i = chunks.findIndex((c) => c.name === 'parseDuration');
    assert.ok(index.has(i, tokenize('milliseconds')[0]!));
    assert.ok(!index.has(i, tokenize('matrix')[0]!));
    assert.ok(!index.has(i, 'no-such-term'));
    tokens.forEach((t, doc) => {
      for (const term of t.slice(0, 5)) assert.ok(index.has(doc, term));
    });
  });
});
