// Context chips in the shared state and protocol: the reducer adds (once), removes and keeps them across a new
// chat; the schemas accept well-formed chips and refuse bad ones; the panel draws them and asks to remove them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialChatState, reduceAll, reduceChat } from '../../../src/shared/chatState';
import { ChatViewStateSchema, MAX_ATTACHMENTS, parseHostMessage, parseWebviewMessage, type Attachment } from '../../../src/shared/protocol';
import { mountApp } from '../webview/doubles';

const chip = (id: string, extra: Partial<Attachment> = {}): Attachment => ({ id, path: 'src/a.ts', file: '/ws/src/a.ts', startLine: 3, endLine: 5, languageId: 'typescript', ...extra });

test('chips are added once, removed by id, and survive a new chat', () => {
  let s = reduceAll(initialChatState(), [
    { type: 'attachment_add', attachment: chip('a') },
    { type: 'attachment_add', attachment: chip('b', { startLine: undefined, endLine: undefined }) },
  ]);
  assert.deepEqual(s.attachments?.map((a) => a.id), ['a', 'b']);
  // The same file and lines again, or the same id: nothing changes (same state object).
  assert.equal(reduceChat(s, { type: 'attachment_add', attachment: chip('c') }), s);
  assert.equal(reduceChat(s, { type: 'attachment_add', attachment: chip('a', { startLine: 9, endLine: 9 }) }), s);
  s = reduceChat(s, { type: 'reset' });
  assert.deepEqual(s.attachments?.map((a) => a.id), ['a', 'b']);
  assert.equal(reduceChat(s, { type: 'attachment_remove', id: 'zzz' }), s);
  s = reduceAll(s, [{ type: 'attachment_remove', id: 'a' }, { type: 'attachment_remove', id: 'b' }]);
  assert.equal('attachments' in s, false, 'no chips: the field is gone, like a state that never had any');
});

test('beyond the limit the oldest chip gives way', () => {
  const events = Array.from({ length: MAX_ATTACHMENTS + 3 }, (_, i) => ({ type: 'attachment_add' as const, attachment: chip(`c${i}`, { startLine: i + 1, endLine: i + 1 }) }));
  const s = reduceAll(initialChatState(), events);
  assert.equal(s.attachments?.length, MAX_ATTACHMENTS);
  assert.equal(s.attachments?.[0]?.id, 'c3');
  assert.equal(ChatViewStateSchema.safeParse(s).success, true);
});

test('the protocol carries chips in snapshots and events, and the × as removeAttachment', () => {
  const state = reduceChat(initialChatState(), { type: 'attachment_add', attachment: chip('a') });
  assert.equal(parseHostMessage({ type: 'snapshot', seq: 1, state }).ok, true);
  assert.equal(parseHostMessage({ type: 'events', base: 0, seq: 1, events: [{ type: 'attachment_add', attachment: chip('a') }] }).ok, true);
  assert.equal(parseWebviewMessage({ type: 'removeAttachment', id: 'a' }).ok, true);
  const bad: unknown[] = [
    { type: 'attachment_add', attachment: { ...chip('a'), startLine: 0 } },
    { type: 'attachment_add', attachment: { ...chip('a'), startLine: 1.5 } },
    { type: 'attachment_add', attachment: { ...chip(''), id: '' } },
    { type: 'attachment_add', attachment: { id: 'x', path: 'a.ts' } },
  ];
  for (const event of bad) assert.equal(parseHostMessage({ type: 'events', base: 0, seq: 1, events: [event] }).ok, false, JSON.stringify(event));
  assert.equal(parseWebviewMessage({ type: 'removeAttachment', id: '' }).ok, false);
  const tooMany = { ...initialChatState(), attachments: Array.from({ length: MAX_ATTACHMENTS + 1 }, (_, i) => chip(`c${i}`)) };
  assert.equal(ChatViewStateSchema.safeParse(tooMany).success, false);
});

test('the panel shows the chips above the message box; the × asks the host to remove one', () => {
  const m = mountApp();
  const state = reduceAll(initialChatState(), [
    { type: 'attachment_add', attachment: chip('a') },
    { type: 'attachment_add', attachment: chip('b', { path: 'lib/util.py', file: '/ws/lib/util.py', startLine: undefined, endLine: undefined }) },
  ]);
  m.deliver({ type: 'snapshot', seq: 2, state });
  m.timing.settle();
  const row = m.q('.attachment-chips');
  assert.equal(row.hidden, false);
  assert.equal(row.nextElementSibling, m.q('textarea'), 'right above the message box');
  assert.deepEqual(m.qa('.attachment-label').map((el) => el.textContent), ['a.ts:3-5', 'util.py']);
  assert.deepEqual(m.qa('.attachment-remove').map((el) => el.getAttribute('aria-label')), ['Remove src/a.ts:3-5', 'Remove lib/util.py']);
  assert.equal(m.qa('.attachment-chip')[1]?.getAttribute('title'), 'lib/util.py (whole file)');
  (m.qa('.attachment-remove')[0] as HTMLButtonElement).click();
  assert.deepEqual(m.api.posted.at(-1), { type: 'removeAttachment', id: 'a' });
  // The host removes it; the next events redraw the row.
  m.deliver({ type: 'events', base: 2, seq: 4, events: [{ type: 'attachment_remove', id: 'a' }, { type: 'attachment_remove', id: 'b' }] });
  m.timing.settle();
  assert.equal(m.qa('.attachment-chip').length, 0);
  assert.equal(row.hidden, true);
});
