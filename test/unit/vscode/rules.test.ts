import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  WORKSPACE_RULES_KEY,
  WorkspaceRuleStore,
  dedupeRules,
  describeRule,
  listRules,
  parseRules,
  ruleKey,
  withoutRules,
  type KeyValueStore,
} from '../../../src/editor/approval/rules';

/** A Memento stand-in that records every write. */
class RecordingMemento implements KeyValueStore {
  readonly values = new Map<string, unknown>();
  readonly writes: Array<[string, unknown]> = [];
  get(key: string): unknown {
    return this.values.get(key);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.writes.push([key, value]);
    this.values.set(key, JSON.parse(JSON.stringify(value)));
  }
}

test('parseRules keeps valid rules, trims, drops empty prefixes and says what it ignored', () => {
  const { rules, problems } = parseRules([
    { tool: ' run_command ', commandPrefix: ' npm test ', decision: 'allow' },
    { tool: 'write_file', decision: 'deny' },
    { tool: '', decision: 'allow' },
    { tool: 'x', decision: 'sometimes' },
    { tool: 'x', commandPrefix: '   ', decision: 'allow' },
    'allow everything',
  ]);
  assert.deepEqual(rules, [
    { tool: 'run_command', commandPrefix: 'npm test', decision: 'allow' },
    { tool: 'write_file', decision: 'deny' },
  ]);
  assert.equal(problems.length, 4);
  assert.match(problems[0]!, /rule 3/);
  assert.deepEqual(parseRules('nope').rules, []);
  assert.equal(parseRules('nope').problems.length, 1);
  assert.deepEqual(parseRules(undefined), { rules: [], problems: [] });
});

test('rules that behave the same are one rule; whitespace inside a prefix does not matter', () => {
  const a = { tool: 'run_command', commandPrefix: 'npm  test', decision: 'allow' as const };
  const b = { tool: 'run_command', commandPrefix: 'npm test', decision: 'allow' as const };
  const c = { tool: 'run_command', commandPrefix: 'npm test', decision: 'deny' as const };
  assert.equal(ruleKey(a), ruleKey(b));
  assert.notEqual(ruleKey(b), ruleKey(c));
  assert.deepEqual(dedupeRules([a, b, c]), [a, c]);
  assert.deepEqual(withoutRules([a, c], [b]), [c]);
});

test('the workspace store adds once, removes what was asked, and keeps the rest', async () => {
  const memento = new RecordingMemento();
  const store = new WorkspaceRuleStore(memento);
  assert.deepEqual(store.list(), []);
  assert.equal(await store.add({ tool: 'run_command', commandPrefix: 'npm test', decision: 'allow' }), true);
  assert.equal(await store.add({ tool: 'run_command', commandPrefix: 'npm test', decision: 'allow' }), false);
  assert.equal(await store.add({ tool: 'edit_file', decision: 'allow' }), true);
  assert.equal(memento.writes.length, 2);
  assert.equal(memento.writes[0]![0], WORKSPACE_RULES_KEY);
  assert.equal(await store.remove([{ tool: 'edit_file', decision: 'allow' }]), 1);
  assert.deepEqual(store.list(), [{ tool: 'run_command', commandPrefix: 'npm test', decision: 'allow' }]);
  assert.equal(await store.remove([{ tool: 'nothing', decision: 'allow' }]), 0);
  assert.equal(memento.writes.length, 3, 'removing nothing writes nothing');
});

test('a corrupted stored value reads as no rules instead of throwing', () => {
  const memento = new RecordingMemento();
  memento.values.set(WORKSPACE_RULES_KEY, { not: 'a list' });
  assert.deepEqual(new WorkspaceRuleStore(memento).list(), []);
});

test('listRules labels each rule with where it lives and what it does', () => {
  const listed = listRules([{ tool: 'run_command', commandPrefix: 'npm test', decision: 'allow' }], [{ tool: '*', decision: 'deny' }]);
  assert.deepEqual(
    listed.map((l) => [l.source, l.label]),
    [
      ['workspace', 'Allow run_command when the command starts with `npm test`'],
      ['settings', 'Deny every tool'],
    ],
  );
  assert.equal(describeRule({ tool: 'edit_file', decision: 'allow' }), 'Allow edit_file');
});
