// The summarizer's answer checked against the chunks (src/indexing/summaryAlignment.ts): summaries placed by their
// start line, by what they say they describe, and by their number read with the model's own offset; never on a
// chunk whose code they do not describe. Entity and relation lines checked against the text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChunkDraft } from '../../../src/core/knowledge/types';
import { alignChunkSummaries, checkEntityLines, checkRelationLines, chunkNames, lineTexts, subjectChunks, subjectPatterns, type ReplyChunk } from '../../../src/indexing/summaryAlignment';

/** chunk 0: imports; 1..n: one function each, five lines apart. */
function file(n: number): ChunkDraft[] {
  const out: ChunkDraft[] = [{ kind: 'block', name: 'imports', startLine: 1, endLine: 2, text: "import { a } from 'a';\nimport { b } from 'b';" }];
  for (let i = 1; i <= n; i++) {
    const start = 3 + (i - 1) * 5;
    out.push({ kind: 'function', name: `step${i}`, startLine: start, endLine: start + 4, text: [`function step${i}() {`, '  // work', `  return step${i + 1}();`, '}', ''].join('\n') });
  }
  return out;
}

const entry = (chunk: number, summary: string, startLine = 0): ReplyChunk => ({ chunk, startLine, summary });
const align = (entries: ReplyChunk[], chunks: ChunkDraft[]) => alignChunkSummaries(entries, chunks, chunkNames(chunks, []));
const placed = (a: ReturnType<typeof align>) => a.chunks.map((c) => `${c.index}:${c.summary}`);

test('a model that numbers as the prompt does: taken as it is, summaries that only mention other code included', () => {
  const chunks = file(3);
  const a = align([entry(1, 'Imports a and b.'), entry(2, 'Defines step1, which calls step2.'), entry(3, 'Calls step3 and returns its result.'), entry(4, 'step3 ends the chain.')], chunks);
  assert.deepEqual(placed(a), ['0:Imports a and b.', '1:Defines step1, which calls step2.', '2:Calls step3 and returns its result.', '3:step3 ends the chain.']);
  assert.deepEqual([a.realigned, a.dropped], [0, 0]);
});

test('a chunk skipped in the middle: the numbers after it are read with the new offset, a neutral summary between two offsets is dropped', () => {
  const chunks = file(6);
  // Chunk 4 (step4) skipped; the model numbers on consecutively from it.
  const a = align(
    [entry(1, 'Imports a and b.'), entry(2, 'Declares function step1.'), entry(3, 'Declares step2.'), entry(4, 'Defines step3.'), entry(5, 'A helper in the chain.'), entry(6, 'Declares step6.')],
    chunks,
  );
  // "A helper in the chain." sits between offset 0 (step3) and offset 1 (step6): its number means nothing.
  assert.deepEqual(placed(a), ['0:Imports a and b.', '1:Declares function step1.', '2:Declares step2.', '3:Defines step3.', '6:Declares step6.']);
  assert.deepEqual([a.realigned, a.dropped], [1, 1]);

  const shifted = align([entry(1, 'Declares step1.'), entry(2, 'Returns the next step.'), entry(3, 'Declares step3.')], chunks);
  assert.deepEqual(placed(shifted), ['1:Declares step1.', '2:Returns the next step.', '3:Declares step3.'], 'a neutral summary between the same offset moves with it');
  assert.equal(shifted.realigned, 3);
});

test('a summary is never placed on a chunk whose code it does not describe, whatever its number or line says', () => {
  const chunks = file(3);
  // Both describe step3 (chunk 3): one of them gets it, neither lands on chunk 2 by its number.
  const a = align([entry(3, 'step3 ends the chain.'), entry(4, 'Declares step3.')], chunks);
  assert.deepEqual(a.chunks.map((c) => c.index), [3]);
  assert.equal(a.dropped, 1);
  const byLine = align([entry(1, 'Defines step2.', 3)], chunks);
  assert.deepEqual(placed(byLine), ['2:Defines step2.'], 'the subject outweighs a start line that disagrees');
});

test('the start line identifies a chunk when the number is off; a name declared twice says nothing', () => {
  const chunks = file(3);
  assert.deepEqual(placed(align([entry(7, 'Does the work.', 8), entry(0, 'The first step.', 4)], chunks)), ['1:The first step.', '2:Does the work.']);
  const twice = [...file(2), { kind: 'function' as const, name: 'step1', startLine: 13, endLine: 15, text: 'function step1() {\n  return 0;\n}' }];
  const owner = subjectPatterns(new Map([['step1', -1], ['step2', 2]]));
  assert.deepEqual([...subjectChunks('Declares step1.', owner)], []);
  assert.deepEqual(placed(align([entry(4, 'Declares step1 again.')], twice)), ['3:Declares step1 again.']);
});

test('subjects: named first or declared; not what is called, used or implemented', () => {
  const owner = subjectPatterns(new Map([['parseConfig', 1], ['Reader', 2], ['FileReader', 3], ['Store.getItem', 4], ['getItem', 4]]));
  assert.deepEqual([...subjectChunks('parseConfig reads the file.', owner)], [1]);
  assert.deepEqual([...subjectChunks('The `parseConfig` function reads the file.', owner)], [1]);
  assert.deepEqual([...subjectChunks('**Defines** the exported class FileReader.', owner)], [3]);
  assert.deepEqual([...subjectChunks('Implements Reader by calling parseConfig.', owner)], []);
  assert.deepEqual([...subjectChunks('Declares method getItem of the store.', owner)], [4]);
  assert.deepEqual([...subjectChunks('Declares parseconfig.', owner)], [], 'code names are case-sensitive');
});

test('entity lines: kept when the line shows the name, moved to the declaration, dropped when the file has no such name', () => {
  const chunks = file(2);
  const checked = checkEntityLines(
    [
      { name: 'step1', kind: 'function', line: 3 },
      { name: 'step2', kind: 'function', line: 3 },
      { name: 'ghost', kind: 'function', line: 4 },
    ],
    lineTexts(chunks),
    [{ name: 'step2', line: 8 }],
  );
  assert.deepEqual(checked.entities, [{ name: 'step1', kind: 'function', line: 3 }, { name: 'step2', kind: 'function', line: 8 }]);
  assert.deepEqual([checked.moved, checked.dropped], [1, 1]);
  const relations = checkRelationLines([{ from: 'step1', kind: 'calls', to: 'step2', line: 5 }, { from: 'step1', kind: 'calls', to: 'step2', line: 9 }, { from: 'x.ts', kind: 'imports', to: 'a', line: 1 }], lineTexts(chunks));
  assert.deepEqual(relations, [{ from: 'step1', kind: 'calls', to: 'step2', line: 5 }, { from: 'step1', kind: 'calls', to: 'step2' }, { from: 'x.ts', kind: 'imports', to: 'a', line: 1 }]);
});
