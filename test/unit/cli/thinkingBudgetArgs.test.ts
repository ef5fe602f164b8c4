// `localharness run --thinking-budget N`: tokens, 0 for no budget; anything else is a usage error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCli, UsageError, type RunOptions } from '../../../src/cli/args';

const run = (...argv: string[]) => parseCli(['run', ...argv, 'do it'], {}, '/ws') as RunOptions;

test('--thinking-budget takes a whole number of tokens; 0 turns the budget off; unset leaves the default to the session', () => {
  assert.equal(run('--thinking-budget', '1500').thinkingBudget, 1500);
  assert.equal(run('--thinking-budget', '0').thinkingBudget, 0);
  assert.equal(run().thinkingBudget, undefined);
  assert.throws(() => run('--thinking-budget', 'lots'), (e: unknown) => e instanceof UsageError && /--thinking-budget must be a whole number of tokens/.test(e.message));
  assert.throws(() => run('--thinking-budget', '-5'), UsageError);
  assert.throws(() => parseCli(['query', '--thinking-budget', '100', 'text'], {}, '/ws'), UsageError);
});
