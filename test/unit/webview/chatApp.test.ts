// The chat panel in jsdom: snapshot rendering, streaming by frame, controls, and the messages it posts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { initialChatState, reduceAll } from '../../../src/shared/chatState';
import type { ChatEvent, ChatViewState } from '../../../src/shared/protocol';
import { mountApp, type MountedApp } from './doubles';

const TURN: ChatEvent[] = [
  { type: 'turn_start', text: 'Rename foo' },
  { type: 'thinking', text: 'Thinking about ' },
  { type: 'thinking', text: 'the rename.' },
  { type: 'text', text: 'I will edit **a.ts** (see [docs](https://example.com/docs)).\n\n```ts\nconst bar = 1;\n```' },
  { type: 'tool_call', callId: 'c1', name: 'edit_file', args: '{\n  "path": "a.ts",\n  "old": "foo"\n}' },
  { type: 'approval_request', callId: 'c1', title: 'Edit a.ts', detail: '-foo +bar', risk: 'write' },
];
const FINISH: ChatEvent[] = [
  { type: 'approval_result', callId: 'c1', approved: true, scope: 'once' },
  { type: 'tool_result', callId: 'c1', ok: true, denied: false, content: 'Edited a.ts\nline 2 of the result', durationMs: 40 },
  { type: 'notice', text: 'Edited a.ts: +1 -1' },
  { type: 'round_start' },
  { type: 'text', text: 'Done.' },
  { type: 'usage', used: 1234 },
  { type: 'turn_end', reason: 'completed', result: 'Done.' },
];

function snapshotOf(events: ChatEvent[], available: number | null = 8192): ChatViewState {
  return reduceAll(initialChatState(available), events);
}

function settle(m: MountedApp): void {
  m.timing.settle();
}

/** What a user sees, compactly: one line per item. */
function visible(m: MountedApp): string[] {
  return m.qa('.item-group > *').map((el) => {
    if (el.classList.contains('tool-card')) return `tool:${el.querySelector('.tool-name')?.textContent}:${el.getAttribute('data-status')}`;
    const kind = el.className.replace('message ', '');
    return `${kind}:${el.querySelector('.message-body')?.textContent?.replace(/\s+/g, ' ').trim()}`;
  });
}

test('posts ready on start and ignores events until the snapshot arrives', () => {
  const m = mountApp();
  assert.deepEqual(m.api.posted[0], { type: 'ready' });
  m.deliver({ type: 'events', base: 0, seq: 1, events: [{ type: 'turn_start', text: 'x' }] });
  assert.equal(m.qa('.item-group > *').length, 0);
});

test('the controls carry the accessible names the e2e tests rely on', () => {
  const m = mountApp();
  assert.equal(m.q('textarea').getAttribute('aria-label'), 'Message');
  const buttons = m.qa('button').map((b) => b.getAttribute('aria-label') ?? b.textContent);
  for (const name of ['Send', 'Stop', 'New chat']) assert.ok(buttons.includes(name), name);
  assert.equal(m.q('select').getAttribute('aria-label'), 'Model');
  assert.equal(m.q('meter').getAttribute('aria-label'), 'Context');
});

test('a snapshot of a turn in progress shows every kind of item with the contract classes', () => {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: TURN.length, state: snapshotOf(TURN) });
  settle(m);
  assert.equal(m.q('.message-user .message-body').textContent, 'Rename foo');
  const thinking = m.q<HTMLDetailsElement>('.message-assistant details.thinking');
  assert.equal(thinking.querySelector('.thinking-body')?.textContent, 'Thinking about the rename.');
  assert.equal(thinking.open, false, 'a completed message shows its thinking folded');
  assert.equal(m.q('.message-assistant .markdown strong').textContent, 'a.ts');
  assert.equal(m.q('.message-assistant .code-block pre').textContent, 'const bar = 1;\n');
  const card = m.q('.tool-card');
  assert.equal(card.getAttribute('data-status'), 'running');
  assert.equal(card.getAttribute('data-approval'), 'pending');
  assert.equal(card.querySelector('.tool-status')?.textContent, 'Waiting for approval');
  assert.match(card.querySelector('.tool-approval')?.textContent ?? '', /Approve in the dialog: Edit a\.ts/);
  assert.equal(card.querySelector('.tool-summary')?.textContent, 'path: a.ts, old: foo');
  assert.equal(m.q<HTMLButtonElement>('button.send').disabled, true, 'no sending while a turn runs');
  assert.equal(m.q<HTMLButtonElement>('button.stop').disabled, false);
  assert.equal(m.q('.conversation').getAttribute('aria-busy'), 'true');
});

test('later events continue from the snapshot and end where a full replay ends', () => {
  const resumed = mountApp();
  resumed.deliver({ type: 'snapshot', seq: 6, state: snapshotOf(TURN) });
  resumed.deliver({ type: 'events', base: 6, seq: 13, events: FINISH });
  settle(resumed);

  const replayed = mountApp();
  replayed.deliver({ type: 'snapshot', seq: 13, state: snapshotOf([...TURN, ...FINISH]) });
  settle(replayed);

  assert.deepEqual(visible(resumed), visible(replayed));
  assert.deepEqual(visible(resumed), [
    'message-user:Rename foo',
    'message-assistant:I will edit a.ts (see docs). tsCopyconst bar = 1;',
    'tool:edit_file:done',
    'message-notice:Edited a.ts: +1 -1',
    'message-assistant:Done.',
  ]);
  assert.equal(resumed.q('.context-text').textContent, '1,234 / 8,192 tokens');
  assert.equal(resumed.q('meter').getAttribute('aria-valuetext'), '1,234 / 8,192 tokens');
  assert.equal(resumed.q<HTMLButtonElement>('button.stop').disabled, true);
});

test('deltas are folded in at once but drawn once per frame, appending to the streaming message only', () => {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 1, state: snapshotOf([{ type: 'turn_start', text: 'hi' }]) });
  m.deliver({ type: 'events', base: 1, seq: 2, events: [{ type: 'text', text: 'Hello' }] });
  settle(m);
  const user = m.q('.message-user');
  const assistant = m.q('.message-assistant');
  assert.equal(assistant.getAttribute('data-streaming'), 'true');
  const frames = Number(m.q('.app').dataset['frames']);

  // Three batches arrive before the next frame: one frame draws them all.
  m.app.receive({ type: 'events', base: 2, seq: 3, events: [{ type: 'text', text: ', ' }] });
  m.app.receive({ type: 'events', base: 3, seq: 4, events: [{ type: 'text', text: 'wor' }] });
  m.app.receive({ type: 'events', base: 4, seq: 5, events: [{ type: 'text', text: 'ld' }] });
  assert.equal(m.timing.pendingFrames, 1, 'one frame requested for many batches');
  settle(m);
  assert.equal(Number(m.q('.app').dataset['frames']), frames + 1);
  assert.equal(m.q('.message-assistant .markdown').textContent?.trim(), 'Hello, world');
  assert.equal(m.q('.message-user'), user, 'earlier messages are not re-rendered');
  assert.equal(m.q('.message-assistant'), assistant, 'the streaming message is updated in place');
  assert.ok(m.q('.app').dataset['maxFrameMs'] !== undefined, 'frame timing is exposed for the e2e suite');
});

test('markdown of the streaming message is re-rendered at most once per interval', () => {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 1, state: snapshotOf([{ type: 'turn_start', text: 'hi' }]) });
  m.deliver({ type: 'events', base: 1, seq: 2, events: [{ type: 'text', text: 'a' }] });
  m.timing.advance(0);
  const after = m.markdown.renders;
  // 10 frames 5 ms apart = 45 ms of streaming: at most 2 more renders at the 33 ms minimum interval.
  for (let i = 0; i < 10; i++) {
    m.deliver({ type: 'events', base: 2 + i, seq: 3 + i, events: [{ type: 'text', text: 'b' }] });
    m.timing.advance(5);
  }
  assert.ok(m.markdown.renders - after <= 2, `rendered ${m.markdown.renders - after} times`);
  m.deliver({ type: 'events', base: 12, seq: 13, events: [{ type: 'turn_end', reason: 'completed', result: 'abbbbbbbbbb' }] });
  assert.equal(m.q('.message-assistant .markdown').textContent?.trim(), 'abbbbbbbbbb', 'the final text renders at once');
});

test('thinking is open while the message streams and folds when it is complete', () => {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 1, state: snapshotOf([{ type: 'turn_start', text: 'hi' }]) });
  m.deliver({ type: 'events', base: 1, seq: 2, events: [{ type: 'thinking', text: 'hmm' }] });
  const details = m.q<HTMLDetailsElement>('details.thinking');
  assert.equal(details.open, true);
  assert.equal(details.querySelector('summary')?.textContent, 'Thinking…');
  m.deliver({ type: 'events', base: 2, seq: 3, events: [{ type: 'thinking', text: ' more' }, { type: 'text', text: 'Answer' }] });
  assert.equal(details.open, true, 'still open while the answer streams');
  assert.equal(details.querySelector('summary')?.textContent, 'Thinking');
  assert.equal(details.querySelector('.thinking-body')?.textContent, 'hmm more');
  m.deliver({ type: 'events', base: 3, seq: 4, events: [{ type: 'turn_end', reason: 'completed', result: 'Answer' }] });
  assert.equal(details.open, false, 'folded once the message is complete');
  assert.notEqual(m.q('.message-assistant .markdown').textContent, 'hmm more', 'thinking is separate from the answer');
});

test('a gap in the event stream asks for a snapshot once; stale batches are ignored', () => {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 5, state: snapshotOf([{ type: 'turn_start', text: 'hi' }]) });
  const readyBefore = m.api.ofType('ready').length;
  m.deliver({ type: 'events', base: 4, seq: 5, events: [{ type: 'text', text: 'stale' }] });
  assert.equal(m.api.ofType('ready').length, readyBefore, 'an old batch is not a gap');
  m.deliver({ type: 'events', base: 7, seq: 8, events: [{ type: 'text', text: 'x' }] });
  m.deliver({ type: 'events', base: 8, seq: 9, events: [{ type: 'text', text: 'y' }] });
  assert.equal(m.api.ofType('ready').length, readyBefore + 1);
  assert.equal(m.qa('.message-assistant').length, 0, 'nothing after the gap is applied');
});

test('invalid host messages are logged and dropped without touching the view', () => {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 1, state: snapshotOf([{ type: 'turn_start', text: 'hi' }]) });
  const before = m.q('.items').innerHTML;
  m.deliver({ type: 'snapshot', seq: 2, state: { items: 'nope' } });
  m.deliver({ type: 'events', base: 1, seq: 2, events: [{ type: 'text', text: 7 }] });
  m.deliver({ type: 'evil', html: '<img src=x onerror=alert(1)>' });
  m.deliver(null);
  assert.equal(m.q('.items').innerHTML, before);
  assert.equal(m.logs.length, 4);
  assert.match(m.logs[0]!, /dropped an invalid message from the host \(type=snapshot\)/);
});

test('links, copy buttons and error actions go through the host', () => {
  const m = mountApp();
  m.deliver({
    type: 'snapshot',
    seq: 2,
    state: snapshotOf([
      { type: 'text', text: '[docs](https://example.com/d) and [bad](javascript:alert(1))\n\n```sh\nnpm test\n```' },
      { type: 'error', text: 'Could not reach Ollama at http://127.0.0.1:11434. Is it running?', actions: ['openSettings', 'showLogs'] },
    ]),
  });
  settle(m);
  const win = m.dom.window;
  const click = (el: Element) => el.dispatchEvent(new win.MouseEvent('click', { bubbles: true, cancelable: true }));
  const [good, bad] = m.qa('.markdown a');
  const event = new win.MouseEvent('click', { bubbles: true, cancelable: true });
  good!.dispatchEvent(event);
  assert.equal(event.defaultPrevented, true, 'the webview never navigates itself');
  click(bad!);
  assert.deepEqual(m.api.ofType('openLink'), [{ type: 'openLink', url: 'https://example.com/d' }]);

  const copy = m.q('button.copy-code');
  click(copy);
  assert.deepEqual(m.api.ofType('copy'), [{ type: 'copy', text: 'npm test\n' }]);
  assert.equal(copy.textContent, 'Copied');
  m.timing.advance(1500);
  assert.equal(copy.textContent, 'Copy');

  const actions = m.qa('.message-error .error-actions button');
  assert.deepEqual(actions.map((b) => b.textContent), ['Open settings', 'Show logs']);
  click(actions[0]!);
  assert.deepEqual(m.api.ofType('runCommand'), [{ type: 'runCommand', command: 'openSettings' }]);
});

test('Enter sends, Shift+Enter does not, and the draft survives a reload', () => {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 0, state: snapshotOf([]) });
  const win = m.dom.window;
  const input = m.q<HTMLTextAreaElement>('textarea');
  input.value = 'line one';
  input.dispatchEvent(new win.Event('input', { bubbles: true }));
  m.timing.frame();
  assert.equal(m.q<HTMLButtonElement>('button.send').disabled, false);
  assert.deepEqual(m.api.state, { draft: 'line one', hotContextOpen: false, scrollTop: null });

  input.dispatchEvent(new win.KeyboardEvent('keydown', { key: 'Enter', shiftKey: true, bubbles: true }));
  assert.equal(m.api.ofType('send').length, 0);

  const reloaded = mountApp({ uiState: m.api.state });
  assert.equal(reloaded.q<HTMLTextAreaElement>('textarea').value, 'line one', 'the draft comes back after a reload');

  input.dispatchEvent(new win.KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
  assert.deepEqual(m.api.ofType('send'), [{ type: 'send', text: 'line one' }]);
  assert.equal(input.value, '');
  assert.equal((m.api.state as { draft: string }).draft, '');
});

test('a send the host answers with an error gives the text back; an echoed one does not', () => {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 0, state: snapshotOf([]) });
  const input = m.q<HTMLTextAreaElement>('textarea');
  input.value = 'please fix';
  m.q('button.send').dispatchEvent(new m.dom.window.MouseEvent('click', { bubbles: true }));
  assert.equal(input.value, '');
  m.deliver({ type: 'events', base: 0, seq: 1, events: [{ type: 'error', text: 'No model selected.', actions: ['selectModel'] }] });
  assert.equal(input.value, 'please fix', 'nothing the user typed is lost');

  m.q('button.send').dispatchEvent(new m.dom.window.MouseEvent('click', { bubbles: true }));
  m.deliver({ type: 'events', base: 1, seq: 2, events: [{ type: 'turn_start', text: 'please fix' }, { type: 'error', text: 'later error', actions: [] }] });
  assert.equal(input.value, '');
});

test('an over-long message is refused in place with a reason, text kept', () => {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 0, state: snapshotOf([]) });
  const input = m.q<HTMLTextAreaElement>('textarea');
  input.value = 'x'.repeat(200_001);
  m.app.layout.send.disabled = false;
  m.q('button.send').dispatchEvent(new m.dom.window.MouseEvent('click', { bubbles: true }));
  assert.equal(m.api.ofType('send').length, 0);
  assert.equal(input.value.length, 200_001);
  assert.equal(m.q('.input-error').hidden, false);
  assert.match(m.q('.input-error').textContent ?? '', /cannot be sent/);
});

test('Stop, New chat, model picker and refresh post their intents', () => {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 1, state: snapshotOf([{ type: 'turn_start', text: 'x' }]) });
  const win = m.dom.window;
  const click = (sel: string) => m.q(sel).dispatchEvent(new win.MouseEvent('click', { bubbles: true }));
  click('button.stop');
  click('button.new-chat');
  click('button.refresh-models');
  m.deliver({ type: 'models', models: ['llama3.2', 'qwen3:8b'], selected: 'qwen3:8b' });
  const picker = m.q<HTMLSelectElement>('select');
  assert.deepEqual(Array.from(picker.options).map((o) => o.value), ['llama3.2', 'qwen3:8b']);
  assert.equal(picker.value, 'qwen3:8b');
  picker.value = 'llama3.2';
  picker.dispatchEvent(new win.Event('change', { bubbles: true }));
  assert.deepEqual(
    m.api.posted.filter((p) => p.type !== 'ready' && p.type !== 'perf').map((p) => p.type),
    ['stop', 'newChat', 'refreshModels', 'selectModel'],
  );
  assert.deepEqual(m.api.ofType('selectModel'), [{ type: 'selectModel', name: 'llama3.2' }]);

  m.deliver({ type: 'models', models: [], selected: 'gone:1b', error: 'Could not reach Ollama. Is it running?' });
  assert.deepEqual(Array.from(picker.options).map((o) => o.textContent), ['gone:1b (not on the server)']);
  assert.equal(m.q('.model-error').hidden, false);
  assert.match(m.q('.model-error').textContent ?? '', /Is it running/);
});

test('"what the model knows" opens on demand and shows the hot context', () => {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 0, state: snapshotOf([]) });
  const toggle = m.q('button.hot-context-toggle');
  assert.equal(m.q('.hot-context').hidden, true);
  toggle.dispatchEvent(new m.dom.window.MouseEvent('click', { bubbles: true }));
  assert.deepEqual(m.api.ofType('hotContext'), [{ type: 'hotContext', open: true }]);
  assert.equal(toggle.getAttribute('aria-expanded'), 'true');
  m.deliver({
    type: 'hotContext',
    view: {
      text: '# Working context\nFiles you read: a.ts (lines 1-20)',
      filesRead: [{ path: 'a.ts', ranges: '1-20' }],
      filesModified: [{ path: 'b.ts', ranges: '3' }],
      todos: [{ text: 'write tests', status: 'in_progress' }],
      activeFile: 'c.ts',
      selection: 'lines 4-9',
    },
  });
  const panel = m.q('.hot-context');
  assert.equal(panel.hidden, false);
  assert.match(panel.textContent ?? '', /Files it read\s*a\.ts lines 1-20/);
  assert.match(panel.textContent ?? '', /Files it changed\s*b\.ts lines 3/);
  assert.match(panel.textContent ?? '', /◐ write tests/);
  assert.match(panel.textContent ?? '', /c\.ts \(lines 4-9\)/);
  assert.equal(panel.querySelector('.hot-context-raw pre')?.textContent, '# Working context\nFiles you read: a.ts (lines 1-20)');

  const reloaded = mountApp({ uiState: m.api.state });
  assert.deepEqual(reloaded.api.ofType('hotContext'), [{ type: 'hotContext', open: true }], 'an open panel reopens after reload');
});

test('a tool card fills its result only when expanded, and shows denial reasons', async () => {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 0, state: snapshotOf([...TURN, ...FINISH]) });
  settle(m);
  const result = m.q<HTMLDetailsElement>('.tool-card details.tool-result');
  assert.equal(result.querySelector('summary')?.textContent, 'Edited a.ts');
  assert.equal(result.querySelector('pre')?.textContent, '', 'not filled while collapsed');
  result.open = true;
  await sleep(5); // jsdom fires 'toggle' from a task
  assert.equal(result.querySelector('pre')?.textContent, 'Edited a.ts\nline 2 of the result');
  assert.match(m.q('.tool-card .tool-status').textContent ?? '', /^Done in 40 ms$/);

  m.deliver({
    type: 'snapshot',
    seq: 0,
    state: snapshotOf([
      { type: 'tool_call', callId: 'r', name: 'run_command', args: '{"command":"rm -rf /"}' },
      { type: 'approval_request', callId: 'r', title: 'Run rm -rf /', detail: 'rm -rf /', risk: 'execute' },
      { type: 'approval_result', callId: 'r', approved: false, reason: 'denied by the user' },
      { type: 'tool_result', callId: 'r', ok: false, denied: true, content: 'The user denied this run_command call', durationMs: 1 },
    ]),
  });
  settle(m);
  const card = m.q('.tool-card');
  assert.equal(card.getAttribute('data-status'), 'denied');
  assert.equal(card.querySelector('.tool-status')?.textContent, 'Denied');
  assert.equal(card.querySelector('.tool-approval')?.textContent, 'Not allowed: denied by the user');
});

test('a 2,000-item snapshot builds only the newest items; older ones are built, in order, as the user scrolls up', () => {
  // An agent conversation: each turn is a question, a tool card and a markdown answer.
  const events: ChatEvent[] = [];
  for (let i = 0; i < 667; i++) {
    events.push({ type: 'turn_start', text: `question ${i}` });
    events.push({ type: 'tool_call', callId: `c${i}`, name: 'read_file', args: `{"path":"src/f${i}.ts"}` });
    events.push({ type: 'tool_result', callId: `c${i}`, ok: true, denied: false, content: `export const x${i} = ${i};`, durationMs: 2 });
    events.push({ type: 'text', text: `Answer **${i}** with \`code\` and a list:\n\n- a\n- b\n\n\`\`\`ts\nconst x${i} = ${i};\n\`\`\`` });
    events.push({ type: 'turn_end', reason: 'completed', result: '' });
  }
  const state = snapshotOf(events);
  const total = state.items.length;
  assert.equal(total, 2001);
  const m = mountApp({ clock: () => performance.now() });
  const started = performance.now();
  m.deliver({ type: 'snapshot', seq: events.length, state });
  const firstFrameMs = performance.now() - started;
  const firstCount = m.qa('.item-group > *').length;
  assert.ok(firstCount > 0 && firstCount <= 60, `first frame built ${firstCount} items`);
  const lastTurn = Math.floor(total / 3) - 1;
  assert.equal(m.qa('.item-group > *').at(-1)?.querySelector('.message-body strong')?.textContent, String(lastTurn), 'the newest item is there first');
  // Nothing older is built in the background, and the markdown of unbuilt answers is never parsed.
  assert.equal(m.timing.pendingTimers, 0);
  assert.ok(m.markdown.renders <= firstCount, `${m.markdown.renders} markdown renders for ${firstCount} items`);
  assert.equal(m.q('.items').dataset['unbuilt'], String(total - firstCount));
  // The snapshot counts as shown once its visible end is in the DOM.
  assert.equal(m.q('.app').dataset['snapshotItems'], String(total));
  const perf = m.api.ofType('perf');
  assert.equal(perf.length, 1);
  assert.equal(perf[0]!['count'], total);

  // Streaming into the end of the conversation before any scrolling: only the end is touched.
  m.deliver({ type: 'events', base: events.length, seq: events.length + 2, events: [{ type: 'turn_start', text: 'one more' }, { type: 'text', text: 'ok' }] });
  settle(m);
  assert.equal(m.qa('.item-group > *').length, firstCount + 2);

  // Scrolling near the top builds the next older chunk each time (jsdom has no layout: scrollTop stays 0).
  const scroller = m.q('.conversation');
  let chunks = 0;
  let slowestChunk = 0;
  while (m.q('.items').dataset['unbuilt'] !== '0') {
    const t = performance.now();
    scroller.dispatchEvent(new m.dom.window.Event('scroll'));
    slowestChunk = Math.max(slowestChunk, performance.now() - t);
    chunks++;
    assert.ok(chunks <= total, 'every scroll builds something');
  }
  const items = m.qa('.item-group > *');
  assert.equal(items.length, total + 2);
  assert.equal(items[0]!.querySelector('.message-body')?.textContent, 'question 0', 'older items were prepended in order');
  assert.equal(items[1]!.getAttribute('data-status'), 'done');
  assert.equal(items[total - 1]!.querySelector('.message-body strong')?.textContent, String(lastTurn));
  assert.equal(items[total]!.querySelector('.message-body')?.textContent, 'one more');
  assert.ok(chunks >= 10, `built in ${chunks} chunks`);
  console.log(`${total}-item snapshot in jsdom: first frame ${firstFrameMs.toFixed(0)} ms (${firstCount} items), then ${chunks} chunks on scroll, slowest ${slowestChunk.toFixed(0)} ms`);

  // Scrolling further builds nothing more.
  scroller.dispatchEvent(new m.dom.window.Event('scroll'));
  assert.equal(m.qa('.item-group > *').length, total + 2);
});

test('New chat (reset) clears the list and shows the empty state', () => {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 1, state: snapshotOf([{ type: 'turn_start', text: 'hi' }]) });
  assert.equal(m.q('.empty-state').hidden, true);
  m.deliver({ type: 'events', base: 1, seq: 2, events: [{ type: 'turn_end', reason: 'completed' }, { type: 'reset' }] });
  settle(m);
  assert.equal(m.qa('.item-group > *').length, 0);
  assert.equal(m.q('.empty-state').hidden, false);
});

test('the empty chat offers the setup check; the button asks the host to run it', () => {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 1, state: snapshotOf([]) });
  const button = m.qa('.empty-state button').find((b) => b.textContent === 'Check Model Setup');
  assert.ok(button, 'a Check Model Setup button in the empty state');
  button.dispatchEvent(new m.dom.window.MouseEvent('click', { bubbles: true }));
  assert.deepEqual(m.api.ofType('runCommand'), [{ type: 'runCommand', command: 'checkSetup' }]);
});

test('the model picker marks models the setup check looked at, with its summary as the tooltip', () => {
  const m = mountApp();
  m.deliver({
    type: 'models',
    models: ['a:1b', 'b:7b', 'c:3b'],
    selected: 'b:7b',
    checks: [
      { model: 'b:7b', verdict: 'limited', summary: 'Usable with limits: tool calls as text.' },
      { model: 'c:3b', verdict: 'ready', summary: 'Ready.' },
    ],
  });
  const options = m.qa('select option') as HTMLOptionElement[];
  assert.deepEqual(options.map((o) => o.textContent), ['a:1b', 'b:7b ⚠', 'c:3b ✓']);
  assert.deepEqual(options.map((o) => o.value), ['a:1b', 'b:7b', 'c:3b'], 'the values stay the model names');
  assert.equal(options[1]!.title, 'Setup check: Usable with limits: tool calls as text.');
  assert.equal(options[0]!.title, '');
  assert.equal(m.q('select').title, 'Setup check: Usable with limits: tool calls as text.');
});
