// Compression marks: the host finds which panel item a compressed message is (by kind, key and occurrence),
// both live and from a stored session, and the shared reducer marks exactly that item.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatMessage } from '../../../../src/core/messages';
import type { StoredMessage } from '../../../../src/persistence/types';
import { initialChatState, reduceAll, reduceChat } from '../../../../src/shared/chatState';
import type { ChatEvent } from '../../../../src/shared/protocol';
import { markFor, marksFromStore } from '../../../../src/editor/history/compressionMarks';
import { itemsFromHistory } from '../../../../src/editor/chat/historyItems';

const HISTORY: ChatMessage[] = [
  { role: 'user', content: 'do it' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'call_0', name: 'read_file', arguments: { path: 'a.ts' } }] },
  { role: 'tool', content: 'A'.repeat(500), toolCallId: 'call_0', toolName: 'read_file' },
  { role: 'assistant', content: 'Read a.' },
  { role: 'user', content: 'do it' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'call_0', name: 'read_file', arguments: { path: 'b.ts' } }] },
  { role: 'tool', content: 'B'.repeat(500), toolCallId: 'call_0', toolName: 'read_file' },
];

test('markFor counts earlier messages with the same kind and key; tool-call-only assistant messages have no item', () => {
  assert.deepEqual(markFor(HISTORY, 4, '[Compressed] do'), { type: 'compressed', target: 'user', key: 'do it', occurrence: 1, text: '[Compressed] do' });
  assert.deepEqual(markFor(HISTORY, 6, '[Compressed] B…'), { type: 'compressed', target: 'tool', key: 'call_0', occurrence: 1, text: '[Compressed] B…' });
  assert.deepEqual(markFor(HISTORY, 3, 'short'), { type: 'compressed', target: 'assistant', key: 'Read a.', occurrence: 0, text: 'short' });
  assert.equal(markFor(HISTORY, 1, 'x'), undefined);
  assert.equal(markFor(HISTORY, 99, 'x'), undefined);
});

test('the reducer marks the right item of a live conversation, even with repeated texts and reused call ids', () => {
  const events: ChatEvent[] = [
    { type: 'turn_start', text: 'do it' },
    { type: 'tool_call', callId: 'call_0', name: 'read_file', args: '{}' },
    { type: 'tool_result', callId: 'call_0', ok: true, denied: false, content: 'A'.repeat(500), durationMs: 1 },
    { type: 'notice', text: 'an aside' },
    { type: 'text', text: 'Read a.' },
    { type: 'turn_end', reason: 'completed', result: 'Read a.' },
    { type: 'turn_start', text: 'do it' },
    { type: 'tool_call', callId: 'call_0', name: 'read_file', args: '{}' },
    { type: 'tool_result', callId: 'call_0', ok: true, denied: false, content: 'B'.repeat(500), durationMs: 1 },
  ];
  const before = reduceAll(initialChatState(), events);
  const after = reduceChat(before, markFor(HISTORY, 6, '[Compressed] read_file b.ts: 500 chars')!);
  const tools = after.items.filter((i) => i.kind === 'tool');
  assert.equal(tools[0]!.compressed, undefined, 'the first call_0 card is untouched');
  assert.equal(tools[1]!.compressed, '[Compressed] read_file b.ts: 500 chars');
  const users = reduceChat(after, markFor(HISTORY, 0, '[Compressed] do')!).items.filter((i) => i.kind === 'user');
  assert.deepEqual(users.map((u) => u.compressed), ['[Compressed] do', undefined]);
  // Items that are not replaced keep their identity (the view diffs by identity).
  assert.equal(after.items[0], before.items[0]);
  // A mark for something the panel never showed changes nothing.
  const none = reduceChat(after, { type: 'compressed', target: 'user', key: 'never said', occurrence: 0, text: 'x' });
  assert.equal(none.items, after.items);
});

test('marks from a stored session link compressed copies to the originals the panel shows', () => {
  const row = (id: number, m: ChatMessage, extra: Partial<StoredMessage> = {}): StoredMessage => ({
    ...m,
    id,
    sessionId: 's1',
    seq: id,
    displayOnly: false,
    createdAt: 0,
    ...extra,
  });
  const originals = HISTORY.map((m, i) => row(i + 1, m, i === 2 || i === 6 ? { supersededBy: 100 + i } : {}));
  const current = originals.map((m, i) =>
    i === 2 || i === 6 ? row(100 + i, { ...HISTORY[i]!, content: `[Compressed] result ${i}` }, { seq: m.seq, compressedFrom: m.id }) : m,
  );
  const marks = marksFromStore(originals, current);
  assert.deepEqual(
    marks.map((m) => [m.target, m.key, m.occurrence, m.text]),
    [
      ['tool', 'call_0', 0, '[Compressed] result 2'],
      ['tool', 'call_0', 1, '[Compressed] result 6'],
    ],
  );
  const { items, nextId } = itemsFromHistory(originals);
  const state = reduceAll({ ...initialChatState(), items, nextId }, marks);
  const tools = state.items.filter((i) => i.kind === 'tool');
  assert.deepEqual(tools.map((t) => t.compressed), ['[Compressed] result 2', '[Compressed] result 6']);
  assert.equal(tools[0]!.result, 'A'.repeat(500), 'the original result is kept for "Show original"');
});
