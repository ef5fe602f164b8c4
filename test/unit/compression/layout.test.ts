// The pieces under compression: units that move together, the protected tail, tool-result metadata.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeLayout, groupUnits, protectedStartOf } from '../../../src/core/compression/compressionUnits';
import { describeMeta, toolResultMeta } from '../../../src/core/compression/metadata';
import { clip, shortenToolCalls } from '../../../src/core/compression/marker';
import type { ChatMessage } from '../../../src/core/messages';

const u = (content: string): ChatMessage => ({ role: 'user', content });
const a = (content: string, calls: Array<[string, string, Record<string, unknown>]> = []): ChatMessage => ({
  role: 'assistant',
  content,
  ...(calls.length && { toolCalls: calls.map(([id, name, args]) => ({ id, name, arguments: JSON.stringify(args) })) }),
});
const t = (id: string, name: string, content: string): ChatMessage => ({ role: 'tool', content, toolCallId: id, toolName: name });

const history: ChatMessage[] = [
  u('task'), // 0
  a('', [['c1', 'read_file', { path: 'a.ts' }], ['c2', 'read_file', { path: 'b.ts', start_line: 5, end_line: 9 }]]), // 1
  t('c1', 'read_file', 'a.ts (3 lines):\nx\ny\nz'), // 2
  t('c2', 'read_file', 'b.ts lines 5-9 of 40:\n...'), // 3
  a('', [['c3', 'run_command', { command: 'npm test' }]]), // 4
  t('c3', 'run_command', 'FAIL\n[Exit code 1.]'), // 5
  a('Fixed it.'), // 6
  u('thanks, now b'), // 7
  a('Sure.'), // 8
];

test('an assistant message and its tool results form one unit', () => {
  assert.deepEqual(
    groupUnits(history).map((x) => [x.start, x.end, x.kind]),
    [[0, 1, 'user'], [1, 4, 'assistant'], [4, 6, 'assistant'], [6, 7, 'assistant'], [7, 8, 'user'], [8, 9, 'assistant']],
  );
});

test('pairs: a user message with its answer, or a new round after tool results', () => {
  // Pair starts: 0 (user), 4 (round after results), 6 (after results), 7 (user). 1 and 8 answer a user message.
  assert.equal(protectedStartOf(history, 1), 7);
  assert.equal(protectedStartOf(history, 2), 6);
  assert.equal(protectedStartOf(history, 3), 4);
  assert.equal(protectedStartOf(history, 4), 0);
  assert.equal(protectedStartOf(history, 10), 0);
  assert.equal(protectedStartOf(history, 0), history.length);
  const layout = computeLayout(history, 2, 2);
  assert.equal(layout.freshStart, 8, 'the latest assistant unit');
  assert.equal(layout.keepWholeStart, 7, 'the last two units');
});

test('tool result metadata comes from the call arguments and the result itself', () => {
  assert.equal(describeMeta(toolResultMeta(history, 2)), 'read_file a.ts lines all 3 (21 chars, 4 lines)');
  assert.equal(describeMeta(toolResultMeta(history, 3)), 'read_file b.ts lines 5-9 of 40 (25 chars, 2 lines)');
  const run = toolResultMeta(history, 5);
  assert.equal(run.exitCode, 1);
  assert.equal(run.failed, true);
  assert.equal(describeMeta(run), 'run_command `npm test` exit code 1 (19 chars, 2 lines)');
});

test('long tool-call arguments are cut, ids and short values stay', () => {
  const calls = [{ id: 'w', name: 'write_file', arguments: { path: 'a.ts', content: 'x'.repeat(500) } }];
  const short = shortenToolCalls(calls, 200);
  assert.equal(short[0]!.id, 'w');
  const args = short[0]!.arguments as { path: string; content: string };
  assert.equal(args.path, 'a.ts');
  assert.equal(args.content, 'x'.repeat(200) + '… [300 more characters compressed]');
  const untouched = [{ id: 'r', name: 'read_file', arguments: '{"path":"a.ts"}' }];
  assert.equal(shortenToolCalls(untouched, 200), untouched);
  assert.equal(clip('alpha beta gamma delta', 13), 'alpha beta…', 'backs off to a word boundary when one is near');
  assert.equal(clip('one two three four', 12), 'one two thre…', 'and cuts mid-word when none is');
});
