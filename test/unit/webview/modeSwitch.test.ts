// The mode switch and Act in the panel (jsdom): the host's mode is shown, a click posts setMode, Act appears only
// under a finished Plan turn's answer and posts the plan; Edit plan puts it in the message box in Agent mode.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialChatState, reduceAll } from '../../../src/shared/chatState';
import type { ChatEvent } from '../../../src/shared/protocol';
import { mountApp } from './doubles';

const PLAN = '1. Change answer to 42 in app.ts.';
const planTurn = (mode?: 'plan' | 'ask'): ChatEvent[] => [
  { type: 'turn_start', text: 'Make it 42', ...(mode && { mode }) },
  { type: 'text', text: PLAN },
  { type: 'turn_end', reason: 'completed', result: PLAN },
];

const checked = (m: ReturnType<typeof mountApp>) => m.qa('.mode-switch [role="radio"]').filter((b) => b.getAttribute('aria-checked') === 'true').map((b) => b.textContent);

test('the host sets the mode; a click posts setMode', () => {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 1, state: initialChatState(8192) });
  m.timing.settle();
  assert.deepEqual(checked(m), ['Agent']);
  m.deliver({ type: 'mode', mode: 'ask' });
  assert.deepEqual(checked(m), ['Ask']);
  (m.qa('.mode-switch [role="radio"]').find((b) => b.textContent === 'Plan') as HTMLButtonElement).click();
  assert.deepEqual(checked(m), ['Plan']);
  assert.deepEqual(m.api.ofType('setMode'), [{ type: 'setMode', mode: 'plan' }]);
});

test('Act shows under a finished Plan answer only, and sends the plan; Edit plan fills the box in Agent mode', () => {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 1, state: reduceAll(initialChatState(8192), planTurn()) });
  m.timing.settle();
  const bar = m.q('.plan-actions') as HTMLElement;
  assert.equal(bar.hidden, true, 'no Act under an Agent answer');
  m.deliver({ type: 'events', base: 1, seq: 2, events: planTurn('plan') });
  m.timing.settle();
  assert.equal(bar.hidden, false);
  (m.qa('.plan-actions button').find((b) => b.textContent === 'Act') as HTMLButtonElement).click();
  assert.deepEqual(m.api.ofType('act'), [{ type: 'act', plan: PLAN }]);
  assert.deepEqual(checked(m), ['Agent']);
  (m.qa('.plan-actions button').find((b) => b.textContent === 'Edit plan') as HTMLButtonElement).click();
  assert.match((m.q('textarea') as HTMLTextAreaElement).value, /^Carry out this plan now, step by step:\n\n1\. Change answer to 42/);
  m.deliver({ type: 'events', base: 2, seq: 3, events: [{ type: 'turn_start', text: 'next' }] });
  m.timing.settle();
  assert.equal(bar.hidden, true, 'a running turn hides it');
});
