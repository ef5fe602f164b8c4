// The ACP permission dialog maps to the gate's choices and fails closed; the todo list and the planner's steps
// become plan updates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as acp from '@agentclientprotocol/sdk';
import { permissionAsker } from '../../../src/cli/acp/permission';
import { EventUpdates } from '../../../src/cli/acp/eventUpdates';
import type { ApprovalRequest } from '../../../src/core/approval/gate';

const write: ApprovalRequest = { toolName: 'write_file', risk: 'write', args: { path: 'a.txt' }, description: { title: 'Write a.txt', detail: '+1 line' } };
const sensitive: ApprovalRequest = { ...write, args: { path: '.git/config' }, description: { ...write.description, sensitive: { paths: ['.git/config'], reason: 'git' } } };
const signal = new AbortController().signal;

function asker(answer: (p: acp.RequestPermissionRequest) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>) {
  const seen: acp.RequestPermissionRequest[] = [];
  const ask = permissionAsker('s1', '/ws', { request: async (p) => (seen.push(p), answer(p)) }, () => ({ id: 'call-1', name: 'write_file', title: 'Write', args: {} }));
  return { ask, seen };
}

test('each offered option maps to the gate scope; the call and its file are named', async () => {
  for (const optionId of ['once', 'session', 'workspace'] as const) {
    const { ask, seen } = asker(() => ({ outcome: { outcome: 'selected', optionId } }));
    assert.deepEqual(await ask(write, signal), { approved: true, scope: optionId });
    assert.equal(seen[0]!.toolCall.toolCallId, 'call-1');
    assert.deepEqual(seen[0]!.toolCall.locations, [{ path: '/ws/a.txt' }]);
    assert.deepEqual(seen[0]!.options.map((o) => o.kind), ['allow_once', 'allow_always', 'allow_always', 'reject_once']);
  }
  const { ask } = asker(() => ({ outcome: { outcome: 'selected', optionId: 'deny' } }));
  assert.equal((await ask(write, signal)).approved, false);
});

test('cancelled, unknown or not-offered options are a no', async () => {
  assert.equal((await asker(() => ({ outcome: { outcome: 'cancelled' } })).ask(write, signal)).approved, false);
  assert.equal((await asker(() => ({ outcome: { outcome: 'selected', optionId: 'allow-everything' } })).ask(write, signal)).approved, false);
  // A sensitive file offers only once/deny; "for this session" is not taken.
  const { ask, seen } = asker(() => ({ outcome: { outcome: 'selected', optionId: 'session' } }));
  assert.equal((await ask(sensitive, signal)).approved, false);
  assert.deepEqual(seen[0]!.options.map((o) => o.optionId), ['once', 'deny']);
});

test('todo_write results and the planner steps become plan updates', () => {
  const sent: acp.SessionUpdate[] = [];
  const updates = new EventUpdates('/ws', (u) => sent.push(u), { supported: false, log: () => undefined });
  updates.handle({ type: 'tool_call', id: 't1', name: 'todo_write', arguments: { todos: [{ text: 'read', status: 'done' }, { text: 'edit ', status: 'in_progress' }] } });
  updates.handle({ type: 'tool_result', id: 't1', name: 'todo_write', ok: true, content: 'ok', durationMs: 1 });
  updates.handle({ type: 'plan', steps: [{ id: 's1', goal: 'Find it', dependsOn: [] }, { id: 's2', goal: 'Fix it', dependsOn: ['s1'] }], doneWhen: 'fixed' });
  updates.handle({ type: 'step_start', stepId: 's1', goal: 'Find it', index: 0, total: 2 });
  const plans = sent.filter((u): u is Extract<acp.SessionUpdate, { sessionUpdate: 'plan' }> => u.sessionUpdate === 'plan');
  assert.deepEqual(plans[0]!.entries.map((e) => [e.content, e.status]), [['read', 'completed'], ['edit', 'in_progress']]);
  assert.deepEqual(plans.at(-1)!.entries.map((e) => [e.content, e.status]), [['Find it', 'in_progress'], ['Fix it', 'pending']]);
});
