// A snapshot's items are checked for shape on arrival and validated in full only when they are rendered
// (webview-ui/snapshotMessage.ts, views/itemView.ts): a bad item never reaches the DOM as content, the rest of
// the conversation still shows, and a snapshot whose envelope or item shapes are wrong is dropped as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialChatState, reduceAll } from '../../../src/shared/chatState';
import type { ChatEvent, ChatItem, ChatViewState } from '../../../src/shared/protocol';
import { parseHostMessage } from '../../../src/shared/protocol';
import { hasItemShape, readHostMessageLazily } from '../../../webview-ui/snapshotMessage';
import { mountApp } from './doubles';

function conversation(turns: number): ChatViewState {
  const events: ChatEvent[] = [];
  for (let i = 0; i < turns; i++) {
    events.push({ type: 'turn_start', text: `question ${i}` });
    events.push({ type: 'tool_call', callId: `c${i}`, name: 'read_file', args: `{"path":"f${i}.md"}` });
    events.push({ type: 'tool_result', callId: `c${i}`, ok: true, denied: false, content: `note ${i}`, durationMs: 1 });
    events.push({ type: 'text', text: `Answer **${i}**.` });
    events.push({ type: 'turn_end', reason: 'completed', result: '' });
  }
  return reduceAll(initialChatState(8192), events);
}

/** Items with the right kind and id but contents the schema refuses. */
const BAD_CONTENT: unknown[] = [
  { kind: 'user', id: 'bad1', text: 42 },
  { kind: 'tool', id: 'bad2', callId: 'c', name: 'read_file', args: '{}', status: 'exploded' },
  { kind: 'assistant', id: 'bad3', text: '<img src=x onerror=alert(1)>', thinking: '', streaming: 'yes' },
  { kind: 'error', id: 'bad4', text: 'x', actions: ['formatDisk'] },
];

test('an item with bad contents is shown as a placeholder and logged; the others render', () => {
  const state = conversation(3);
  const items = [...state.items] as unknown[];
  items.splice(1, 0, ...BAD_CONTENT);
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 1, state: { ...state, items } });
  m.timing.settle();
  const shown = m.qa('.item-group > *');
  assert.equal(shown.length, items.length, 'every item has an element');
  const placeholders = shown.filter((el) => /could not be shown/.test(el.textContent ?? ''));
  assert.equal(placeholders.length, BAD_CONTENT.length);
  for (const el of placeholders) assert.ok(el.classList.contains('message-error'));
  assert.equal(m.dom.window.document.querySelector('img'), null, 'nothing of a bad item reaches the DOM');
  assert.equal(m.logs.filter((l) => /an item of the conversation is invalid/.test(l)).length, BAD_CONTENT.length);
  assert.equal(shown[0]!.querySelector('.message-body')?.textContent, 'question 0');
  assert.equal(shown.at(-1)!.querySelector('.message-body strong')?.textContent, '2');
});

test('an item is validated when it is built: a bad one among the unbuilt ones shows up only when scrolled to', () => {
  const state = conversation(100); // 301 items; the first 60 from the end are built at once
  const items = [...state.items] as unknown[];
  items[5] = BAD_CONTENT[1];
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 1, state: { ...state, items } });
  m.timing.settle();
  assert.equal(m.logs.length, 0, 'not validated before it is built');
  const scroller = m.q('.conversation');
  while (m.q('.items').dataset['unbuilt'] !== '0') scroller.dispatchEvent(new m.dom.window.Event('scroll'));
  assert.equal(m.logs.length, 1);
  assert.match(m.qa('.item-group > *')[5]!.textContent ?? '', /could not be shown/);
});

test('a snapshot whose items have no known kind or id, or whose envelope is wrong, is dropped whole', () => {
  const state = conversation(2);
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 1, state });
  m.timing.settle();
  const before = m.q('.items').innerHTML;
  const broken: unknown[] = [
    { ...state, items: [...state.items, { kind: 'robot', id: 'x' }] },
    { ...state, items: [...state.items, { kind: 'user', id: '', text: 'x' }] },
    { ...state, items: [...state.items, null] },
    { ...state, items: [...state.items, ['user']] },
    { ...state, busy: 'yes' },
    { ...state, context: { used: -1, available: null } },
    { ...state, items: 'all of them' },
  ];
  for (const s of broken) m.deliver({ type: 'snapshot', seq: 2, state: s });
  m.timing.settle();
  assert.equal(m.q('.items').innerHTML, before);
  assert.equal(m.logs.length, broken.length);
  for (const line of m.logs) assert.match(line, /dropped an invalid message from the host \(type=snapshot\)/);
});

test('the shape check accepts exactly objects with a known kind and a non-empty id', () => {
  const good: ChatItem = { kind: 'notice', id: 'i1', text: 'x' };
  assert.equal(hasItemShape(good), true);
  for (const bad of [null, undefined, 'user', 7, [], {}, { kind: 'user' }, { kind: 'user', id: 3 }, { kind: 'toString', id: 'i1' }, { kind: 'user', id: 'x'.repeat(201) }]) {
    assert.equal(hasItemShape(bad), false, JSON.stringify(bad));
  }
});

test('other messages are still validated in full: a bad event batch is dropped', () => {
  const logs: string[] = [];
  assert.equal(readHostMessageLazily({ type: 'events', base: 0, seq: 1, events: [{ type: 'text', text: 7 }] }, (l) => logs.push(l)), undefined);
  assert.equal(logs.length, 1);
  assert.deepEqual(readHostMessageLazily({ type: 'focus' }, (l) => logs.push(l)), { type: 'focus' });
});

test('validating a 10,000-item snapshot on arrival costs a small fraction of validating every item', () => {
  const state = conversation(3334); // 10,002 items
  const message = { type: 'snapshot', seq: 1, state };
  const time = (f: () => unknown) => {
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      f();
      best = Math.min(best, performance.now() - t);
    }
    return best;
  };
  const lazy = time(() => assert.ok(readHostMessageLazily(message)));
  // The full check, for comparison: what parseHostMessage does.
  const full = time(() => assert.equal(parseHostMessage(message).ok, true));
  console.log(`10,002-item snapshot: shape check ${lazy.toFixed(1)} ms, full zod validation ${full.toFixed(1)} ms`);
  assert.ok(lazy * 5 < full, `shape check ${lazy.toFixed(1)} ms vs full ${full.toFixed(1)} ms`);
});
