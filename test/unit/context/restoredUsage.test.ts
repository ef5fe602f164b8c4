import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatMessage } from '../../../src/core/messages';
import { restoredContextTokens } from '../../../src/core/compression/restoredUsage';
import { estimateMessageTokens } from '../../../src/core/tokens';

const history: ChatMessage[] = [
  { role: 'user', content: 'Rename the config loader and update its callers.' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'src/config.ts' } }] },
  { role: 'tool', content: 'export function loadConfig() {\n'.repeat(80), toolCallId: 'c1', toolName: 'read_file' },
  { role: 'assistant', content: 'I renamed loadConfig to readConfig in three files.' },
];

test('a restored conversation is measured from its messages, not left at 0', () => {
  const tokens = restoredContextTokens(history, undefined);
  const messages = history.reduce((n, m) => n + estimateMessageTokens(m), 0);
  assert.ok(tokens >= messages, `${tokens} < ${messages}`);
  assert.ok(tokens < messages + 50, `${tokens} is far above the messages' ${messages}`);
});

test('evicted messages do not count; the running summary does', () => {
  const full = restoredContextTokens(history, undefined);
  const evicted = restoredContextTokens(history, {
    evictedThrough: 3,
    summary: { lines: ['read src/config.ts (80 lines)'], omitted: 0, files: [], requests: ['Rename the config loader and update its callers.'] },
  });
  assert.ok(evicted < full, `${evicted} should be below ${full}`);
  assert.ok(evicted > estimateMessageTokens(history[3]!), 'the summary and the last message remain');
});

test('an empty conversation is 0; the system prompt is counted when given', () => {
  assert.equal(restoredContextTokens([], undefined), 0);
  const withSystem = restoredContextTokens(history, undefined, 'You are a coding agent. '.repeat(40));
  assert.ok(withSystem > restoredContextTokens(history, undefined) + 100);
});
