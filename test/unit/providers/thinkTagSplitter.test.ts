import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { ThinkTagSplitter, type SplitPiece } from '../../../src/providers/thinkTagSplitter';

function run(chunks: string[]): { text: string; thinking: string; pieces: SplitPiece[] } {
  const splitter = new ThinkTagSplitter();
  const pieces = [...chunks.flatMap((c) => splitter.push(c)), ...splitter.flush()];
  return {
    text: pieces.filter((p) => p.kind === 'text').map((p) => p.text).join(''),
    thinking: pieces.filter((p) => p.kind === 'thinking').map((p) => p.text).join(''),
    pieces,
  };
}

/** Every way of cutting `input` into two chunks, plus one-character chunks. */
function splits(input: string): string[][] {
  const out: string[][] = [Array.from(input)];
  for (let i = 0; i <= input.length; i++) out.push([input.slice(0, i), input.slice(i)]);
  return out;
}

describe('ThinkTagSplitter', () => {
  test('content without tags is all text, unchanged', () => {
    assert.deepEqual(run(['Hello ', 'world']).pieces, [
      { kind: 'text', text: 'Hello ' },
      { kind: 'text', text: 'world' },
    ]);
  });

  test('a think block at the start, wherever the chunks are cut', () => {
    const input = '<think>plan the answer</think>\n\nThe answer is 4.';
    for (const chunks of splits(input)) {
      const r = run(chunks);
      assert.equal(r.thinking, 'plan the answer', JSON.stringify(chunks));
      assert.equal(r.text, 'The answer is 4.', JSON.stringify(chunks));
    }
  });

  test('a think block in the middle keeps the text around it', () => {
    for (const chunks of splits('Let me see. <think>hmm</think>Yes.')) {
      const r = run(chunks);
      assert.equal(r.text, 'Let me see. Yes.');
      assert.equal(r.thinking, 'hmm');
    }
  });

  test('lone < and partial tag lookalikes are text', () => {
    for (const chunks of splits('a < b and <thin ice> and <think')) {
      const r = run(chunks);
      assert.equal(r.text + r.thinking, 'a < b and <thin ice> and <think');
    }
    assert.equal(run(['x <th', 'ought>']).text, 'x <thought>');
  });

  test('an unclosed think block is thinking at the end of the stream', () => {
    const r = run(['<think>still going']);
    assert.equal(r.thinking, 'still going');
    assert.equal(r.text, '');
  });

  test('a stray closing tag (template opened the block) is never shown', () => {
    const r = run(['reasoning here', '</thi', 'nk>\nAnswer']);
    assert.equal(r.text, 'reasoning hereAnswer');
    assert.ok(!r.text.includes('</think>'));
  });

  test('markup inside thinking stays thinking', () => {
    assert.equal(run(['<think>use <b>bold</b> < 3</think>ok']).thinking, 'use <b>bold</b> < 3');
  });

  test('two think blocks', () => {
    const r = run(['<think>a</think>one <think>b</think>two']);
    assert.equal(r.thinking, 'ab');
    assert.equal(r.text, 'one two');
  });
});
