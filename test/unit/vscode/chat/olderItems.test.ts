// A long conversation's snapshot carries its newest items; the panel asks for older ones as the user scrolls
// up. The host bridge and the real panel code (jsdom), connected: everything arrives, in order, once; marks
// and new chats while the panel holds only the newest items leave it exactly where the host is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatMessage } from '../../../../src/core/messages';
import type { ChatViewState, HostToWebview } from '../../../../src/shared/protocol';
import { parseHostMessage } from '../../../../src/shared/protocol';
import { reduceAll } from '../../../../src/shared/chatState';
import { ChatStateStore } from '../../../../src/editor/chat/chatStateStore';
import { WebviewBridge } from '../../../../src/editor/chat/webviewBridge';
import { mountApp, type MountedApp } from '../../webview/doubles';
import { ManualTimers } from '../../../helpers/manualTimers';


/** Turns of: the same question (so compression marks must count occurrences), a tool card, an answer. */
function history(turns: number): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = 0; i < turns; i++) {
    out.push({ role: 'user', content: 'again' });
    out.push({ role: 'assistant', content: `Answer ${i}`, toolCalls: [{ id: `c${i}`, name: 'read_file', arguments: { path: `n${i}.md` } }] });
    out.push({ role: 'tool', content: `note ${i}`, toolCallId: `c${i}`, toolName: 'read_file' });
  }
  return out;
}

function hostOnly(turns: number) {
  const store = new ChatStateStore({ contextSize: 1_000_000 });
  store.load(history(turns));
  const timers = new ManualTimers();
  const bridge = new WebviewBridge(store, { info() {}, warn() {}, error() {} }, { timers, snapshotItems: 200 });
  const posted: HostToWebview[] = [];
  bridge.attach({
    postMessage: (message) => {
      assert.equal(parseHostMessage(structuredClone(message)).ok, true, `${message.type} passes the protocol`);
      posted.push(structuredClone(message));
      return Promise.resolve(true);
    },
  });
  return { store, bridge, timers, posted };
}

/** The panel's copy, as the webview app builds it from the posts. */
function panel(posted: HostToWebview[]): { state: ChatViewState; older: number } {
  let state: ChatViewState | undefined;
  let older = 0;
  for (const m of posted) {
    if (m.type === 'snapshot') [state, older] = [m.state, m.older ?? 0];
    else if (m.type === 'events') {
      state = reduceAll(state!, m.events);
      if (m.events.some((e) => e.type === 'reset')) older = 0;
    } else if (m.type === 'olderItems' && state?.items[0]?.id === m.before) {
      state = { ...state, items: [...m.items, ...state.items] };
      older = m.older;
    }
  }
  return { state: state!, older };
}

test('the snapshot of a long chat carries its newest items; older ones come on request, each once, until none are left', () => {
  const { store, bridge, posted } = hostOnly(300); // 900 items: a question, an answer and a tool card per turn
  assert.equal(store.state.items.length, 900);
  bridge.receive({ type: 'ready' });
  const snap = posted[0]!;
  assert.equal(snap.type, 'snapshot');
  assert.equal(snap.type === 'snapshot' && snap.state.items.length, 200);
  assert.equal(snap.type === 'snapshot' && snap.older, 700);
  assert.deepEqual(snap.type === 'snapshot' && snap.state.items, store.state.items.slice(700));

  const ask = (before: string, count = 500) => bridge.receive({ type: 'olderItems', before, count });
  ask('i-not-there');
  ask(store.state.items[800]!.id);
  assert.equal(posted.length, 1, 'only the oldest item the panel holds can be asked about');
  ask(store.state.items[700]!.id);
  const first = posted[1]!;
  assert.equal(first.type === 'olderItems' && first.items.length, 500);
  assert.equal(first.type === 'olderItems' && first.older, 200);
  assert.deepEqual(first.type === 'olderItems' && first.items, store.state.items.slice(200, 700));
  ask(store.state.items[700]!.id);
  assert.equal(posted.length, 2, 'asking again for what was sent gets nothing');
  ask(store.state.items[200]!.id);
  const second = posted.at(-1)!;
  assert.equal(second.type === 'olderItems' && second.older, 0);
  ask(store.state.items[0]!.id);
  assert.equal(posted.length, 3, 'nothing before the first item');
  const { state, older } = panel(posted);
  assert.equal(older, 0);
  assert.deepEqual(state, store.state);
});

test('compression marks while the panel holds only the newest items: counted among those, left out for the rest', () => {
  const { store, bridge, timers, posted } = hostOnly(400);
  bridge.receive({ type: 'ready' });
  // The 400 user items all read "again": which one a mark means depends on counting from the first.
  const userIndexes = store.state.items.flatMap((it, i) => (it.kind === 'user' ? [i] : []));
  const held = userIndexes.filter((i) => i >= store.state.items.length - 200);
  const outside = userIndexes.filter((i) => i < store.state.items.length - 200);
  const mark = (occurrence: number, text: string) => store.dispatch({ type: 'compressed', target: 'user', key: 'again', occurrence, text });
  mark(userIndexes.indexOf(outside[10]!), '[compressed early]');
  mark(userIndexes.indexOf(held[3]!), '[compressed late]');
  timers.flush();
  const batch = posted.at(-1)!;
  assert.equal(batch.type, 'events');
  assert.deepEqual(batch.type === 'events' && batch.events, [{ type: 'compressed', target: 'user', key: 'again', occurrence: 3, text: '[compressed late]' }]);
  // Fetch everything: the early mark arrives with its item.
  while (panel(posted).older > 0) bridge.receive({ type: 'olderItems', before: panel(posted).state.items[0]!.id, count: 500 });
  assert.deepEqual(panel(posted).state, store.state);
  const marked = store.state.items.filter((it) => it.kind === 'user' && it.compressed !== undefined);
  assert.equal(marked.length, 2);
});

test('a new chat while the panel holds only the newest items: both are empty, and the next items match', () => {
  const { store, bridge, timers, posted } = hostOnly(400);
  bridge.receive({ type: 'ready' });
  store.reset();
  store.applyAgentEvent({ type: 'turn_start', turnId: 't', message: 'fresh' });
  timers.flush();
  const { state, older } = panel(posted);
  assert.equal(older, 0);
  assert.deepEqual(state, store.state);
  assert.equal(state.items.length, 1);
  bridge.receive({ type: 'olderItems', before: state.items[0]!.id, count: 500 });
  assert.equal(posted.filter((m) => m.type === 'olderItems').length, 0, 'nothing older than the new chat');
});

// ---- connected to the real panel ----

function connected(turns: number): { store: ChatStateStore; timers: ManualTimers; app: MountedApp } {
  const store = new ChatStateStore({ contextSize: 1_000_000 });
  store.load(history(turns));
  const timers = new ManualTimers();
  const bridge = new WebviewBridge(store, { info() {}, warn() {}, error() {} }, { timers });
  const app = mountApp({ autoStart: false });
  bridge.attach({
    postMessage: (message) => {
      app.deliver(structuredClone(message));
      return Promise.resolve(true);
    },
  });
  const post = app.api.postMessage.bind(app.api);
  app.api.postMessage = (message: unknown) => {
    post(message);
    bridge.receive(structuredClone(message));
  };
  app.app.start();
  app.timing.settle();
  return { store, timers, app };
}

test('scrolling up through a 3,000-item chat fetches and builds every item, in order, with a turn streaming meanwhile', () => {
  const { store, timers, app } = connected(1000);
  const total = store.state.items.length;
  assert.equal(total, 3000);
  const built = () => app.qa('.item-group > *');
  assert.ok(built().length <= 60, 'only the newest are built at first');
  assert.equal(app.q('.app').dataset['snapshotItems'], String(total), 'the snapshot counts the whole conversation');
  assert.equal(app.q('.items').dataset['unbuilt'], String(total - built().length));
  const scroller = app.q('.conversation');
  let scrolls = 0;
  while (app.q('.items').dataset['unbuilt'] !== '0') {
    scroller.dispatchEvent(new app.dom.window.Event('scroll'));
    if (scrolls++ === 20) {
      // A turn streams into the end while the user reads old messages.
      store.applyAgentEvent({ type: 'turn_start', turnId: 't', message: 'one more' });
      store.applyAgentEvent({ type: 'round_start', round: 0 });
      for (const t of ['Stre', 'amed ', 'answer.']) store.applyAgentEvent({ type: 'text', text: t });
      timers.flush();
      app.timing.settle();
    }
    assert.ok(scrolls < 500, 'every scroll makes progress');
  }
  const asked = app.api.ofType('olderItems');
  assert.ok(asked.length >= 5, `${asked.length} requests for older items`);
  const items = built();
  assert.equal(items.length, total + 2);
  assert.deepEqual(
    items.map((el) => el.getAttribute('data-id')),
    store.state.items.map((it) => it.id),
    'every item once, in order',
  );
  assert.equal(items[0]!.querySelector('.message-body')?.textContent, 'again');
  assert.equal(items[1]!.querySelector('.message-body')?.textContent?.trim(), 'Answer 0');
  assert.equal(items.at(-1)!.querySelector('.message-body')?.textContent?.trim(), 'Streamed answer.');
  assert.deepEqual(app.logs, []);
});
