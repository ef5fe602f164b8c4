// The pure helpers behind edit/write: occurrence search, closest-lines hints, diff summaries, line utilities,
// terminal output cleaning.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closestLines, findOccurrences, lineNumbersOf, similarity } from '../../../src/core/tools/builtin/editMatch';
import { summarizeChange } from '../../../src/core/tools/builtin/diffSummary';
import { countLines, lineAt, looksBinary, splitLines, usesCrlf } from '../../../src/core/tools/builtin/common';
import { cleanTerminalOutput } from '../../../src/core/tools/builtin/runCommandTool';

describe('findOccurrences', () => {
  it('finds non-overlapping exact matches with their lines', () => {
    const text = 'aa\nb\naa\n';
    const found = findOccurrences(text, 'aa', 'c');
    assert.deepEqual(found.offsets, [0, 5]);
    assert.deepEqual(lineNumbersOf(text, found.offsets), [1, 3]);
    assert.deepEqual(findOccurrences('aaaa', 'aa', 'x').offsets, [0, 2]);
  });

  it('retries in CRLF only for multi-line LF text in a CRLF file', () => {
    const crlf = 'one\r\ntwo\r\nthree\r\n';
    const found = findOccurrences(crlf, 'one\ntwo', 'ONE\nTWO');
    assert.deepEqual(found, { offsets: [0], oldText: 'one\r\ntwo', newText: 'ONE\r\nTWO' });
    assert.deepEqual(findOccurrences('one\ntwo\n', 'one\r\ntwo', 'x').offsets, []);
  });
});

describe('closestLines', () => {
  const file = ['import a;', '', 'function total(items) {', '  let sum = 0;', '  for (const i of items) sum += i.price;', '  return sum;', '}'].join('\n');

  it('shows numbered lines around the most similar window', () => {
    const hint = closestLines(file, 'function total(items){\n  let sum = 0;\n');
    assert.equal(hint, '2| \n3| function total(items) {\n4|   let sum = 0;\n5|   for (const i of items) sum += i.price;');
  });

  it('gives nothing when nothing is close', () => {
    assert.equal(closestLines(file, 'class Zebra extends Horse {}'), undefined);
    assert.equal(closestLines(file, '\n\n'), undefined);
  });

  it('similarity is 1 for equal strings and low for unrelated ones', () => {
    assert.equal(similarity('abc', 'abc'), 1);
    assert.ok(similarity('const x = 1;', 'const x = 2;') > 0.7);
    assert.ok(similarity('const x = 1;', 'while (true) {}') < 0.2);
  });
});

describe('summarizeChange', () => {
  it('counts added and removed lines, gives a hunk and the changed range in the new file', () => {
    const s = summarizeChange('a\nb\nc\nd\ne\nf\n', 'a\nb\nC\nd\ne\nf\ng\n');
    assert.deepEqual([s.added, s.removed], [2, 1]);
    assert.deepEqual(s.range, { start: 3, end: 7 });
    assert.match(s.patch, /^@@ -1,6 \+1,7 @@/);
    assert.match(s.patch, /^-c$/m);
    assert.match(s.patch, /^\+C$/m);
  });

  it('treats a missing file as empty and reports nothing for identical content', () => {
    assert.deepEqual(summarizeChange(undefined, 'x\ny\n').range, { start: 1, end: 2 });
    assert.deepEqual(summarizeChange('same', 'same'), { added: 0, removed: 0, patch: '', range: undefined });
  });

  it('cuts long patches', () => {
    const before = Array.from({ length: 200 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 200 }, (_, i) => `new ${i}`).join('\n');
    const s = summarizeChange(before, after);
    assert.deepEqual([s.added, s.removed], [200, 200]);
    assert.match(s.patch, /… \(\d+ more diff lines\)$/);
    assert.ok(s.patch.split('\n').length <= 61);
  });
});

describe('line utilities', () => {
  it('count lines like an editor', () => {
    assert.deepEqual(splitLines('a\r\nb\n'), ['a', 'b']);
    assert.equal(countLines(''), 0);
    assert.equal(countLines('a'), 1);
    assert.equal(countLines('a\n\n'), 2);
    assert.equal(lineAt('a\nb\nc', 4), 3);
    assert.equal(usesCrlf('a\r\nb\r\nc\n'), true);
    assert.equal(usesCrlf('a\nb\n'), false);
  });

  it('detects binary content', () => {
    assert.equal(looksBinary('text\0more'), true);
    assert.equal(looksBinary('\ufffd\ufffd\ufffdab'), true);
    assert.equal(looksBinary('plain text, ünïcödé'), false);
  });

  it('cleans terminal output', () => {
    assert.equal(cleanTerminalOutput('\x1b[1;32mok\x1b[0m\r\n'), 'ok\n');
    assert.equal(cleanTerminalOutput('10%\r50%\r100%\ndone'), '100%\ndone');
    assert.equal(cleanTerminalOutput('\x1b]0;title\x07text'), 'text');
  });
});
