import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toTextProtocolMessages } from '../../../src/core/toolProtocol/textMessages';
import { renderTextProtocolPart, TEXT_PROTOCOL_HEADER } from '../../../src/core/toolProtocol/textPrompt';
import { ToolIndex } from '../../../src/core/toolProtocol/toolIndex';
import { resolveToolProtocol, isToolsUnsupportedError } from '../../../src/core/toolProtocol/protocolSetting';
import { ProviderError } from '../../../src/core/provider';
import type { ChatMessage, ToolDefinition } from '../../../src/core/messages';
import { ScriptedProvider } from '../resilience/scriptedProvider';

const TOOLS: ToolDefinition[] = [
  {
    name: 'read_file',
    description: 'Read a text file.',
    parameters: { type: 'object', properties: { path: { type: 'string', description: 'Relative path' }, start_line: { type: 'integer' } }, required: ['path'] },
  },
  {
    name: 'todo_write',
    description: 'Replace the todo list.',
    parameters: {
      type: 'object',
      properties: { todos: { type: 'array', items: { type: 'object', properties: { text: { type: 'string' }, status: { enum: ['pending', 'done'] } }, required: ['text'] } } },
      required: ['todos'],
    },
  },
];

test('the prompt part lists compact signatures, parameter notes and the exact call format', () => {
  const text = renderTextProtocolPart(new ToolIndex(TOOLS));
  assert.ok(text.startsWith(TEXT_PROTOCOL_HEADER));
  assert.match(text, /- read_file\(path: string, start_line\?: integer\): Read a text file\./);
  assert.match(text, /path: Relative path/);
  assert.match(text, /todo_write\(todos: \{text: string, status\?: "pending"\|"done"\}\[\]\)/);
  assert.match(text, /<tool>\{"server_name":"local","tool_name":"read_file","arguments":\{"path":"…"\}\}<\/tool>/);
  assert.equal(renderTextProtocolPart(new ToolIndex([])), '');
});

test('history is rewritten so a model without tool calling can read it', () => {
  const history: ChatMessage[] = [
    { role: 'system', content: 'You are helpful.' },
    { role: 'user', content: 'Read a.txt' },
    { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a.txt"}' }] },
    { role: 'tool', content: 'hello', toolCallId: 'c1', toolName: 'read_file' },
    { role: 'user', content: 'You stopped before finishing.' },
  ];
  const out = toTextProtocolMessages(history, { systemPart: '# Calling tools\n...' });
  assert.deepEqual(
    out.map((m) => m.role),
    ['system', 'user', 'assistant', 'user'],
  );
  assert.equal(out[0]!.content, 'You are helpful.\n\n# Calling tools\n...');
  assert.equal(out[2]!.content, 'Reading.\n<tool>{"server_name":"local","tool_name":"read_file","arguments":{"path":"a.txt"}}</tool>');
  assert.equal(out[2]!.toolCalls, undefined);
  assert.equal(out[3]!.content, '[Result of read_file]\nhello\n\nYou stopped before finishing.');
  assert.equal(out.some((m) => m.role === 'tool'), false);
  // The input is left alone, and the part is not added twice.
  assert.equal(history[0]!.content, 'You are helpful.');
  const again = toTextProtocolMessages([{ role: 'system', content: `base\n\n${TEXT_PROTOCOL_HEADER}\nx` }], { systemPart: `${TEXT_PROTOCOL_HEADER}\nx` });
  assert.equal(again[0]!.content, `base\n\n${TEXT_PROTOCOL_HEADER}\nx`);
});

test('auto picks native when the server reports the tools capability, xml when it does not', async () => {
  const signal = new AbortController().signal;
  const withTools = new ScriptedProvider([], { modelInfo: { name: 'qwen', capabilities: ['completion', 'tools'] } });
  assert.equal(await resolveToolProtocol('auto', withTools, 'qwen', signal), 'native');
  const without = new ScriptedProvider([], { modelInfo: { name: 'gemma', capabilities: ['completion'] } });
  assert.equal(await resolveToolProtocol('auto', without, 'gemma', signal), 'xml');
  // No capabilities reported (LM Studio, llama.cpp): go by the provider.
  const unknown = new ScriptedProvider([], { modelInfo: { name: 'x' }, capabilities: { tools: false } });
  assert.equal(await resolveToolProtocol('auto', unknown, 'x', signal), 'xml');
  const failing = new ScriptedProvider([], { modelInfo: new ProviderError('http', 'HTTP 404', { status: 404 }) });
  assert.equal(await resolveToolProtocol('auto', failing, 'x', signal), 'native');
  // A forced setting never asks the server.
  const forced = new ScriptedProvider([], { modelInfo: { name: 'qwen', capabilities: ['tools'] } });
  assert.equal(await resolveToolProtocol('xml', forced, 'qwen', signal), 'xml');
  assert.equal(forced.modelInfoCalls, 0);
});

test('isToolsUnsupportedError recognises the Ollama refusal only', () => {
  assert.equal(isToolsUnsupportedError(new ProviderError('http', 'Ollama answered HTTP 400: registry.ollama.ai/library/gemma:2b does not support tools.', { status: 400 })), true);
  assert.equal(isToolsUnsupportedError(new ProviderError('http', 'HTTP 500: does not support tools', { status: 500 })), false);
  assert.equal(isToolsUnsupportedError(new ProviderError('http', 'HTTP 400: bad request', { status: 400 })), false);
  assert.equal(isToolsUnsupportedError(new Error('does not support tools')), false);
});
