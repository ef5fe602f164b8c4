// The planner/executor flags of `localharness run`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCli, UsageError, type RunOptions } from '../../../src/cli/args';

const run = (...argv: string[]) => parseCli(['run', ...argv, 'do it'], {}, '/ws') as RunOptions;

test('both models → orchestrated; base URLs are optional', () => {
  assert.deepEqual(run('--planner-model', 'big', '--executor-model', 'small').orchestrator, { plannerModel: 'big', executorModel: 'small' });
  assert.deepEqual(run('--planner-model', 'big', '--executor-model', 'small', '--planner-base-url', 'http://a:1', '--executor-base-url', 'http://b:2').orchestrator, {
    plannerModel: 'big',
    executorModel: 'small',
    plannerBaseUrl: 'http://a:1',
    executorBaseUrl: 'http://b:2',
  });
  assert.equal(run().orchestrator, undefined);
});

test('one model alone, a base URL without models, or an empty name is a usage error', () => {
  assert.throws(() => run('--planner-model', 'big'), UsageError);
  assert.throws(() => run('--executor-model', 'small'), UsageError);
  assert.throws(() => run('--executor-base-url', 'http://b:2'), UsageError);
  assert.throws(() => run('--planner-model', ' ', '--executor-model', 'small'), UsageError);
  assert.throws(() => parseCli(['query', '--planner-model', 'x', 'text'], {}, '/ws'), UsageError);
});
