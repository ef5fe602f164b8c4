import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RepetitionDetector, callKey } from '../../../src/core/analysis/repetition';
import type { ToolCall } from '../../../src/core/messages';

const read = (path: string, id = 'x'): ToolCall => ({ id, name: 'read_file', arguments: { path } });

test('the same call three times in a row warns; a fourth stops', () => {
  const d = new RepetitionDetector(3);
  assert.deepEqual(d.observe([read('a')]), { kind: 'ok' });
  assert.deepEqual(d.observe([read('a')]), { kind: 'ok' });
  assert.deepEqual(d.observe([read('a')]), { kind: 'warn', name: 'read_file', count: 3 });
  assert.deepEqual(d.observe([read('a')]), { kind: 'stop', name: 'read_file', count: 4 });
});

test('a different call in between resets the streak', () => {
  const d = new RepetitionDetector(3);
  d.observe([read('a')]);
  d.observe([read('a')]);
  assert.deepEqual(d.observe([read('b')]), { kind: 'ok' });
  assert.deepEqual(d.observe([read('a')]), { kind: 'ok' });
  d.reset();
  assert.deepEqual(d.observe([read('a')]), { kind: 'ok' });
});

test('parallel duplicates count, and argument order or string form does not matter', () => {
  const d = new RepetitionDetector(3);
  assert.equal(d.observe([read('a'), read('a'), read('a')]).kind, 'warn');
  assert.equal(callKey({ id: '1', name: 'f', arguments: '{"b":2,"a":1}' }), callKey({ id: '2', name: 'f', arguments: { a: 1, b: 2 } }));
  assert.notEqual(callKey(read('a')), callKey(read('b')));
});
