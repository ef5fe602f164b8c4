// The journal reader: which lines count, where a torn write ends and real damage begins.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeEntry, parseJournal, type JournalEntry } from '../../../src/persistence/journalFormat';

const entry = (n: number, text = `row ${n}`): JournalEntry => ({ n, v: 3, ops: [['INSERT INTO t VALUES (?, ?)', [n, text]]] });
const bytes = (...parts: Array<string | Buffer>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));

test('an empty journal has nothing to replay', () => {
  assert.deepEqual(parseJournal(Buffer.alloc(0)), { entries: [], lines: [], goodBytes: 0, totalBytes: 0 });
});

test('well-formed lines come back in order, with byte-exact offsets even for multi-byte text', () => {
  const data = bytes(encodeEntry(entry(1, 'naïve café ✓')), encodeEntry(entry(2)), '\n', encodeEntry(entry(5)));
  const read = parseJournal(data);
  assert.equal(read.problem, undefined);
  assert.deepEqual(read.entries, [entry(1, 'naïve café ✓'), entry(2), entry(5)]);
  assert.deepEqual(read.lines, [1, 2, 4], 'blank lines are skipped but counted');
  assert.equal(read.goodBytes, data.length);
});

test('a last line without its newline is a torn write; goodBytes stops before it', () => {
  const good = bytes(encodeEntry(entry(1)), encodeEntry(entry(2)));
  const whole = encodeEntry(entry(3));
  const read = parseJournal(bytes(good, whole.subarray(0, whole.length - 1)));
  assert.equal(read.entries.length, 2);
  assert.equal(read.goodBytes, good.length);
  assert.deepEqual(read.problem, { kind: 'torn-tail', line: 3, reason: 'line has no end (the write was cut short)' });
});

test('a garbage last line, even with a newline, is treated as the torn tail', () => {
  const good = encodeEntry(entry(1));
  const read = parseJournal(bytes(good, Buffer.alloc(40), '\n'));
  assert.equal(read.problem?.kind, 'torn-tail');
  assert.equal(read.problem?.reason, 'not valid JSON');
  assert.equal(read.goodBytes, good.length);
});

test('garbage before the last line is damage, reported with its line number', () => {
  const read = parseJournal(bytes(encodeEntry(entry(1)), 'garbage\n', encodeEntry(entry(2))));
  assert.deepEqual(read.entries, [entry(1)]);
  assert.deepEqual(read.problem, { kind: 'corrupt', line: 2, reason: 'not valid JSON' });
});

test('valid JSON with the wrong shape or an out-of-order sequence number is damage too', () => {
  const cases: Array<[string, RegExp]> = [
    ['[1,2,3]', /bad sequence number/],
    ['{"n":1,"v":3,"ops":"DROP TABLE x"}', /bad statement list/],
    ['{"n":1,"v":3,"ops":[["SELECT 1",[{"x":1}]]]}', /bad statement list/],
    ['{"n":1,"v":-1,"ops":[]}', /bad schema version/],
  ];
  for (const [line, reason] of cases) {
    const read = parseJournal(bytes(`${line}\n`, encodeEntry(entry(9))));
    assert.equal(read.problem?.kind, 'corrupt', line);
    assert.match(read.problem?.reason ?? '', reason, line);
  }
  const backwards = parseJournal(bytes(encodeEntry(entry(4)), encodeEntry(entry(4)), encodeEntry(entry(5))));
  assert.deepEqual(backwards.problem, { kind: 'corrupt', line: 2, reason: 'bad sequence number 4 after 4' });
});
