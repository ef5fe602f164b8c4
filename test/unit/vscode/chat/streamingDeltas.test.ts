// Streaming into a long conversation: the host store's per-delta work does not grow with the conversation
// (the streaming message is replaced in place, no copy of every item), and the result is exactly the pure
// reducer's, so the webview's copy (which runs reduceChat) and a snapshot agree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatMessage } from '../../../../src/core/messages';
import type { ChatEvent } from '../../../../src/shared/protocol';
import { reduceAll } from '../../../../src/shared/chatState';
import { ChatStateStore } from '../../../../src/editor/chat/chatStateStore';

function longHistory(n: number): ChatMessage[] {
  return Array.from({ length: n }, (_, i): ChatMessage => (i % 2 === 0 ? { role: 'user', content: `question ${i}` } : { role: 'assistant', content: `answer ${i}` }));
}

test('text and thinking deltas into a 10,000-item conversation reuse the items array and match the pure reducer', () => {
  const store = new ChatStateStore();
  store.load(longHistory(10_000));
  const events: ChatEvent[] = [
    { type: 'turn_start', text: 'one more' },
    { type: 'round_start' },
    ...Array.from({ length: 500 }, (_, k): ChatEvent => (k % 10 === 0 ? { type: 'thinking', text: `t${k} ` } : { type: 'text', text: `w${k} ` })),
  ];
  const before = store.state;
  const pure = reduceAll(structuredClone(before), events);
  store.dispatch(events[0]!);
  store.dispatch(events[1]!);
  store.dispatch(events[2]!); // opens the streaming message (a new item: one copy)
  const items = store.state.items;
  const seqBefore = store.seq;
  for (const e of events.slice(3)) store.dispatch(e);
  assert.equal(store.state.items, items, 'no copy of the 10,000 items per delta');
  assert.equal(store.seq, seqBefore + events.length - 3, 'every delta is still its own numbered change');
  assert.deepEqual(store.state, pure);

  // Anything else goes through the pure reducer: ending the turn closes the message in a new array.
  store.dispatch({ type: 'turn_end', reason: 'completed', result: '' });
  assert.notEqual(store.state.items, items);
  const last = store.state.items.at(-1);
  assert.equal(last?.kind === 'assistant' && last.streaming, false);
  assert.deepEqual(store.state, reduceAll(pure, [{ type: 'turn_end', reason: 'completed', result: '' }]));
});
