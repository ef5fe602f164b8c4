// The "retrieved context" prompt part: location lines, chunk text in fences, neighbours as pointers, best first,
// never over the token budget (checked over many budgets), clipped with a note, items dropped when they cannot fit.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { layoutRetrievedContext, renderRetrievedContext } from '../../../src/core/knowledge/renderRetrieval';
import type { Retrieval, RetrievedChunk } from '../../../src/core/knowledge/types';
import { estimateTokens } from '../../../src/core/tokens';

function item(rank: number, lines: number, extra: Partial<RetrievedChunk> = {}): RetrievedChunk {
  const startLine = rank * 100;
  const text = Array.from({ length: lines }, (_, i) => `  const value${rank}_${i} = compute(${i}); // line ${startLine + i}`).join('\n');
  return { rank, file: `src/mod${rank}.ts`, startLine, endLine: startLine + lines - 1, score: 1 - rank / 10, text, neighbours: [], why: 'similar to the request (0.80)', ...extra };
}

const retrieval = (items: RetrievedChunk[]): Retrieval => ({ query: 'q', method: 'vectors', items });

describe('renderRetrievedContext', () => {
  it('renders each item as its location line, the text in a fence and its neighbours, best first', () => {
    const text = renderRetrievedContext(
      retrieval([
        item(1, 3, {
          name: 'parseConfig',
          summary: 'Parses the\nconfig file.',
          neighbours: [
            { file: 'src/io.ts', startLine: 3, endLine: 9, name: 'readText', relation: 'calls readText' },
            { file: 'src/main.ts', startLine: 1, endLine: 20, relation: 'called by main' },
          ],
        }),
        item(2, 2),
      ]),
      2000,
    );
    const lines = text.split('\n');
    assert.match(lines[0]!, /^Retrieved from the workspace index/);
    assert.equal(lines[1], '');
    assert.equal(lines[2], 'src/mod1.ts:100-102 (parseConfig) — Parses the config file.');
    assert.equal(lines[3], '```');
    assert.equal(lines[4], '  const value1_0 = compute(0); // line 100');
    assert.equal(lines[7], '```');
    assert.equal(lines[8], 'related: calls readText (src/io.ts:3-9); called by main (src/main.ts:1-20)');
    assert.equal(lines[9], '');
    assert.equal(lines[10], 'src/mod2.ts:200-201', 'no name, no summary: the location alone');
    assert.ok(!text.includes('(clipped:'));
  });

  it('never exceeds the budget (estimateTokens of the whole text), for every budget from tiny to large', () => {
    const r = retrieval([item(1, 80, { name: 'big', summary: 'A long function.' }), item(2, 40), item(3, 5), item(4, 60), item(5, 2)]);
    let previous = 0;
    for (let budget = 0; budget <= 3000; budget += 7) {
      const layout = layoutRetrievedContext(r, budget);
      assert.ok(estimateTokens(layout.text) <= budget, `budget ${budget}: ${estimateTokens(layout.text)} tokens`);
      assert.equal(layout.tokens, estimateTokens(layout.text));
      assert.equal(layout.shown.length + layout.dropped, 5);
      assert.ok(layout.shown.length >= previous - 1, 'more room never shows much less');
      previous = layout.shown.length;
      for (let i = 1; i < layout.shown.length; i++) assert.ok(layout.shown[i - 1]!.rank < layout.shown[i]!.rank, 'best first');
    }
    assert.equal(layoutRetrievedContext(r, 3000).shown.length, 5);
  });

  it('clips a long chunk to a fair share of the budget with a note saying which lines are missing', () => {
    const r = retrieval([item(1, 200, { name: 'huge' }), item(2, 3, { name: 'small' })]);
    const layout = layoutRetrievedContext(r, 600);
    assert.deepEqual(layout.shown.map((s) => s.name), ['huge', 'small'], 'the long one does not crowd out the short one');
    assert.equal(layout.clipped, 1);
    const note = /… \(clipped: lines (\d+)-299 not shown\)/.exec(layout.text);
    assert.ok(note, layout.text);
    const firstMissing = Number(note[1]);
    assert.ok(layout.text.includes(`// line ${firstMissing - 1}\n`), 'the line before the note is shown');
    assert.ok(!layout.text.includes(`// line ${firstMissing}\n`), 'the first missing line is not');
    assert.ok(layout.text.includes('  const value2_2 = compute(2); // line 202'), 'the short item whole');
  });

  it('drops what cannot fit with at least two lines, and honours count', () => {
    const r = retrieval([item(1, 10), item(2, 10), item(3, 10)]);
    assert.equal(renderRetrievedContext(r, 10), '', 'not even the preamble and one item');
    const tight = layoutRetrievedContext(r, 90);
    assert.ok(tight.shown.length >= 1 && tight.shown.length < 3);
    assert.equal(tight.dropped, 3 - tight.shown.length);
    const two = layoutRetrievedContext(r, 5000, 2);
    assert.deepEqual(two.shown.map((s) => s.rank), [1, 2]);
    assert.equal(two.dropped, 1);
    assert.equal(renderRetrievedContext(retrieval([]), 5000), '');
    assert.equal(renderRetrievedContext(r, 5000, 0), '');
  });

  it('fences text that itself holds backticks with a longer fence', () => {
    const text = renderRetrievedContext(retrieval([item(1, 1, { text: 'Example:\n```ts\nconst a = 1;\n```' })]), 1000);
    assert.ok(text.includes('\n````\nExample:\n```ts\nconst a = 1;\n```\n````'), text);
  });
});
