// The summarizer's prompt: every chunk listed with its span and numbered lines, the whole held under the budget.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { buildSummaryPrompt, shareBudget, SUMMARY_SYSTEM_PROMPT } from '../../../src/indexing/fileSummaryPrompt';
import type { ChunkDraft } from '../../../src/core/knowledge/types';

function lines(from: number, count: number, width = 30): string {
  return Array.from({ length: count }, (_, i) => `const v${from + i} = '${'x'.repeat(width)}';`).join('\n');
}

function chunk(startLine: number, count: number, extra: Partial<ChunkDraft> = {}): ChunkDraft {
  return { kind: 'block', startLine, endLine: startLine + count - 1, text: lines(startLine, count), ...extra };
}

function promptChars(p: ReturnType<typeof buildSummaryPrompt>): number {
  return p.messages.reduce((sum, m) => sum + m.content.length, 0);
}

describe('buildSummaryPrompt', () => {
  test('a small file is sent whole: header, numbered chunks with spans, numbered lines', () => {
    const chunks = [chunk(1, 2, { kind: 'function', name: 'load' }), chunk(3, 1)];
    const prompt = buildSummaryPrompt({ path: 'src/a.ts', language: 'typescript', chunks }, 10_000);
    assert.deepEqual(prompt.clipped, []);
    assert.equal(prompt.messages[0]!.role, 'system');
    assert.equal(prompt.messages[0]!.content, SUMMARY_SYSTEM_PROMPT);
    const user = prompt.messages[1]!.content;
    assert.equal(
      user,
      [
        'File: src/a.ts (typescript, 2 chunks)',
        '',
        'Chunk 1 of 2: function load, lines 1-2',
        `1| const v1 = '${'x'.repeat(30)}';`,
        `2| const v2 = '${'x'.repeat(30)}';`,
        '',
        'Chunk 2 of 2: block, lines 3-3',
        `3| const v3 = '${'x'.repeat(30)}';`,
      ].join('\n'),
    );
  });

  test('over budget: the long chunk is clipped, short ones stay whole, every chunk is still asked for', () => {
    const chunks = [chunk(1, 3), chunk(4, 200, { kind: 'class', name: 'Big' }), chunk(204, 2)];
    const budget = SUMMARY_SYSTEM_PROMPT.length + 2000;
    const prompt = buildSummaryPrompt({ path: 'big.ts', language: 'typescript', chunks }, budget);
    assert.deepEqual(prompt.clipped, [1]);
    assert.ok(promptChars(prompt) <= budget, `${promptChars(prompt)} chars > budget ${budget}`);
    const user = prompt.messages[1]!.content;
    for (let n = 1; n <= 3; n++) assert.match(user, new RegExp(`^Chunk ${n} of 3: `, 'm'));
    const clippedHeader = /^Chunk 2 of 3: class Big, lines 4-203 \(clipped: lines (\d+)-203 not shown\)$/m.exec(user);
    assert.ok(clippedHeader, user.slice(0, 600));
    const firstHidden = Number(clippedHeader[1]);
    assert.match(user, new RegExp(`^${firstHidden - 1}\\| `, 'm'), 'the last shown line precedes the first hidden one');
    assert.doesNotMatch(user, new RegExp(`^${firstHidden}\\| `, 'm'));
    assert.match(user, /^205\| /m, 'the short chunk after it is whole');
  });

  test('a budget smaller than the headers still lists every chunk, without text', () => {
    const chunks = [chunk(1, 50), chunk(51, 50)];
    const prompt = buildSummaryPrompt({ path: 'x.ts', language: 'typescript', chunks }, 100);
    assert.deepEqual(prompt.clipped, [0, 1]);
    assert.match(prompt.messages[1]!.content, /Chunk 1 of 2: block, lines 1-50 \(clipped: not shown\)/);
    assert.match(prompt.messages[1]!.content, /Chunk 2 of 2: block, lines 51-100 \(clipped: not shown\)/);
  });

  test('an empty file says so', () => {
    const prompt = buildSummaryPrompt({ path: 'e.ts', language: 'typescript', chunks: [] }, 1000);
    assert.equal(prompt.messages[1]!.content, 'File: e.ts (typescript, 0 chunks)\n\n(The file is empty.)');
  });
});

describe('shareBudget', () => {
  test('short texts get all they need, long ones share the rest equally', () => {
    assert.deepEqual(shareBudget([100, 5000, 50, 3000], 2000), [100, 925, 50, 925]);
    assert.deepEqual(shareBudget([10, 20], 1000), [10, 20]);
    assert.deepEqual(shareBudget([10, 20], 0), [0, 0]);
  });
});
