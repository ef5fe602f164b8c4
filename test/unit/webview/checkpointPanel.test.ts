// The chat panel's part of checkpoints (JSDOM, the real ChatApp): a saved user message gets "Restore to here", which
// posts restoreTo; the review from a snapshot (a reloaded panel) lists the files with Keep / Undo / diff buttons that
// post reviewAction; kept and undone files lose their buttons; an invalid review in an event is dropped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialChatState, reduceAll } from '../../../src/shared/chatState';
import type { ChatEvent, TurnReview } from '../../../src/shared/protocol';
import { mountApp } from './doubles';

const REVIEW: TurnReview = {
  messageId: 7,
  files: [
    { path: '/ws/src/a.ts', label: 'src/a.ts', change: 'modified', state: 'pending' },
    { path: '/ws/new.txt', label: 'new.txt', change: 'created', state: 'pending' },
  ],
};

function stateOf(events: ChatEvent[]) {
  return reduceAll(initialChatState(8192), events);
}

test('Restore to here appears once the message is saved and posts restoreTo with its id', () => {
  const m = mountApp();
  const events: ChatEvent[] = [{ type: 'turn_start', text: 'change a' }, { type: 'turn_end', reason: 'completed' }];
  m.deliver({ type: 'snapshot', seq: 2, state: stateOf(events) });
  assert.equal(m.qa('.message-user .restore-here').length, 0, 'not saved yet: nothing to restore to');
  m.deliver({ type: 'events', base: 2, seq: 3, events: [{ type: 'message_stored', messageId: 7 }] });
  const button = m.q<HTMLButtonElement>('.message-user .restore-here');
  assert.equal(button.textContent, 'Restore to here');
  button.click();
  assert.deepEqual(m.api.posted.at(-1), { type: 'restoreTo', messageId: 7 });
});

test('a reloaded panel shows the review from the snapshot; its buttons post reviewAction', () => {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 3, state: stateOf([{ type: 'turn_start', text: 'change a' }, { type: 'turn_end', reason: 'completed' }, { type: 'review', review: REVIEW }]) });
  const panel = m.q('section.turn-review');
  assert.equal(panel.hidden, false);
  assert.match(panel.textContent ?? '', /2 files changed/);
  m.q<HTMLButtonElement>('button[aria-label="Undo the change to new.txt"]').click();
  assert.deepEqual(m.api.posted.at(-1), { type: 'reviewAction', action: 'undo', path: '/ws/new.txt' });
  m.q<HTMLButtonElement>('button[aria-label="Open the diff of src/a.ts"]').click();
  assert.deepEqual(m.api.posted.at(-1), { type: 'reviewAction', action: 'open', path: '/ws/src/a.ts' });
  m.q<HTMLButtonElement>('button[aria-label="Keep all changed files"]').click();
  assert.deepEqual(m.api.posted.at(-1), { type: 'reviewAction', action: 'keep' });

  const done: TurnReview = { ...REVIEW, files: REVIEW.files.map((f, i) => ({ ...f, state: i === 0 ? 'kept' : 'undone' })) };
  m.deliver({ type: 'events', base: 3, seq: 4, events: [{ type: 'review', review: done }] });
  assert.equal(m.qa('section.turn-review button[data-review-action="undo"]').length, 0, 'nothing left to undo');
  assert.deepEqual(m.qa('.review-state').map((e) => e.textContent), ['kept', 'undone']);
  m.deliver({ type: 'events', base: 4, seq: 5, events: [{ type: 'review', review: null }] });
  assert.equal(m.q('section.turn-review').hidden, true);
});

test('a review with a bad file entry is dropped as a whole, with a log line', () => {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 1, state: stateOf([{ type: 'turn_start', text: 'x' }]) });
  const bad = { ...REVIEW, files: [{ path: '/ws/a', label: 'a', change: 'renamed', state: 'pending' }] };
  m.deliver({ type: 'events', base: 1, seq: 2, events: [{ type: 'review', review: bad }] });
  assert.equal(m.q('section.turn-review').hidden, true);
  assert.ok(m.logs.some((l) => /dropped an invalid message/.test(l)), m.logs.join('\n'));
});
