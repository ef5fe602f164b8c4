import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatLineSpan, parseLineRange } from '../../../src/editor/knowledge/lineRange';

test('"start-end" gives the 1-based inclusive range, with the separators people type', () => {
  for (const text of ['10-42', ' 10 - 42 ', '10–42', '10..42', '10:42', '10 to 42']) {
    assert.deepEqual(parseLineRange(text, 100), { ok: true, range: { startLine: 10, endLine: 42 } }, text);
  }
  assert.deepEqual(parseLineRange('7', 100), { ok: true, range: { startLine: 7, endLine: 7 } });
  assert.deepEqual(parseLineRange('1-100', 100), { ok: true, range: { startLine: 1, endLine: 100 } });
});

test('a bad range says what is wrong', () => {
  const error = (text: string, lines = 50) => {
    const parsed = parseLineRange(text, lines);
    assert.equal(parsed.ok, false, text);
    return parsed.ok ? '' : parsed.error;
  };
  assert.match(error(''), /Type a range such as 1-40/);
  assert.match(error('', 12), /1-12/);
  assert.match(error('ten to twenty'), /two line numbers/);
  assert.match(error('10-'), /two line numbers/);
  assert.match(error('-3-4'), /two line numbers/);
  assert.match(error('1.5-3'), /two line numbers/);
  assert.equal(error('0-4'), 'Lines start at 1.');
  assert.equal(error('30-20'), 'The first line (30) comes after the last (20).');
  assert.equal(error('40-51'), 'The file has 50 lines; the range ends at 51.');
  assert.equal(error('2-2', 1), 'The file has 1 line; the range ends at 2.');
});

test('a range is shown back as lines or a line', () => {
  assert.equal(formatLineSpan({ startLine: 3, endLine: 9 }), 'lines 3-9');
  assert.equal(formatLineSpan({ startLine: 4, endLine: 4 }), 'line 4');
});
