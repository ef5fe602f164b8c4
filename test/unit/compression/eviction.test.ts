// Eviction into the running session summary, and restoring it after a restart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createContextManager } from '../../../src/core/context/contextManager';
import type { CompressionReport } from '../../../src/core/compression/compressor';
import { protectedStartOf } from '../../../src/core/compression/layout';
import type { ChatMessage } from '../../../src/core/messages';
import { estimateMessagesTokens, estimateToolDefinitionTokens } from '../../../src/core/tokens';
import { GarbageModel } from './compressionModels';
import { assertValidOrder } from './assertions';
import { SESSION_TOOLS, scriptedSession, systemMessage } from './sessionFixture';

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

test('when compression is not enough, the oldest rounds leave and a summary with the files touched joins the system prompt', async () => {
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

  // The summary joins the system prompt, after the instructions.
  assert.ok(out[0]!.content.startsWith(system.content));
  assert.match(out[0]!.content, /# Session summary\n/);
  assert.ok(report.summary && out[0]!.content.endsWith(report.summary.text));
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
  assert.equal(out[1], history[0], 'the task is still the first message');
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
  assert.doesNotMatch(out[0]!.content, /Session summary/);
});
