import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseToolBlock, toolBlockFeedback } from '../../../src/core/toolProtocol/toolBlock';
import { ToolIndex } from '../../../src/core/toolProtocol/toolIndex';
import type { ToolDefinition } from '../../../src/core/messages';

const TOOLS: ToolDefinition[] = [
  { name: 'read_file', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'write_file', description: 'Write a file.', parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] } },
  { name: 'notes__search', description: 'Search notes.', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
];
const naming = (name: string) => (name.includes('__') ? { server: name.split('__')[0]!, tool: name.split('__')[1]! } : { server: 'local', tool: name });
const index = new ToolIndex(TOOLS, naming);
let n = 0;
const newId = () => `id${++n}`;

test('a well-formed block becomes a tool call', () => {
  const r = parseToolBlock('{"server_name": "local", "tool_name": "read_file", "arguments": {"path": "a.txt"}}', index, newId);
  assert.deepEqual(r.errors, []);
  assert.equal(r.calls.length, 1);
  assert.equal(r.calls[0]!.name, 'read_file');
  assert.deepEqual(r.calls[0]!.arguments, { path: 'a.txt' });
});

test('MCP tools resolve through their server name', () => {
  const r = parseToolBlock('{"server_name": "notes", "tool_name": "search", "arguments": {"query": "x"}}', index, newId);
  assert.equal(r.calls[0]?.name, 'notes__search');
});

test('lenient on what weak models get wrong: fences, trailing commas, string arguments, missing server, arrays', () => {
  const fenced = parseToolBlock('```json\n{"server_name": "local", "tool_name": "read_file", "arguments": {"path": "a",},}\n```', index, newId);
  assert.deepEqual(fenced.calls[0]?.arguments, { path: 'a' });
  const stringArgs = parseToolBlock('{"tool_name": "read_file", "arguments": "{\\"path\\": \\"b\\"}"}', index, newId);
  assert.deepEqual(stringArgs.calls[0]?.arguments, { path: 'b' });
  const wrongServer = parseToolBlock('{"server_name": "filesystem", "tool_name": "read_file", "arguments": {"path": "c"}}', index, newId);
  assert.equal(wrongServer.calls[0]?.name, 'read_file');
  const hermes = parseToolBlock('{"name": "read_file", "arguments": {"path": "d"}}', index, newId);
  assert.equal(hermes.calls[0]?.name, 'read_file');
  const two = parseToolBlock('[{"tool_name": "read_file", "arguments": {"path": "e"}}, {"tool_name": "read_file", "arguments": {"path": "f"}}]', index, newId);
  assert.equal(two.calls.length, 2);
  const noArgs = parseToolBlock('{"server_name": "local", "tool_name": "read_file"}', index, newId);
  assert.deepEqual(noArgs.calls[0]?.arguments, {}); // the registry then says which argument is missing
});

test('bad JSON gives a ParseError that quotes the problem', () => {
  const r = parseToolBlock('{"tool_name": "read_file", "arguments": {path: "a"}}', index, newId);
  assert.equal(r.calls.length, 0);
  assert.equal(r.errors[0]?.kind, 'parse_error');
  assert.match(r.errors[0]!.message, /not valid JSON/);
  assert.match(r.errors[0]!.message, /\{path: "a"\}/);
  assert.equal(parseToolBlock('   ', index, newId).errors[0]?.kind, 'parse_error');
});

test('a missing tool_name gives a MissingField error naming the fields that are there', () => {
  const r = parseToolBlock('{"server_name": "local", "arguments": {"path": "a"}}', index, newId);
  assert.equal(r.errors[0]?.kind, 'missing_field');
  assert.match(r.errors[0]!.message, /missing "tool_name"/);
  assert.match(r.errors[0]!.message, /"server_name", "arguments"/);
});

test('an unknown tool gives ToolNotFound with the available tools', () => {
  const r = parseToolBlock('{"server_name": "local", "tool_name": "delete_everything", "arguments": {}}', index, newId);
  assert.equal(r.errors[0]?.kind, 'tool_not_found');
  assert.match(r.errors[0]!.message, /no tool "delete_everything" on server "local"/);
  assert.match(r.errors[0]!.message, /read_file, write_file, notes\/search/);
});

test('arguments that are not an object are an invalid field', () => {
  assert.equal(parseToolBlock('{"tool_name": "read_file", "arguments": [1]}', index, newId).errors[0]?.kind, 'invalid_field');
  assert.equal(parseToolBlock('{"tool_name": "read_file", "arguments": "a.txt"}', index, newId).errors[0]?.kind, 'invalid_field');
  assert.equal(parseToolBlock('"read_file"', index, newId).errors[0]?.kind, 'invalid_field');
});

test('feedback lists every problem and shows the exact format', () => {
  const errors = [
    ...parseToolBlock('{bad', index, newId).errors,
    ...parseToolBlock('{"tool_name": "nope", "arguments": {}}', index, newId).errors,
  ];
  const text = toolBlockFeedback(errors, index);
  assert.match(text, /not valid JSON/);
  assert.match(text, /no tool "nope"/);
  assert.match(text, /<tool>\{"server_name":"local","tool_name":"read_file","arguments":\{"path":"…"\}\}<\/tool>/);
});
