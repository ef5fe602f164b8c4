import { test } from 'node:test';
import assert from 'node:assert/strict';
import { waitUntilIdle } from '../../../src/editor/knowledge/idle';
import { ChatStateStore } from '../../../src/editor/chat/chatStateStore';

/** A busy flag with change listeners, as the controller has. */
function turnState(busy: boolean) {
  const listeners = new Set<() => void>();
  return {
    busy: () => busy,
    onChange: (l: () => void) => (listeners.add(l), () => listeners.delete(l)),
    set(value: boolean) {
      busy = value;
      for (const l of [...listeners]) l();
    },
    listeners,
  };
}

test('resolves at once when no turn runs', async () => {
  const state = turnState(false);
  await waitUntilIdle(state.busy, state.onChange, new AbortController().signal);
  assert.equal(state.listeners.size, 0);
});

test('waits for the running turn to end, ignoring changes that keep it busy', async () => {
  const state = turnState(true);
  let done = false;
  const waiting = waitUntilIdle(state.busy, state.onChange, new AbortController().signal).then(() => (done = true));
  state.set(true);
  await new Promise((r) => setImmediate(r));
  assert.equal(done, false);
  state.set(false);
  await waiting;
  assert.equal(done, true);
  assert.equal(state.listeners.size, 0, 'the listener is removed');
});

test('cancelling stops the wait with the abort reason', async () => {
  const state = turnState(true);
  const abort = new AbortController();
  const waiting = waitUntilIdle(state.busy, state.onChange, abort.signal);
  abort.abort(new Error('stop'));
  await assert.rejects(waiting, /stop/);
  assert.equal(state.listeners.size, 0);
  await assert.rejects(waitUntilIdle(state.busy, state.onChange, abort.signal), /stop/);
});

test('over the chat store, as the editor wires it: waits from turn_start to turn_end, through the streaming changes', async () => {
  const store = new ChatStateStore();
  store.dispatch({ type: 'turn_start', text: 'hello' });
  let done = false;
  const waiting = waitUntilIdle(() => store.state.busy, (l) => store.subscribe(() => l()), new AbortController().signal).then(() => (done = true));
  store.notice('still working');
  await new Promise((r) => setImmediate(r));
  assert.equal(done, false, 'a change that keeps the turn running');
  store.dispatch({ type: 'turn_end', reason: 'completed' });
  await waiting;
  assert.equal(done, true);
});
