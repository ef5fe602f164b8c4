// The chat reducer: UI events -> view state. Pure, immutable, and a snapshot plus the later events gives
// exactly the state a full replay gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { capText, coalesceEvents, initialChatState, reduceAll, reduceChat } from '../../../src/shared/chatState';
import { MAX_TOOL_TEXT, ChatViewStateSchema, type ChatEvent } from '../../../src/shared/protocol';

/** A realistic turn: thinking, text, a tool needing approval, a denied one, a nudge, an answer. */
const TURN: ChatEvent[] = [
  { type: 'turn_start', text: 'Rename foo to bar' },
  { type: 'round_start' },
  { type: 'status', text: 'Loading model…' },
  { type: 'thinking', text: 'The user wants ' },
  { type: 'thinking', text: 'a rename.' },
  { type: 'text', text: 'I will ' },
  { type: 'text', text: 'edit `a.ts`.' },
  { type: 'tool_call', callId: 'call_0', name: 'edit_file', args: '{\n  "path": "a.ts"\n}' },
  { type: 'approval_request', callId: 'call_0', title: 'Edit a.ts', detail: '-foo\n+bar', risk: 'write' },
  { type: 'approval_result', callId: 'call_0', approved: true, scope: 'session' },
  { type: 'tool_progress', callId: 'call_0', text: 'writing' },
  { type: 'tool_result', callId: 'call_0', ok: true, denied: false, content: 'Edited a.ts', durationMs: 12 },
  { type: 'notice', text: 'Edited a.ts: +1 -1' },
  { type: 'usage', used: 900 },
  { type: 'round_start' },
  { type: 'text', text: 'Now run the tests.' },
  { type: 'tool_call', callId: 'call_0', name: 'run_command', args: '{"command":"npm test"}' },
  { type: 'approval_request', callId: 'call_0', title: 'Run npm test', detail: 'npm test', risk: 'execute' },
  { type: 'approval_result', callId: 'call_0', approved: false, reason: 'denied by the user' },
  { type: 'tool_result', callId: 'call_0', ok: false, denied: true, content: 'The user denied this run_command call', durationMs: 3 },
  { type: 'round_start' },
  { type: 'text', text: 'Done: ' },
  { type: 'text', text: 'renamed.' },
  { type: 'usage', used: 1500 },
  { type: 'turn_end', reason: 'completed', result: 'Done: renamed.' },
];

test('a full turn becomes user, assistant, cards, notice and answer items', () => {
  const s = reduceAll(initialChatState(8192), TURN);
  assert.deepEqual(
    s.items.map((i) => i.kind),
    ['user', 'assistant', 'tool', 'notice', 'assistant', 'tool', 'assistant'],
  );
  const [user, first, edit, notice, second, run, last] = s.items;
  assert.deepEqual(user, { kind: 'user', id: 'i1', text: 'Rename foo to bar' });
  assert.deepEqual(first, { kind: 'assistant', id: 'i2', text: 'I will edit `a.ts`.', thinking: 'The user wants a rename.', streaming: false });
  assert.equal(edit?.kind === 'tool' && edit.status, 'done');
  assert.deepEqual(edit?.kind === 'tool' && edit.approval, { state: 'approved', title: 'Edit a.ts', detail: '-foo\n+bar', risk: 'write', scope: 'session' });
  assert.equal(edit?.kind === 'tool' && edit.progress, undefined, 'progress is cleared when the tool finishes');
  assert.equal(edit?.kind === 'tool' && edit.result, 'Edited a.ts');
  assert.equal(edit?.kind === 'tool' && edit.durationMs, 12);
  assert.deepEqual(notice, { kind: 'notice', id: 'i4', text: 'Edited a.ts: +1 -1' });
  assert.equal(second?.kind === 'assistant' && second.text, 'Now run the tests.');
  // The second call reused the id "call_0": the latest card is the one updated.
  assert.equal(run?.kind === 'tool' && run.status, 'denied');
  assert.equal(run?.kind === 'tool' && run.approval?.reason, 'denied by the user');
  assert.equal(last?.kind === 'assistant' && last.text, 'Done: renamed.');
  assert.equal(s.busy, false);
  assert.equal(s.status, null);
  assert.deepEqual(s.context, { used: 1500, available: 8192 });
  assert.equal(ChatViewStateSchema.safeParse(s).success, true);
});

test('busy, status and streaming follow the turn', () => {
  let s = reduceChat(initialChatState(), { type: 'turn_start', text: 'hi' });
  assert.equal(s.busy, true);
  s = reduceChat(s, { type: 'status', text: 'Loading model…' });
  assert.equal(s.status, 'Loading model…');
  s = reduceChat(s, { type: 'text', text: 'Hel' });
  assert.equal(s.status, null, 'the first token clears the status line');
  const last = s.items[s.items.length - 1];
  assert.equal(last?.kind === 'assistant' && last.streaming, true);
  s = reduceChat(s, { type: 'turn_end', reason: 'completed', result: 'Hel' });
  const end = s.items[s.items.length - 1];
  assert.equal(end?.kind === 'assistant' && end.streaming, false);
  assert.equal(s.items.length, 2, 'a completed answer is not repeated');
});

test('snapshot at any point + the later events == full replay (also through JSON)', () => {
  const full = reduceAll(initialChatState(4096), TURN);
  for (let cut = 0; cut <= TURN.length; cut++) {
    const snapshot = JSON.parse(JSON.stringify(reduceAll(initialChatState(4096), TURN.slice(0, cut))));
    const resumed = reduceAll(ChatViewStateSchema.parse(snapshot), TURN.slice(cut));
    assert.deepEqual(resumed, full, `cut at ${cut}`);
  }
});

test('coalesced deltas give the same state as the individual ones', () => {
  const coalesced = coalesceEvents(TURN);
  assert.ok(coalesced.length < TURN.length);
  assert.deepEqual(
    coalesced.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text),
    ['I will edit `a.ts`.', 'Now run the tests.', 'Done: renamed.'],
  );
  assert.deepEqual(reduceAll(initialChatState(), coalesced), reduceAll(initialChatState(), TURN));
  // Thinking and text never merge with each other.
  assert.deepEqual(coalesceEvents([{ type: 'thinking', text: 'a' }, { type: 'text', text: 'b' }, { type: 'thinking', text: 'c' }]).length, 3);
});

test('updates are immutable and replace only the changed item', () => {
  const before = reduceAll(initialChatState(), TURN.slice(0, 8));
  const frozen = JSON.stringify(before);
  const after = reduceChat(before, { type: 'tool_progress', callId: 'call_0', text: 'half way' });
  assert.equal(JSON.stringify(before), frozen, 'the old state is untouched');
  assert.notEqual(after.items, before.items);
  after.items.forEach((item, i) => {
    if (i === after.items.length - 1) assert.notEqual(item, before.items[i]);
    else assert.equal(item, before.items[i], `item ${i} keeps its identity`);
  });
});

test('events for unknown tool calls change nothing', () => {
  const s = reduceAll(initialChatState(), TURN.slice(0, 3));
  for (const e of [
    { type: 'approval_request', callId: 'zzz', title: 't', detail: 'd', risk: 'write' },
    { type: 'tool_progress', callId: 'zzz', text: 'x' },
    { type: 'tool_result', callId: 'zzz', ok: true, denied: false, content: 'x', durationMs: 1 },
  ] as ChatEvent[]) {
    assert.equal(reduceChat(s, e), s);
  }
});

test('a cancelled turn stops running cards and pending approvals and says so', () => {
  const s = reduceAll(initialChatState(), [
    { type: 'turn_start', text: 'go' },
    { type: 'tool_call', callId: 'a', name: 'run_command', args: '{}' },
    { type: 'tool_call', callId: 'b', name: 'write_file', args: '{}' },
    { type: 'approval_request', callId: 'b', title: 'Write x', detail: 'x', risk: 'write' },
    { type: 'turn_end', reason: 'cancelled' },
  ]);
  const [, a, b, notice] = s.items;
  assert.equal(a?.kind === 'tool' && a.status, 'error');
  assert.match(a?.kind === 'tool' ? a.result ?? '' : '', /Interrupted/);
  assert.equal(b?.kind === 'tool' && b.status, 'denied');
  assert.equal(b?.kind === 'tool' && b.approval?.state, 'denied');
  assert.equal(notice?.kind, 'notice');
  assert.match(notice?.kind === 'notice' ? notice.text : '', /Stopped/);
  assert.equal(s.busy, false);
});

test('task_completion and ask_question show their text as the answer, once', () => {
  const asked = reduceAll(initialChatState(), [
    { type: 'turn_start', text: 'go' },
    { type: 'tool_call', callId: 'q', name: 'ask_question', args: '{"question":"Which file?"}' },
    { type: 'tool_result', callId: 'q', ok: true, denied: false, content: 'asked', durationMs: 1 },
    { type: 'turn_end', reason: 'ask_question', result: 'Which file?' },
  ]);
  const last = asked.items[asked.items.length - 1];
  assert.deepEqual(last?.kind === 'assistant' && [last.text, last.streaming], ['Which file?', false]);

  const said = reduceAll(initialChatState(), [
    { type: 'turn_start', text: 'go' },
    { type: 'text', text: 'All done.' },
    { type: 'turn_end', reason: 'task_completion', result: 'All done.' },
  ]);
  assert.equal(said.items.filter((i) => i.kind === 'assistant').length, 1);
});

test('a completed turn whose final reply was empty shows the stand-in result; a streamed one is not repeated', () => {
  const empty = reduceAll(initialChatState(), [
    { type: 'turn_start', text: 'go' },
    { type: 'text', text: 'Let me look.' },
    { type: 'tool_call', callId: 'a', name: 'read_file', args: '{}' },
    { type: 'tool_result', callId: 'a', ok: true, denied: false, content: 'x', durationMs: 1 },
    { type: 'round_start' },
    { type: 'thinking', text: 'hmm' },
    { type: 'notice', text: 'The model returned an empty reply.' },
    { type: 'turn_end', reason: 'completed', result: 'The model gave no answer. Try again or pick another model.' },
  ]);
  const last = empty.items[empty.items.length - 1];
  assert.equal(last?.kind === 'assistant' && last.text, 'The model gave no answer. Try again or pick another model.');

  const streamed = reduceAll(initialChatState(), [
    { type: 'turn_start', text: 'go' },
    { type: 'text', text: 'The answer is 4.' },
    { type: 'notice', text: 'a notice after the answer' },
    { type: 'turn_end', reason: 'completed', result: 'The answer is 4' },
  ]);
  assert.equal(streamed.items.filter((i) => i.kind === 'assistant').length, 1);
});

test('reset clears the conversation but keeps ids unique and the context limit', () => {
  const s = reduceAll(initialChatState(32768), [...TURN, { type: 'reset' }]);
  assert.deepEqual(s.items, []);
  assert.equal(s.busy, false);
  assert.deepEqual(s.context, { used: 0, available: 32768 });
  const next = reduceChat(s, { type: 'turn_start', text: 'again' });
  assert.ok(!reduceAll(initialChatState(32768), TURN).items.some((i) => i.id === next.items[0]!.id));
});

test('context_limit and usage drive the meter numbers', () => {
  let s = reduceChat(initialChatState(), { type: 'usage', used: 10 });
  assert.deepEqual(s.context, { used: 10, available: null });
  s = reduceChat(s, { type: 'context_limit', available: 16384 });
  assert.deepEqual(s.context, { used: 10, available: 16384 });
});

test('huge tool arguments and results are capped in the view state, with a note', () => {
  const big = 'x'.repeat(MAX_TOOL_TEXT + 500);
  const s = reduceAll(initialChatState(), [
    { type: 'tool_call', callId: 'a', name: 'write_file', args: big },
    { type: 'tool_result', callId: 'a', ok: true, denied: false, content: big, durationMs: 1 },
  ]);
  const card = s.items[0]!;
  assert.ok(card.kind === 'tool');
  assert.ok(card.args.length < big.length && card.args.endsWith('(500 more characters not shown)'));
  assert.ok(card.result!.length < big.length);
  assert.equal(capText('short'), 'short');
});

test('errors keep their next-step actions', () => {
  const s = reduceChat(initialChatState(), { type: 'error', text: 'Could not reach Ollama', actions: ['openSettings', 'showLogs'] });
  assert.deepEqual(s.items[0], { kind: 'error', id: 'i1', text: 'Could not reach Ollama', actions: ['openSettings', 'showLogs'] });
});
