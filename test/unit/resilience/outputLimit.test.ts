// How far the output limit is raised after a reply cut at it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MIN_RAISED_LIMIT, OUTPUT_LIMIT_CAP, raisedOutputLimit } from '../../../src/core/resilience/outputLimit';

test('twice what was generated or asked, at least the minimum, at most the cap and half a known window, never lower', () => {
  assert.equal(raisedOutputLimit(undefined, undefined), MIN_RAISED_LIMIT);
  assert.equal(raisedOutputLimit(undefined, 300), MIN_RAISED_LIMIT);
  assert.equal(raisedOutputLimit(undefined, 3000), 6000);
  assert.equal(raisedOutputLimit(6000, 6000), 12000);
  assert.equal(raisedOutputLimit(20000, 20000), OUTPUT_LIMIT_CAP);
  assert.equal(raisedOutputLimit(undefined, 3000, 8192), 4096);
  assert.equal(raisedOutputLimit(5000, 5000, 8192), 5000, 'a limit the user set is never lowered');
});
