// The host end of the webview channel, alone and wired to the real panel code running in jsdom:
// batching, validation, snapshots on ready, and a reload in the middle of a streaming turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../../src/core/agent/events';
import type { HostToWebview } from '../../../../src/shared/protocol';
import { parseHostMessage } from '../../../../src/shared/protocol';
import { ChatStateStore } from '../../../../src/editor/chat/chatStateStore';
import { WebviewBridge, type ChatLog, type WebviewPort } from '../../../../src/editor/chat/webviewBridge';
import { mountApp, type MountedApp } from '../../webview/doubles';
import { ManualTimers } from '../../../helpers/manualTimers';

class RecordingWebview implements WebviewPort {
  readonly posted: HostToWebview[] = [];
  delivered = true;
  onPost: ((message: HostToWebview) => void) | undefined;

  postMessage(message: HostToWebview): Promise<boolean> {
    if (!this.delivered) return Promise.resolve(false);
    // What postMessage does to the payload: a structured clone.
    const copy = structuredClone(message);
    this.posted.push(copy);
    this.onPost?.(copy);
    return Promise.resolve(true);
  }
}


class RecordingLog implements ChatLog {
  readonly lines: string[] = [];
  info(m: string): void {
    this.lines.push(`info ${m}`);
  }
  warn(m: string): void {
    this.lines.push(`warn ${m}`);
  }
  error(m: string): void {
    this.lines.push(`error ${m}`);
  }
}

function setup(options: { maxPending?: number } = {}) {
  const store = new ChatStateStore({ contextSize: 4096 });
  const log = new RecordingLog();
  const timers = new ManualTimers();
  const bridge = new WebviewBridge(store, log, { timers, ...options });
  const webview = new RecordingWebview();
  bridge.attach(webview);
  return { store, log, timers, bridge, webview };
}

const turnStart: AgentEvent = { type: 'turn_start', turnId: 't', message: 'hello' };

test('nothing is posted before the webview is ready; ready gets the snapshot', async () => {
  const { store, bridge, webview, timers } = setup();
  store.applyAgentEvent(turnStart);
  timers.flush();
  assert.equal(webview.posted.length, 0);
  assert.deepEqual(bridge.receive({ type: 'ready' }), { type: 'ready' });
  assert.equal(webview.posted.length, 1);
  const snap = webview.posted[0]!;
  assert.equal(snap.type, 'snapshot');
  assert.equal(snap.type === 'snapshot' && snap.seq, store.seq);
  assert.deepEqual(snap.type === 'snapshot' && snap.state, store.state);
  assert.equal(parseHostMessage(snap).ok, true);
  assert.equal(bridge.isLive, true);
});

test('changes are batched per flush, deltas merged, with base/seq continuing from the snapshot', () => {
  const { store, bridge, webview, timers } = setup();
  bridge.receive({ type: 'ready' });
  const base = store.seq;
  store.applyAgentEvent(turnStart);
  for (const t of ['Hel', 'lo', ', ', 'world']) store.applyAgentEvent({ type: 'text', text: t });
  store.applyAgentEvent({ type: 'usage', promptTokens: 10, completionTokens: 2 });
  assert.equal(webview.posted.length, 1, 'nothing until the flush');
  assert.equal(timers.pending, 1, 'one timer for the whole burst');
  timers.flush();
  assert.equal(webview.posted.length, 2);
  const batch = webview.posted[1]!;
  assert.deepEqual(batch, {
    type: 'events',
    base,
    seq: store.seq,
    events: [
      { type: 'turn_start', text: 'hello' },
      { type: 'text', text: 'Hello, world' },
      { type: 'usage', used: 12 },
    ],
  });
  store.applyAgentEvent({ type: 'text', text: '!' });
  timers.flush();
  const next = webview.posted[2]!;
  assert.equal(next.type === 'events' && next.base, batch.type === 'events' ? batch.seq : -1);
});

test('invalid webview messages are logged and dropped', () => {
  const { bridge, log, webview } = setup();
  assert.equal(bridge.receive({ type: 'send', text: '' }), undefined);
  assert.equal(bridge.receive({ type: 'openLink', url: 'javascript:alert(1)' }), undefined);
  assert.equal(bridge.receive('ready'), undefined);
  assert.equal(log.lines.length, 3);
  assert.match(log.lines[1]!, /^warn chat view: dropped an invalid message from the webview \(type=openLink\): url: only http and https links$/);
  assert.equal(webview.posted.length, 0);
  assert.deepEqual(bridge.receive({ type: 'send', text: 'ok' }), { type: 'send', text: 'ok' });
});

test('a webview far behind gets one snapshot instead of an unbounded queue', () => {
  const { store, bridge, webview, timers } = setup({ maxPending: 10 });
  bridge.receive({ type: 'ready' });
  store.applyAgentEvent(turnStart);
  for (let i = 0; i < 50; i++) store.applyAgentEvent({ type: 'tool_call', id: `c${i}`, name: 'read_file', arguments: {} });
  timers.flush();
  assert.equal(webview.posted.length, 2);
  const last = webview.posted[1]!;
  assert.equal(last.type, 'snapshot');
  assert.equal(last.type === 'snapshot' && last.state.items.length, 51);
});

test('load() and undelivered posts lead to a snapshot; detach stops everything', async () => {
  const { store, bridge, webview, timers } = setup();
  bridge.receive({ type: 'ready' });
  store.load([{ role: 'user', content: 'old question' }]);
  timers.flush();
  assert.equal(webview.posted.at(-1)?.type, 'snapshot');

  webview.delivered = false; // hidden view
  assert.equal(await bridge.post({ type: 'focus' }), false);
  assert.equal(bridge.isLive, false);
  store.applyAgentEvent(turnStart);
  timers.flush();
  webview.delivered = true;
  const count = webview.posted.length;
  store.applyAgentEvent({ type: 'text', text: 'x' });
  timers.flush();
  assert.equal(webview.posted.length, count, 'not live: waits for ready');
  bridge.receive({ type: 'ready' });
  const snap = webview.posted.at(-1)!;
  assert.equal(snap.type === 'snapshot' && snap.state.items.length, 3);

  bridge.detach();
  store.applyAgentEvent({ type: 'text', text: 'y' });
  assert.equal(timers.pending, 0);
  assert.equal(await bridge.post({ type: 'focus' }), false);
});

// ---- the host bridge and the real panel, connected ----

function connect(bridge: WebviewBridge, webview: RecordingWebview, app: MountedApp): void {
  webview.onPost = (message) => app.deliver(message);
  // Whatever the panel posts goes through the bridge's validation, like webview.onDidReceiveMessage.
  const post = app.api.postMessage.bind(app.api);
  app.api.postMessage = (message: unknown) => {
    post(message);
    bridge.receive(structuredClone(message));
  };
}

/** What the user sees in the panel, compactly. */
function screen(app: MountedApp): string[] {
  app.timing.settle();
  return app.qa('.item-group > *').map((el) => {
    if (el.classList.contains('tool-card')) {
      return `card ${el.querySelector('.tool-name')?.textContent} ${el.getAttribute('data-status')} ${el.getAttribute('data-approval') ?? ''}`.trim();
    }
    const thinking = el.querySelector('details.thinking .thinking-body')?.textContent;
    return `${el.className}: ${thinking ? `[${thinking}] ` : ''}${el.querySelector('.message-body')?.textContent?.replace(/\s+/g, ' ').trim()}`;
  });
}

const SCRIPT: AgentEvent[] = [
  { type: 'turn_start', turnId: 't', message: 'Edit a.ts' },
  { type: 'round_start', round: 0 },
  { type: 'thinking', text: 'Plan: ' },
  { type: 'thinking', text: 'edit.' },
  { type: 'text', text: 'Editing ' },
  { type: 'text', text: '`a.ts`' },
  { type: 'tool_call', id: 'c1', name: 'edit_file', arguments: { path: 'a.ts' } },
  { type: 'approval_request', id: 'c1', name: 'edit_file', risk: 'write', title: 'Edit a.ts', detail: '-a +b' },
  // --- the view reloads here, while the approval dialog is open ---
  { type: 'approval_result', id: 'c1', name: 'edit_file', approved: true, scope: 'once' },
  { type: 'tool_result', id: 'c1', name: 'edit_file', ok: true, content: 'Edited a.ts', display: 'Edited a.ts: +1 -1', durationMs: 30 },
  { type: 'round_start', round: 1 },
  { type: 'text', text: 'All ' },
  { type: 'text', text: 'done.' },
  { type: 'usage', promptTokens: 1000, completionTokens: 24 },
  { type: 'turn_end', reason: 'completed', result: 'All done.' },
];

test('a panel reloaded mid-turn shows the same conversation as one that saw every event', () => {
  // Panel A stays open for the whole turn.
  const a = setup();
  const appA = mountApp({ autoStart: false });
  connect(a.bridge, a.webview, appA);
  appA.app.start();
  for (const e of SCRIPT) {
    a.store.applyAgentEvent(e);
    a.timers.flush();
  }

  // Panel B is reloaded (a fresh webview) while the approval dialog is open.
  const b = setup();
  const first = mountApp({ autoStart: false });
  connect(b.bridge, b.webview, first);
  first.app.start();
  const cut = SCRIPT.findIndex((e) => e.type === 'approval_result');
  for (const e of SCRIPT.slice(0, cut)) {
    b.store.applyAgentEvent(e);
    b.timers.flush();
  }
  assert.deepEqual(screen(first).at(-1), 'card edit_file running pending');
  b.bridge.detach();
  b.bridge.attach(b.webview);
  const reloaded = mountApp({ autoStart: false });
  connect(b.bridge, b.webview, reloaded);
  reloaded.app.start();
  assert.deepEqual(screen(reloaded), screen(first), 'the snapshot shows the turn as it was, approval pending');
  for (const e of SCRIPT.slice(cut)) {
    b.store.applyAgentEvent(e);
    b.timers.flush();
  }

  const expected = [
    'message message-user: Edit a.ts',
    'message message-assistant: [Plan: edit.] Editing a.ts',
    'card edit_file done approved',
    'message message-notice: Edited a.ts: +1 -1',
    'message message-assistant: All done.',
  ];
  assert.deepEqual(screen(appA), expected);
  assert.deepEqual(screen(reloaded), expected);
  assert.equal(reloaded.q('.context-text').textContent, '1,024 / 4,096 tokens');
  assert.equal(reloaded.logs.length, 0, 'no message was dropped on the way');
});
