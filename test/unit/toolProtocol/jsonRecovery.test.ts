import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recoverJsonToolCalls } from '../../../src/core/toolProtocol/jsonRecovery';
import type { ToolCall } from '../../../src/core/messages';

// Stands in for the registry: read_file needs a string path.
const isValid = (call: ToolCall) => {
  if (call.name !== 'read_file') return false;
  const args = typeof call.arguments === 'string' ? JSON.parse(call.arguments) : call.arguments;
  return typeof args.path === 'string';
};
let n = 0;
const newId = () => `r${++n}`;

test('a bare JSON call in the text is recovered and removed from the text', () => {
  const r = recoverJsonToolCalls('Reading it now.\n{"name": "read_file", "arguments": {"path": "a.txt"}}', isValid, newId);
  assert.equal(r.calls.length, 1);
  assert.equal(r.calls[0]!.name, 'read_file');
  assert.deepEqual(r.calls[0]!.arguments, { path: 'a.txt' });
  assert.equal(r.text, 'Reading it now.');
});

test('a fenced call is recovered with its fence', () => {
  const r = recoverJsonToolCalls('```json\n{"name": "read_file", "arguments": {"path": "b"}}\n```', isValid, newId);
  assert.equal(r.calls.length, 1);
  assert.equal(r.text, '');
});

test('OpenAI-shaped and string-argument calls are recovered too', () => {
  const a = recoverJsonToolCalls('{"type": "function", "function": {"name": "read_file", "arguments": "{\\"path\\": \\"c\\"}"}}', isValid, newId);
  assert.equal(a.calls.length, 1);
  assert.equal(a.calls[0]!.arguments, '{"path": "c"}');
  const b = recoverJsonToolCalls('<tool_call>{"name": "read_file", "parameters": {"path": "d"}}</tool_call>', isValid, newId);
  assert.equal(b.calls.length, 1);
  assert.equal(b.text, '');
});

test('JSON that is not a runnable call stays text', () => {
  for (const text of [
    'Config: {"name": "app", "version": "1.0"}',
    '{"name": "read_file", "arguments": {"file": "a"}}', // invalid arguments
    '{"name": "delete_all", "arguments": {}}', // not offered
    'Use read_file like this: {"name": "read_file"}', // no arguments: data, not a call
    '```ts\nconst x = {"name": "read_file", "arguments": {"path": "a"}};\n```',
    'Not JSON: {name: read_file}',
  ]) {
    const r = recoverJsonToolCalls(text, isValid, newId);
    assert.equal(r.calls.length, 0, text);
    assert.equal(r.text, text);
  }
});
