import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modeNote, modeRefusal, modeRisks } from '../../../src/core/modes/chatMode';

test('mode risks: plan is read within the session (Restricted Mode stays read, no folder stays none), ask is none', () => {
  assert.equal(modeRisks('agent', undefined), undefined);
  assert.deepEqual(modeRisks('plan', undefined), ['read']);
  assert.deepEqual(modeRisks('plan', []), []);
  assert.deepEqual(modeRisks('ask', undefined), []);
});

test('refusals: plan refuses writes and commands, not reads; ask refuses everything; agent nothing', () => {
  assert.match(modeRefusal('plan', { name: 'write_file', risk: 'write' })!, /Plan mode.*write_file is a write tool/);
  assert.match(modeRefusal('plan', { name: 'run_command', risk: 'execute' })!, /Plan mode/);
  assert.equal(modeRefusal('plan', { name: 'read_file', risk: 'read' }), undefined);
  assert.match(modeRefusal('ask', { name: 'read_file', risk: 'read' })!, /Ask mode/);
  assert.equal(modeRefusal('agent', { name: 'write_file', risk: 'write' }), undefined);
});

test('the note: always in plan and ask, in agent only right after another mode', () => {
  assert.match(modeNote('plan', 'agent')!, /# Mode: Plan/);
  assert.match(modeNote('ask', undefined)!, /# Mode: Ask/);
  assert.equal(modeNote('agent', undefined), undefined);
  assert.equal(modeNote('agent', 'agent'), undefined);
  assert.match(modeNote('agent', 'plan')!, /# Mode: Agent/);
});
