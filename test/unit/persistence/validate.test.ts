// Input checks that guard the store: only JSON values reach the key/value table.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PersistenceError } from '../../../src/persistence/errors';
import { checkTitle, encodeJsonValue } from '../../../src/persistence/validate';
import type { JsonValue } from '../../../src/persistence/types';

const invalidInput = (err: unknown) => err instanceof PersistenceError && err.code === 'invalid-input';

test('JSON values are encoded as JSON text', () => {
  assert.equal(encodeJsonValue({ a: [1, 'two', true, null, { b: 1.5 }] }), '{"a":[1,"two",true,null,{"b":1.5}]}');
  assert.equal(encodeJsonValue(Object.assign(Object.create(null) as Record<string, JsonValue>, { x: 1 })), '{"x":1}');
});

test('values JSON cannot round-trip are refused', () => {
  const cyclic: Record<string, JsonValue> = {};
  cyclic.self = cyclic;
  const bad: unknown[] = [Number.NaN, Number.POSITIVE_INFINITY, undefined, () => 1, new Date(0), new Map(), cyclic, [1, Number.NaN]];
  for (const value of bad) assert.throws(() => encodeJsonValue(value as JsonValue), invalidInput, String(value));
});

test('titles are trimmed, and empty or huge ones refused', () => {
  assert.equal(checkTitle('  Hello  '), 'Hello');
  assert.throws(() => checkTitle(' \n '), invalidInput);
  assert.throws(() => checkTitle('x'.repeat(501)), /at most 500 characters/);
  assert.throws(() => checkTitle(7), invalidInput);
});
