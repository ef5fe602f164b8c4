import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { toOpenAIMessages, toOpenAITools } from '../../../src/providers/openaiMessages';
import { argumentsObject, RAW_ARGUMENTS_KEY, toOllamaMessages, toOllamaTools } from '../../../src/providers/ollamaMessages';
import type { ChatMessage } from '../../../src/core/messages';

const history: ChatMessage[] = [
  { role: 'system', content: 'sys' },
  { role: 'user', content: 'hi' },
  { role: 'assistant', content: 'Let me check.', thinking: 'hidden', toolCalls: [{ id: 'c1', name: 'ls', arguments: { path: '.' } }] },
  { role: 'tool', content: 'a.ts', toolCallId: 'c1', toolName: 'ls' },
  { role: 'assistant', content: 'Done.' },
];

describe('OpenAI message mapping', () => {
  test('maps every role; arguments become strings; text beside tool calls is kept', () => {
    assert.deepEqual(toOpenAIMessages(history), [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: 'Let me check.',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'a.ts' },
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  test('a tool result without toolCallId is a clear error', () => {
    assert.throws(() => toOpenAIMessages([{ role: 'tool', content: 'x' }]), /tool result without toolCallId/);
  });

  test('tools use the {type:function, function:{…}} shape', () => {
    assert.deepEqual(toOpenAITools([{ name: 'ls', description: 'List', parameters: { type: 'object' } }]), [
      { type: 'function', function: { name: 'ls', description: 'List', parameters: { type: 'object' } } },
    ]);
  });
});

describe('Ollama message mapping', () => {
  test('maps every role; arguments become objects; tool results carry tool_name', () => {
    assert.deepEqual(toOllamaMessages(history), [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Let me check.', tool_calls: [{ function: { name: 'ls', arguments: { path: '.' } } }] },
      { role: 'tool', content: 'a.ts', tool_name: 'ls' },
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  test('string arguments: parsed when they are a JSON object, wrapped raw otherwise, empty is {}', () => {
    assert.deepEqual(argumentsObject('{"a":1}'), { a: 1 });
    assert.deepEqual(argumentsObject('  '), {});
    assert.deepEqual(argumentsObject('{"a":'), { [RAW_ARGUMENTS_KEY]: '{"a":' });
    assert.deepEqual(argumentsObject('[1,2]'), { [RAW_ARGUMENTS_KEY]: '[1,2]' });
    assert.deepEqual(argumentsObject({ b: 2 }), { b: 2 });
  });

  test('tools use the {type:function, function:{…}} shape', () => {
    assert.deepEqual(toOllamaTools([{ name: 'ls', description: 'List', parameters: { type: 'object', properties: {} } }]), [
      { type: 'function', function: { name: 'ls', description: 'List', parameters: { type: 'object', properties: {} } } },
    ]);
  });
});
