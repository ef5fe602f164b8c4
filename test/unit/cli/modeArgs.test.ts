import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCli, UsageError } from '../../../src/cli/args';

test('run --mode agent|plan|ask is parsed; anything else is a usage error; index keeps its own --mode', () => {
  const plan = parseCli(['run', '--mode', 'plan', 'do it'], {}, '/w');
  assert.equal(plan.command === 'run' && plan.mode, 'plan');
  const none = parseCli(['run', 'do it'], {}, '/w');
  assert.equal(none.command === 'run' && none.mode, undefined);
  assert.throws(() => parseCli(['run', '--mode', 'edit', 'x'], {}, '/w'), (e) => e instanceof UsageError && /--mode must be agent, plan, ask, got "edit"/.test(e.message));
  const index = parseCli(['index', '--mode', 'metadata', 'src'], {}, '/w');
  assert.equal(index.command === 'index' && index.mode, 'metadata');
  assert.throws(() => parseCli(['query', '--mode', 'plan', 'x'], {}, '/w'), /--mode only works with `index`/);
});
