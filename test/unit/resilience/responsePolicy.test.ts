import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createResponsePolicy } from '../../../src/core/resilience/responsePolicy';
import { DEFAULT_POLICY_MESSAGES, parseResponsePolicyConfig } from '../../../src/core/analysis/policyConfig';
import type { TextReplyState } from '../../../src/core/agent/turnRunner';

function state(round: number, text: string, toolsOffered = true): TextReplyState {
  return { round, reply: { text, thinking: '', toolCalls: [], finishReason: 'stop' }, history: [], toolsOffered };
}

test('incomplete replies are nudged up to the cap, then accepted', () => {
  const p = createResponsePolicy({ maxContinuationNudges: 2 });
  const a = p.onTextReply(state(0, "I've renamed 3 files. 4 remaining."));
  assert.equal(a.action, 'continue');
  assert.equal(a.action === 'continue' && a.nudge, DEFAULT_POLICY_MESSAGES.continuation);
  assert.match(a.action === 'continue' ? a.notice : '', /Nudged the model to continue \(1\/2\)/);
  assert.equal(p.onTextReply(state(1, 'Next, I will do the rest.')).action, 'continue');
  const c = p.onTextReply(state(2, 'Next, I will do the rest.'));
  assert.equal(c.action, 'end');
  assert.match(c.action === 'end' ? c.notice ?? '' : '', /after 2 nudges/);
});

test('a real completion summary ends the turn with no nudge and no notice', () => {
  const p = createResponsePolicy();
  assert.deepEqual(p.onTextReply(state(0, 'All 7 screenshots have been renamed successfully.')), { action: 'end' });
  assert.deepEqual(p.counters(), { continuation: 0, deflection: 0, empty: 0, reminders: 0 });
});

test('deflections get three firm retries, then the reply is accepted', () => {
  const p = createResponsePolicy();
  for (let round = 0; round < 3; round++) {
    const d = p.onTextReply(state(round, "I can't access your files."));
    assert.equal(d.action, 'continue');
    assert.match(d.action === 'continue' ? d.nudge : '', /Use the tools; do not ask the user/);
  }
  const last = p.onTextReply(state(3, "I can't access your files."));
  assert.equal(last.action, 'end');
  assert.match(last.action === 'end' ? last.notice ?? '' : '', /Accepted the model's reply after 3 attempts/);
});

test('empty replies: two retries, then one summary request without tools, then the end', () => {
  const p = createResponsePolicy();
  assert.equal(p.onTextReply(state(0, '')).action, 'continue');
  const second = p.onTextReply(state(1, '<think>hmm</think>'));
  assert.equal(second.action, 'continue');
  assert.equal(second.action === 'continue' && second.withoutTools, undefined, 'an ordinary retry still offers the tools');
  const summary = p.onTextReply(state(2, ''));
  assert.equal(summary.action, 'continue');
  assert.equal(summary.action === 'continue' && summary.withoutTools, true);
  assert.equal(summary.action === 'continue' && summary.nudge, DEFAULT_POLICY_MESSAGES.summary);
  // Whatever the summary says, the turn ends — even "I will continue".
  assert.deepEqual(p.onTextReply(state(3, 'I did X. Next I will do Y.', false)), { action: 'end' });
});

test('an empty summary still leaves the user a plain answer', () => {
  const p = createResponsePolicy({ maxEmptyRetries: 0 });
  assert.equal(p.onTextReply(state(0, '')).action, 'continue');
  const end = p.onTextReply(state(1, '', false));
  assert.equal(end.action, 'end');
  assert.equal(end.action === 'end' && end.result, DEFAULT_POLICY_MESSAGES.noAnswer);
  const noSummary = createResponsePolicy({ maxEmptyRetries: 0, summaryAfterEmpty: false });
  const direct = noSummary.onTextReply(state(0, ''));
  assert.equal(direct.action === 'end' && direct.result, DEFAULT_POLICY_MESSAGES.noAnswer);
});

test('open todos keep the turn going and are listed in the nudge', () => {
  const p = createResponsePolicy({}, { openTodos: () => ['update README'] });
  const d = p.onTextReply(state(0, 'All done.'));
  assert.equal(d.action, 'continue');
  assert.match(d.action === 'continue' ? d.nudge : '', /Open todos:\n- update README/);
  assert.match(d.action === 'continue' ? d.notice : '', /1 todo\(s\) are still open/);
});

test('task_completion reminders only when the tool is offered and the reply is not a summary', () => {
  const agent = createResponsePolicy({ maxCompletionReminders: 1 }, { offeredToolNames: () => ['read_file', 'task_completion'] });
  // Round 0: a plain answer to a question is a conversational reply, never reminded.
  assert.deepEqual(agent.onTextReply(state(0, 'The config uses port 8080.')), { action: 'end' });
  const r = agent.onTextReply(state(1, 'The config uses port 8080.'));
  assert.equal(r.action, 'continue');
  assert.match(r.action === 'continue' ? r.nudge : '', /call the task_completion tool/);
  const accepted = agent.onTextReply(state(2, 'The config uses port 8080.'));
  assert.equal(accepted.action, 'end');
  assert.match(accepted.action === 'end' ? accepted.notice ?? '' : '', /without calling task_completion/);
  assert.deepEqual(agent.onTextReply(state(0, 'I updated the port to 8080.')), { action: 'end' });
  const plain = createResponsePolicy({}, { offeredToolNames: () => ['read_file'] });
  assert.deepEqual(plain.onTextReply(state(0, 'The config uses port 8080.')), { action: 'end' });
});

test('without tools nothing is nudged except empty replies', () => {
  const p = createResponsePolicy();
  assert.deepEqual(p.onTextReply(state(0, "I can't access your files.", false)), { action: 'end' });
  assert.deepEqual(p.onTextReply(state(0, 'Next I will edit it.', false)), { action: 'end' });
});

test('counters reset when a new turn starts (the round number goes back)', () => {
  const p = createResponsePolicy({ maxDeflectionRetries: 1 });
  assert.equal(p.onTextReply(state(0, "I can't access your files.")).action, 'continue');
  assert.equal(p.onTextReply(state(1, "I can't access your files.")).action, 'end');
  assert.equal(p.onTextReply(state(0, "I can't access your files.")).action, 'continue');
});

test('bad settings are rejected with a readable message; good ones get defaults', () => {
  assert.throws(() => parseResponsePolicyConfig({ maxContinuationNudges: -1 }), /Invalid response policy settings: maxContinuationNudges: .*>=0/);
  assert.throws(() => parseResponsePolicyConfig({ nudges: 3 }), /Unrecognized key: "nudges"/);
  assert.throws(() => parseResponsePolicyConfig({ messages: { empty: '' } }), /messages\.empty/);
  const cfg = parseResponsePolicyConfig({ maxEmptyRetries: 1, messages: { empty: 'Say something.' } });
  assert.equal(cfg.maxEmptyRetries, 1);
  assert.equal(cfg.maxDeflectionRetries, 3);
  assert.equal(cfg.messages.empty, 'Say something.');
  assert.equal(cfg.messages.summary, DEFAULT_POLICY_MESSAGES.summary);
});

test('with read tools only, a refusal to edit is accepted, not retried', () => {
  const p = createResponsePolicy({}, { canActOnDeflection: () => false });
  assert.deepEqual(p.onTextReply(state(0, 'I cannot edit files in this workspace; please trust it first.')), { action: 'end' });
});
