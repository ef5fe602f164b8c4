// Eviction into the running session summary, and restoring it after a restart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createContextManager } from '../../../src/core/compression/contextManager';
import type { CompressionReport } from '../../../src/core/compression/compressor';
import { protectedStartOf } from '../../../src/core/compression/compressionUnits';
import type { ChatMessage } from '../../../src/core/messages';
import { estimateMessagesTokens, estimateToolDefinitionTokens } from '../../../src/core/tokens';
import { groupUnits } from '../../../src/core/compression/compressionUnits';
import { REQUEST_CHARS, RunningSummary, isNudge } from '../../../src/core/compression/summary';
import { DEFAULT_POLICY_MESSAGES } from '../../../src/core/analysis/policyConfig';
import { decodeContextState, encodeContextState } from '../../../src/persistence/storedContextState';
import { GarbageModel } from '../../helpers/compression/compressionModels';
import { NOTE_TASK, namesSeen, noteTaskSession } from './recordedSession';
import { assertValidOrder } from './assertions';
import { SESSION_TOOLS, scriptedSession, systemMessage } from '../../helpers/compression/sessionFixture';

const signal = new AbortController().signal;
const WINDOW = 4096;

function setup(initialState?: ReturnType<ReturnType<typeof createContextManager>['state']>, window = WINDOW) {
  const reports: CompressionReport[] = [];
  const manager = createContextManager({
    provider: new GarbageModel(),
    model: 'test-model',
    window,
    tools: () => SESSION_TOOLS,
    compressionModel: null,
    settings: { minAnswerTokens: 500 },
    onCompression: (r) => reports.push(r),
    ...(initialState && { initialState }),
  });
  return { manager, reports };
}

/** The session summary as sent: it opens the first message after the system prompt, before that message's own text. */
function summaryOf(out: readonly ChatMessage[]): string {
  const content = out[1]?.content ?? '';
  return content.startsWith('# Session summary') ? content.split('\n\n')[0]! : '';
}

test('when compression is not enough, the oldest rounds leave and a summary with the files touched opens the conversation', async () => {
  const history = scriptedSession({ messages: 100, seed: 11, fileChars: 1200 });
  const system = systemMessage();
  // 6k: the protected tail of this session alone does not fit a 4k window's 40% target.
  const { manager, reports } = setup(undefined, 6144);
  const out = await manager.prepareMessages([system, ...history], signal);

  const report = reports[0]!;
  assert.equal(report.method, 'eviction');
  assert.deepEqual(report.steps.map((s) => s.method), ['fallback', 'eviction']);
  assert.ok(report.evicted.length > 0);
  assert.ok(report.targetMet, `after ${report.tokensAfter}, target ${report.targetTokens}`);
  assert.ok(estimateMessagesTokens(out) + estimateToolDefinitionTokens(SESSION_TOOLS) <= 6144 * 0.4);
  assertValidOrder(out);

  // The system prompt is untouched (a server keeps it in its prompt cache); the summary opens the conversation.
  assert.equal(out[0], system);
  assert.match(summaryOf(out), /^# Session summary\n/);
  assert.ok(report.summary && summaryOf(out) === report.summary.text);
  // Files touched by evicted calls are named.
  const evictedFiles = report.evicted
    .flatMap((i) => history[i]!.toolCalls ?? [])
    .map((c) => (typeof c.arguments === 'string' ? JSON.parse(c.arguments) : c.arguments) as { path?: string })
    .flatMap((a) => (a.path ? [a.path] : []));
  assert.ok(evictedFiles.length > 0);
  for (const f of evictedFiles) assert.ok(report.summary.filesTouched.includes(f), `${f} is listed`);
  assert.match(report.summary.text, /Files touched: .*src\/module\d+\.ts \((read|modified)\)/);
  assert.match(report.summary.text, /- User: Please work on module/);

  // Evicted messages are gone from the prompt; the protected tail is all there.
  for (const i of report.evicted) assert.ok(!out.includes(history[i]!));
  for (let i = protectedStartOf(history, 5); i < history.length; i++) {
    if (history[i]!.role !== 'tool') assert.ok(out.includes(history[i]!), `protected ${i}`);
  }
  assert.equal(manager.status().evictedMessages, manager.state().evictedThrough);
});

test('the latest evicted user request stays in the prompt when the kept part starts mid-task', async () => {
  // One long task: a single user message, then many rounds.
  const history: ChatMessage[] = [{ role: 'user', content: 'Rename every module file to kebab case and fix the imports.' }];
  for (let i = 0; i < 40; i++) {
    history.push({ role: 'assistant', content: '', toolCalls: [{ id: `c${i}`, name: 'read_file', arguments: { path: `src/m${i}.ts` } }] });
    history.push({ role: 'tool', content: `src/m${i}.ts (60 lines):\n` + 'export const value = compute(input, options);\n'.repeat(60), toolCallId: `c${i}`, toolName: 'read_file' });
  }
  const { manager, reports } = setup();
  const out = await manager.prepareMessages([systemMessage(), ...history], signal);
  assert.equal(reports[0]!.method, 'eviction');
  assert.ok(reports[0]!.evicted.includes(1));
  assert.equal(out[1]!.content, `${summaryOf(out)}\n\n${history[0]!.content}`, 'the task is still the first message, after the summary');
  assert.equal(out[2]!.role, 'assistant');
  assertValidOrder(out);
});

test('a restart with the stored state and the stored compressed copies sends the same prompt, without summarising twice', async () => {
  const history = scriptedSession({ messages: 100, seed: 11, fileChars: 1200 });
  const system = systemMessage();
  const first = setup();
  const out = await first.manager.prepareMessages([system, ...history], signal);
  const report = first.reports[0]!;

  // What a store gives back after a restart: the model's view (compressed copies in their originals' places).
  const stored = history.map((m, i) => report.compressed.find((c) => c.index === i)?.compressed ?? m);
  const state = JSON.parse(JSON.stringify(first.manager.state())) as ReturnType<typeof first.manager.state>;
  const second = setup(state);
  const again = await second.manager.prepareMessages([system, ...stored], signal);

  assert.deepEqual(again, out);
  assert.equal(second.reports.length, 0, 'nothing new: no second compression');
});

test('a state that does not match the history is dropped instead of hiding the wrong messages', async () => {
  const history = scriptedSession({ messages: 100, seed: 11, fileChars: 1200 });
  const first = setup();
  await first.manager.prepareMessages([systemMessage(), ...history], signal);
  const other = scriptedSession({ messages: 8, seed: 99, fileChars: 300 });
  const second = setup(first.manager.state());
  const out = await second.manager.prepareMessages([systemMessage(), ...other], signal);
  assert.deepEqual(out.slice(1), other);
  assert.doesNotMatch(out.map((m) => m.content).join('\n'), /Session summary/);
});

// ── What the summary keeps of a real session (the note task, real tool results) ────────────────────────────

async function evictedNoteTask() {
  const { session, listing } = await noteTaskSession(12, 1500);
  const changes = [
    await session.call('move_file', { source: 'note-01.txt', destination: 'memo-01.txt' }),
    await session.call('move_file', { source: 'note-02.txt', destination: 'memo-01.txt' }),
    await session.call('edit_file', { path: 'src/module0.ts', old_text: '// Module 0: request handling helpers.', new_text: '// Module 0.' }),
  ];
  session.user(DEFAULT_POLICY_MESSAGES.continuation);
  const nudge = session.history.length - 1;
  for (let k = 1; k < 12; k++) await session.call('read_file', { path: `src/module${k}.ts` });
  const reports: CompressionReport[] = [];
  const manager = createContextManager({
    provider: new GarbageModel(),
    model: 'test-model',
    window: 4096,
    tools: () => SESSION_TOOLS,
    compressionModel: null,
    settings: { minAnswerTokens: 500 },
    onCompression: (r) => reports.push(r),
  });
  const out = await manager.prepareMessages([systemMessage(), ...session.history], signal);
  return { session, listing, changes, nudge, manager, out, report: reports[0]! };
}

test('evicted tool results are digests: every listed name, "a → b: ok", the error of a failed move', async () => {
  const { session, listing, changes, manager, out, report } = await evictedNoteTask();
  try {
    assert.equal(report.method, 'eviction');
    for (const i of [listing, ...changes]) assert.ok(report.evicted.includes(i), `#${i} was evicted`);
    const text = summaryOf(out);
    assert.match(text, /\n- Tool list_directory \.: Workspace root: 1 directory, 12 files: src\/, note-01\.txt, note-02\.txt, .*, note-12\.txt\n/);
    assert.equal(namesSeen([{ role: 'user', content: text }]).size, 12);
    assert.match(text, /\n- Tool move_file note-01\.txt → memo-01\.txt: ok\n/);
    // In a 4k window the rendered summary is short: what exists and what changed stay, a failed move may not.
    const stored = manager.state().summary!.lines;
    assert.ok(stored.some((l) => l.startsWith('Tool move_file note-02.txt → memo-01.txt: failed: Error: Destination "memo-01.txt" already exists;')), stored.join('\n'));
    assert.match(text, /\n- Tool edit_file src\/module0\.ts: Edited src\/module0\.ts: replaced 1 line; the new text is at line 1\.\n/);
    assert.doesNotMatch(text, /^- Tool read_file .*: ok$/m, 'no bare "ok" for a read');
    // Files changed come before files only read; the move's source is gone from its path.
    const files = /\nFiles touched: (.*)/.exec(text)![1]!;
    assert.match(files, /^src\/module0\.ts, memo-01\.txt \(modified\); note-01\.txt \(moved away\); (src\/module\d+\.ts, )*src\/module\d+\.ts \(read\)/);
    assert.doesNotMatch(files, /note-02\.txt/, 'a failed move touched nothing');
    // Work left: the open todos of the latest todo list.
    assert.match(text, /\nWork left \(open todos of the latest todo list, 1\/3 done\): 2\. \[~\] Rename each note after its kind; 3\. \[ \] Report what was renamed$/);
  } finally {
    await session.dispose();
  }
});

test("the user's request is pinned; the agent's own nudges are not requests", async () => {
  const { session, nudge, manager, out } = await evictedNoteTask();
  try {
    assert.ok(manager.state().evictedThrough > nudge, 'the nudge left with its rounds');
    const state = manager.state().summary!;
    assert.deepEqual(state.requests, [NOTE_TASK]);
    assert.ok(state.lines.some((l) => l.startsWith('User: You stopped before finishing.')), 'the nudge is an ordinary step');
    assert.match(summaryOf(out), /\nThe user's requests \(oldest first\):\n- User: Each note-NN\.txt in the workspace says/);
    // However small the summary must get, the request stays (the steps go first).
    const tiny = RunningSummary.from(state).render(10);
    assert.ok(tiny.includes(`- User: ${NOTE_TASK}`), tiny);
    assert.doesNotMatch(tiny, /- Tool /);
    assert.match(tiny, /Work left/);
  } finally {
    await session.dispose();
  }
});

test('pinned requests: huge ones are cut to head and tail, repeats kept once, the newest kept when space is short', () => {
  const huge = `Refactor the parser. ${'Keep the public API as it is and move the helpers into their own files. '.repeat(40)}Finally run the tests.`;
  const history: ChatMessage[] = [
    { role: 'user', content: 'Add a --verbose flag to the CLI.' },
    { role: 'assistant', content: 'Done: the flag is in src/cli/args.ts.' },
    { role: 'user', content: huge },
    { role: 'assistant', content: 'Working on it.' },
    { role: 'user', content: DEFAULT_POLICY_MESSAGES.empty },
    { role: 'user', content: 'Add a --verbose flag to the CLI.' },
    { role: 'assistant', content: 'It is already there.' },
  ];
  const summary = new RunningSummary();
  for (const unit of groupUnits(history)) summary.addUnit(history, unit, (i) => history[i]!);
  const requests = summary.userRequests();
  assert.equal(requests.length, 2, 'the repeated request is kept once, at its newest place');
  assert.ok(requests[0]!.startsWith('Refactor the parser. Keep the public API'));
  assert.ok(requests[0]!.endsWith('Finally run the tests.'), 'the tail of a huge request stays');
  assert.ok(requests[0]!.length <= REQUEST_CHARS + 5, `${requests[0]!.length}`);
  assert.equal(requests[1], 'Add a --verbose flag to the CLI.');
  // A cap too small even for the requests: the newest stays.
  const tiny = summary.render(5);
  assert.match(tiny, /- User: Add a --verbose flag to the CLI\./);
  assert.doesNotMatch(tiny, /Refactor the parser/);
  assert.match(tiny, /1 older ones not listed/);
  assert.match(summary.render(400), /- User: Refactor the parser\./);
  assert.ok(summary.toState().lines.includes(`User: ${DEFAULT_POLICY_MESSAGES.empty}`), 'the nudge is a step, not a request');
  assert.equal(isNudge('Your tool call could not be run:\n- "arguments" must be a JSON object'), true);
  assert.equal(isNudge('You have called read_file with the same arguments 3 times in a row; the result will not change.'), true);
  assert.equal(isNudge('Continue with the next file, please.'), false);
});

test('the summary state is stored backward-compatibly: old states load, new fields survive a round trip', async () => {
  const old = decodeContextState(JSON.stringify({ evictedThrough: 3, summary: { lines: ['User: Fix the bug', 'Tool read_file src/a.ts: ok'], omitted: 2, files: [['src/a.ts', 'read']] } }));
  assert.ok(old?.summary, 'a state stored before requests and todos were kept still loads');
  const text = RunningSummary.from(old.summary).render(400);
  assert.match(text, /- \(2 earlier steps not listed\)\n- User: Fix the bug\n- Tool read_file src\/a\.ts: ok\nFiles touched: src\/a\.ts \(read\)$/);

  const { session, manager } = await evictedNoteTask();
  try {
    const state = manager.state();
    const back = decodeContextState(encodeContextState(state));
    assert.deepEqual(back, JSON.parse(JSON.stringify(state)));
    assert.deepEqual(back?.summary?.todos?.map((t) => t.status), ['done', 'in_progress', 'pending']);
    assert.ok(back?.summary?.files.some(([p, t]) => p === 'note-01.txt' && t === 'moved'));
    assert.equal(RunningSummary.from(back!.summary).render(800), RunningSummary.from(state.summary).render(800));
  } finally {
    await session.dispose();
  }
});
