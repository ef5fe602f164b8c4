// The panel's History view and "[Compressed]" messages, in jsdom with the real ChatApp: what is listed, what
// the buttons post, and the original staying one click away.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialChatState, reduceAll } from '../../../../src/shared/chatState';
import type { ChatEvent, SessionEntry } from '../../../../src/shared/protocol';
import { mountApp } from '../../webview/doubles';

const NOW = Date.now();
const SESSIONS: SessionEntry[] = [
  { id: 's2', title: 'Rename foo', model: 'qwen3:8b', updatedAt: NOW, messageCount: 7, interrupted: true },
  { id: 's1', title: 'Explain b.ts', model: 'llama3', updatedAt: NOW - 86_400_000 * 400, messageCount: 1, interrupted: false },
];

test('History lists sessions with date, model, count and the interrupted mark; the toggle asks the host for the list', () => {
  const m = mountApp();
  const toggle = m.q<HTMLButtonElement>('button.history-toggle');
  assert.equal(toggle.getAttribute('aria-label') ?? toggle.textContent, 'History');
  assert.equal(m.q('section.history').hidden, true);
  toggle.click();
  assert.equal(m.q('section.history').hidden, false);
  assert.equal(toggle.getAttribute('aria-expanded'), 'true');
  assert.deepEqual(m.api.ofType('sessions').at(-1), { type: 'sessions', open: true });

  m.deliver({ type: 'sessions', sessions: SESSIONS, currentId: 's1' });
  const rows = m.qa('.session-row');
  assert.equal(rows.length, 2);
  assert.equal(rows[0]!.querySelector('.session-open')?.textContent, 'Rename foo');
  assert.match(rows[0]!.querySelector('.session-meta')!.textContent!, /Today \d\d:\d\d.*qwen3:8b.*7 messages.*Interrupted/);
  assert.ok(rows[0]!.classList.contains('interrupted'));
  assert.match(rows[1]!.querySelector('.session-meta')!.textContent!, /^\d{4}-\d\d-\d\d.*llama3.*1 message(?!s).*Current/);
  assert.ok(rows[1]!.classList.contains('current'));
});

test('row buttons post their action with the session id; opening closes the list', () => {
  const m = mountApp();
  m.q<HTMLButtonElement>('button.history-toggle').click();
  m.deliver({ type: 'sessions', sessions: SESSIONS, currentId: null });
  const row = m.qa('.session-row')[1]!;
  for (const label of ['Rename', 'Export as Markdown', 'Export as JSON', 'Delete']) {
    (row.querySelector(`button[aria-label="${label}: Explain b.ts"]`) as HTMLButtonElement).click();
  }
  assert.deepEqual(
    m.api.ofType('sessionAction').map((p) => p['action']),
    ['rename', 'exportMarkdown', 'exportJson', 'delete'],
  );
  assert.ok(m.api.ofType('sessionAction').every((p) => p['id'] === 's1'));
  (row.querySelector('.session-open') as HTMLButtonElement).click();
  assert.deepEqual(m.api.ofType('sessionAction').at(-1), { type: 'sessionAction', action: 'open', id: 's1' });
  assert.equal(m.q('section.history').hidden, true);
  assert.deepEqual(m.api.ofType('sessions').at(-1), { type: 'sessions', open: false });
});

test('a Show Sessions reveal opens the list; an empty list shows the note; the open state survives a reload', () => {
  const m = mountApp();
  m.deliver({ type: 'sessions', sessions: [], currentId: null, note: 'No saved sessions yet.', reveal: true });
  assert.equal(m.q('section.history').hidden, false);
  assert.equal(m.q('.history-note').textContent, 'No saved sessions yet.');
  const reloaded = mountApp({ uiState: m.api.state });
  assert.equal(reloaded.q('section.history').hidden, false);
  assert.deepEqual(reloaded.api.ofType('sessions'), [{ type: 'sessions', open: true }]);
});

test('a compressed message shows "[Compressed]" and the shorter text, with the original behind "Show original"', () => {
  const m = mountApp();
  const events: ChatEvent[] = [
    { type: 'turn_start', text: 'Please read every file in src and summarise each one in detail' },
    { type: 'text', text: 'Here is the long answer.' },
    { type: 'turn_end', reason: 'completed', result: 'Here is the long answer.' },
    { type: 'compressed', target: 'user', key: 'Please read every file in src and summarise each one in detail', occurrence: 0, text: '[Compressed] Summarise src files.' },
  ];
  m.deliver({ type: 'snapshot', seq: 1, state: reduceAll(initialChatState(), events) });
  m.timing.settle();
  const user = m.q('.message-user');
  assert.ok(user.classList.contains('is-compressed'));
  assert.equal(user.querySelector('.compressed-badge')?.textContent, '[Compressed]');
  assert.equal(user.querySelector('.compressed-text')?.textContent, 'Summarise src files.');
  assert.equal(user.querySelector('.message-body')?.textContent, 'Please read every file in src and summarise each one in detail');
  const toggle = user.querySelector('button.show-original') as HTMLButtonElement;
  assert.equal(toggle.getAttribute('aria-expanded'), 'false');
  toggle.click();
  assert.ok(user.classList.contains('show-original'));
  assert.equal(toggle.getAttribute('aria-expanded'), 'true');
  assert.equal(toggle.textContent, 'Hide original');
  assert.equal(m.q('.message-assistant').classList.contains('is-compressed'), false, 'other messages are untouched');

  // Marked later by an event: the existing view gains the mark in place.
  m.deliver({ type: 'events', base: 1, seq: 2, events: [{ type: 'compressed', target: 'assistant', key: 'Here is the long answer.', occurrence: 0, text: 'Answered.' }] });
  assert.equal(m.q('.message-assistant .compressed-text').textContent, 'Answered.');
});
