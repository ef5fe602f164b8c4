// The bridge merges streamed deltas as they arrive: a fast stream into a long conversation reaches the panel as
// a few batches, never as a whole-state snapshot, with every character of every delta in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../../src/core/agent/events';
import type { ChatMessage } from '../../../../src/core/messages';
import type { ChatEvent, ChatViewState, HostToWebview } from '../../../../src/shared/protocol';
import { parseHostMessage } from '../../../../src/shared/protocol';
import { reduceAll } from '../../../../src/shared/chatState';
import { ChatStateStore } from '../../../../src/editor/chat/chatStateStore';
import { WebviewBridge } from '../../../../src/editor/chat/webviewBridge';
import { ManualTimers } from '../../../helpers/manualTimers';


function setup(history: ChatMessage[] = []) {
  const store = new ChatStateStore({ contextSize: 1_000_000 });
  store.load(history);
  const timers = new ManualTimers();
  const bridge = new WebviewBridge(store, { info() {}, warn() {}, error() {} }, { timers });
  const posted: HostToWebview[] = [];
  bridge.attach({
    postMessage: (message) => {
      posted.push(structuredClone(message));
      return Promise.resolve(true);
    },
  });
  bridge.receive({ type: 'ready' });
  return { store, timers, posted };
}

/**
 * What the panel does with the posts: start from the snapshot, apply each batch that continues its seq, put
 * older items in front. Returned with the host's items it does not hold yet filled in from `host`, so it
 * compares with the host's whole state.
 */
function panelState(posted: HostToWebview[], host?: ChatViewState): ChatViewState {
  let state: ChatViewState | undefined;
  let seq = -1;
  let older = 0;
  for (const message of posted) {
    assert.equal(parseHostMessage(message).ok, true, `every post passes the protocol (${message.type})`);
    if (message.type === 'snapshot') {
      state = message.state;
      seq = message.seq;
      older = message.older ?? 0;
    } else if (message.type === 'events') {
      assert.equal(message.base, seq, 'batches continue exactly where the last one ended');
      state = reduceAll(state!, message.events);
      if (message.events.some((e) => e.type === 'reset')) older = 0;
      seq = message.seq;
    } else if (message.type === 'olderItems') {
      state = { ...state!, items: [...message.items, ...state!.items] };
      older = message.older;
    }
  }
  if (older > 0) {
    assert.ok(host, 'the panel holds only the newest items: compare with the host');
    assert.ok(state!.items.length < host.items.length);
    state = { ...state!, items: [...host.items.slice(0, older), ...state!.items] };
  }
  return state!;
}

const history = (n: number): ChatMessage[] =>
  Array.from({ length: n }, (_, i): ChatMessage => (i % 2 === 0 ? { role: 'user', content: `q${i}` } : { role: 'assistant', content: `a${i}` }));

test('5,000 deltas between two flushes into a 10,000-message chat: one batch, no snapshot, every character in order', () => {
  const { store, timers, posted } = setup(history(10_000));
  const before = posted.length;
  const events: AgentEvent[] = [
    { type: 'turn_start', turnId: 't', message: 'go' },
    { type: 'round_start', round: 0 },
    ...Array.from({ length: 1000 }, (_, k): AgentEvent => ({ type: 'thinking', text: `t${k}.` })),
    ...Array.from({ length: 2000 }, (_, k): AgentEvent => ({ type: 'text', text: `w${k} ` })),
    { type: 'tool_call', id: 'c1', name: 'read_file', arguments: { path: 'a.md' } },
    { type: 'tool_result', id: 'c1', name: 'read_file', ok: true, content: 'A', durationMs: 1 },
    { type: 'round_start', round: 1 },
    ...Array.from({ length: 2000 }, (_, k): AgentEvent => ({ type: 'text', text: `v${k} ` })),
  ];
  // The default backlog limit is 1,000 events: unmerged, these 5,000 deltas would have forced a snapshot.
  for (const e of events) store.applyAgentEvent(e);
  timers.flush();

  const batches = posted.slice(before);
  assert.deepEqual(batches.map((m) => m.type), ['events'], 'one post, and not a snapshot');
  const sent = batches[0]!.type === 'events' ? batches[0]!.events : [];
  assert.deepEqual(
    sent.map((e: ChatEvent) => e.type),
    ['turn_start', 'round_start', 'thinking', 'text', 'tool_call', 'tool_result', 'round_start', 'text'],
    'deltas merged only with their neighbours of the same kind: the order of everything is kept',
  );
  const texts = sent.filter((e): e is Extract<ChatEvent, { type: 'text' | 'thinking' }> => e.type === 'text' || e.type === 'thinking').map((e) => e.text);
  assert.deepEqual(texts, [
    Array.from({ length: 1000 }, (_, k) => `t${k}.`).join(''),
    Array.from({ length: 2000 }, (_, k) => `w${k} `).join(''),
    Array.from({ length: 2000 }, (_, k) => `v${k} `).join(''),
  ]);
  assert.deepEqual(panelState(posted, store.state), store.state, 'the panel ends exactly where the host is');
});

test('a stream spread over many flushes: every batch continues the last, and the panel matches the host', () => {
  const { store, timers, posted } = setup(history(50));
  store.applyAgentEvent({ type: 'turn_start', turnId: 't', message: 'go' });
  store.applyAgentEvent({ type: 'round_start', round: 0 });
  let expected = '';
  for (let k = 0; k < 3000; k++) {
    const text = `${k.toString(36)}${k % 97 === 0 ? '\n\n' : ' '}`;
    expected += text;
    store.applyAgentEvent({ type: 'text', text });
    if (k % 7 === 3) timers.flush(); // flushes land at uneven points of the stream
  }
  store.applyAgentEvent({ type: 'turn_end', reason: 'completed', result: expected });
  timers.flush();
  assert.equal(posted.filter((m) => m.type === 'snapshot').length, 1, 'only the snapshot that answered ready');
  const panel = panelState(posted);
  assert.deepEqual(panel, store.state);
  const answer = panel.items.at(-1);
  assert.equal(answer?.kind === 'assistant' && answer.text, expected);
});

test('a merged delta stays under the protocol limit for one text field: a huge burst is split, not dropped', () => {
  const { store, timers, posted } = setup();
  const before = posted.length;
  store.applyAgentEvent({ type: 'turn_start', turnId: 't', message: 'go' });
  const piece = 'x'.repeat(100_000);
  for (let k = 0; k < 25; k++) store.applyAgentEvent({ type: 'text', text: piece }); // 2.5 MB > MAX_TEXT
  timers.flush();
  const batch = posted.slice(before);
  assert.equal(batch.length, 1);
  assert.equal(batch[0]!.type, 'events');
  const texts = batch[0]!.type === 'events' ? batch[0]!.events.filter((e) => e.type === 'text') : [];
  assert.ok(texts.length >= 2, 'split into several text events');
  assert.equal(parseHostMessage(batch[0]).ok, true, 'the webview accepts the batch');
  assert.deepEqual(panelState(posted, store.state), store.state);
});

// ---- delivery-paced batches: when the editor takes longer than a flush interval to take a post ----

/** A webview port whose posts are delivered when the test says so, on a clock the test moves. */
function slowSetup() {
  const store = new ChatStateStore({ contextSize: 1_000_000 });
  store.load(history(1000));
  const timers = new ManualTimers();
  let clock = 0;
  const posted: HostToWebview[] = [];
  const undelivered: Array<() => void> = [];
  const bridge = new WebviewBridge(store, { info() {}, warn() {}, error() {} }, { timers, now: () => clock, maxInFlightMs: 1000 });
  bridge.attach({
    postMessage: (message) => {
      posted.push(structuredClone(message));
      return new Promise<boolean>((resolve) => undelivered.push(() => resolve(true)));
    },
  });
  const deliverAll = async (after: number) => {
    clock += after;
    for (const deliver of undelivered.splice(0)) deliver();
    await new Promise((r) => setImmediate(r)); // the bridge hears of it (promise callbacks)
  };
  return { store, bridge, timers, posted, deliverAll, tick: (ms: number) => (clock += ms) };
}

test('while the renderer is slow, a batch waits for the one before and takes every delta that came meanwhile, in order', async () => {
  const { store, bridge, timers, posted, deliverAll, tick } = slowSetup();
  bridge.receive({ type: 'ready' });
  await deliverAll(50); // the snapshot took 50 ms to be taken: slower than a flush interval
  store.applyAgentEvent({ type: 'turn_start', turnId: 't', message: 'go' });
  store.applyAgentEvent({ type: 'text', text: 'a' });
  tick(16);
  timers.flush();
  assert.equal(posted.length, 2, 'the first batch goes: nothing is in flight');
  let expected = 'a';
  for (let k = 0; k < 30; k++) {
    store.applyAgentEvent({ type: 'text', text: `${k},` });
    expected += `${k},`;
    tick(16);
    timers.flush();
  }
  assert.equal(posted.length, 2, 'no new batch while the last one is in flight');
  await deliverAll(200);
  timers.flush(); // the flush the delivery scheduled
  assert.equal(posted.length, 3);
  const batch = posted[2]!;
  assert.equal(batch.type, 'events');
  assert.deepEqual(batch.type === 'events' && batch.events, [{ type: 'text', text: expected.slice(1) }]);
  assert.deepEqual(panelState(posted, store.state), store.state);
});

test('a post that is never confirmed holds the stream back at most maxInFlightMs', async () => {
  const { store, bridge, timers, posted, deliverAll, tick } = slowSetup();
  bridge.receive({ type: 'ready' });
  await deliverAll(50);
  store.applyAgentEvent({ type: 'turn_start', turnId: 't', message: 'go' });
  tick(16);
  timers.flush();
  assert.equal(posted.length, 2);
  store.applyAgentEvent({ type: 'text', text: 'stuck?' });
  tick(16);
  timers.flush();
  assert.equal(posted.length, 2, 'waits for the delivery');
  tick(1000);
  timers.flush(); // the backstop
  assert.equal(posted.length, 3, 'goes anyway after maxInFlightMs');
  assert.deepEqual(panelState(posted, store.state), store.state);
});

test('when deliveries are quick again, batches go every flush interval without waiting', async () => {
  const { store, bridge, timers, posted, deliverAll, tick } = slowSetup();
  bridge.receive({ type: 'ready' });
  await deliverAll(1); // quick
  store.applyAgentEvent({ type: 'turn_start', turnId: 't', message: 'go' });
  tick(16);
  timers.flush();
  store.applyAgentEvent({ type: 'text', text: 'x' });
  tick(16);
  timers.flush();
  assert.equal(posted.length, 3, 'a second batch while the first is still in flight');
  await deliverAll(1);
  assert.deepEqual(panelState(posted, store.state), store.state);
});
