import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCount } from '../../../src/shared/format';

test('formatCount writes numbers exactly as toLocaleString("en-US") does', () => {
  const samples = [0, -0, 7, 999, 1000, -1000, 4096, 8192, 131072, 1234567, -98765432, 2 ** 53 - 1, -(2 ** 53 - 1), 1.5, 1234.5678, NaN, Infinity, -Infinity, 1e21];
  for (const n of samples) assert.equal(formatCount(n), n.toLocaleString('en-US'), `for ${n}`);
  for (let digits = 1; digits <= 16; digits++) {
    const n = Number('9'.repeat(digits)) - 1;
    assert.equal(formatCount(n), n.toLocaleString('en-US'), `for ${n}`);
  }
  assert.equal(formatCount(8192), '8,192');
});
