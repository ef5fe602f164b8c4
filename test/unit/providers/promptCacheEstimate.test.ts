// Where a server does not report its reused prompt tokens, the provider estimates them from how much of the request
// matched the previous one to the same model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatMessage, ToolDefinition } from '../../../src/core/messages';
import { PromptCacheEstimate } from '../../../src/providers/promptCacheEstimate';

const tools: ToolDefinition[] = [{ name: 'read_file', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
const system: ChatMessage = { role: 'system', content: 'You are a coding agent. '.repeat(20) };
const user: ChatMessage = { role: 'user', content: 'Read a.txt and b.txt, then tell me what they say.' };

test('the first request reuses nothing; an appended one reuses what it shares with the last', () => {
  const estimate = new PromptCacheEstimate();
  assert.equal(estimate.begin('m', [system, user], tools)(1000), 0);
  const call: ChatMessage = { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'a.txt' } }] };
  const result: ChatMessage = { role: 'tool', content: 'alpha', toolCallId: 'c1', toolName: 'read_file' };
  const reused = estimate.begin('m', [system, user, call, result], tools)(1000);
  assert.ok(reused > 800 && reused < 1000, `${reused}`);
});

test('a changed system prompt reuses almost nothing; the same request again nearly all', () => {
  const estimate = new PromptCacheEstimate();
  estimate.begin('m', [system, user], tools);
  assert.ok(estimate.begin('m', [{ role: 'system', content: `Working context: a.txt\n${system.content}` }, user], tools)(1000) < 50);
  estimate.begin('m', [system, user], tools);
  assert.equal(estimate.begin('m', [system, user], tools)(1000), 1000);
});

test('the context added to a message counts as part of it; each model has its own cached prompt', () => {
  const estimate = new PromptCacheEstimate();
  estimate.begin('a', [system, { ...user, context: '# Working context\nFiles you read: a.txt' }], tools);
  estimate.begin('b', [system, { role: 'user', content: 'Something else entirely.' }], tools);
  assert.equal(estimate.begin('a', [system, { ...user, context: '# Working context\nFiles you read: a.txt' }], tools)(500), 500);
});

test('nothing is rendered until an estimate is asked for; a request never estimated still counts as the previous one', () => {
  const estimate = new PromptCacheEstimate();
  let reads = 0;
  const counted = (content: string): ChatMessage => ({
    role: 'user',
    get content() {
      reads++;
      return content;
    },
  });
  const first = counted('Read a.txt and b.txt, then tell me what they say.');
  estimate.begin('m', [system, first], tools);
  const second = counted('And c.txt.');
  const reused = estimate.begin('m', [system, first, second], tools);
  assert.equal(reads, 0, 'a server that reports its cached count never makes the estimate render the request');
  const n = reused(1000);
  assert.ok(reads > 0);
  assert.ok(n > 900 && n < 1000, `${n}: the unestimated first request is what the second is compared with`);
});
