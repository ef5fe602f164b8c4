import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkToolDefinition, type CheckedTool } from '../../../src/mcp/toolSchema';

function valid(raw: unknown): Extract<CheckedTool, { ok: true }> {
  const checked = checkToolDefinition(raw);
  assert.ok(checked.ok, `expected a valid tool, got: ${checked.ok ? '' : checked.reason}`);
  return checked;
}

function invalid(raw: unknown): string {
  const checked = checkToolDefinition(raw);
  assert.ok(!checked.ok, 'expected the tool to be rejected');
  return checked.reason;
}

const schema = {
  type: 'object',
  properties: {
    path: { type: 'string', minLength: 1 },
    mode: { type: 'string', enum: ['fast', 'slow'] },
    count: { type: 'integer', minimum: 1, maximum: 10 },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['path'],
  additionalProperties: false,
};

test('valid arguments pass; each violation is named precisely', () => {
  const { validate, tool } = valid({ name: 'search', description: 'Search.', inputSchema: schema, annotations: { readOnlyHint: true } });
  assert.equal(tool.annotations?.readOnlyHint, true);
  assert.equal(validate({ path: 'a', mode: 'fast', count: 3, tags: ['x'] }), undefined);
  assert.match(validate({})!, /"path" is required \(expected string\)/);
  assert.match(validate({ path: 'a', mode: 'medium' })!, /"mode": Invalid option: expected one of "fast"\|"slow"/);
  assert.match(validate({ path: 'a', count: 11 })!, /"count": Too big: expected number to be <=10/);
  assert.match(validate({ path: 'a', count: 1.5 })!, /"count": .*int/i);
  assert.match(validate({ path: 'a', tags: ['x', 2] })!, /"tags\.1": Invalid input: expected string, received number/);
  assert.match(validate({ path: 'a', colour: 'red' })!, /arguments: unknown property "colour"/);
});

test('the schema that reaches the model is the server\'s, untouched', () => {
  const { tool } = valid({ name: 't', inputSchema: schema });
  assert.equal(tool.inputSchema, schema);
});

test('broken definitions are rejected with the reason', () => {
  assert.match(invalid({ description: 'x', inputSchema: { type: 'object' } }), /no name/);
  assert.match(invalid({ name: 'a' }), /no inputSchema/);
  assert.match(invalid({ name: 'a', inputSchema: [] }), /not a JSON object/);
  assert.match(invalid({ name: 'a', inputSchema: { type: 'string' } }), /inputSchema\.type must be "object", got "string"/);
  assert.match(invalid({ name: 'a', inputSchema: { type: 'object', properties: { x: { type: 'strnig' } } } }), /inputSchema\.properties\.x\.type has an unknown type "strnig"/);
  assert.match(invalid({ name: 'a', inputSchema: { type: 'object', required: 'x' } }), /inputSchema\.required must be an array/);
  assert.match(invalid({ name: 'a', inputSchema: { type: 'object', properties: { x: { anyOf: {} } } } }), /anyOf must be an array/);
  assert.match(invalid({ name: 'a', inputSchema: { type: 'object', properties: { x: { type: 'string', maxLength: '5' } } } }), /maxLength must be a number/);
  assert.match(invalid({ name: 'a', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } }), /only run as an MCP task/);
  assert.match(invalid({ name: 'a', inputSchema: { type: 'object', description: 'x'.repeat(120_000) } }), /KB, more than/);
  assert.match(invalid('nope'), /not an object/);
});

test('draft-07 "definitions" references are followed', () => {
  const { validate } = valid({
    name: 'tree',
    inputSchema: {
      type: 'object',
      properties: { node: { $ref: '#/definitions/Node' } },
      required: ['node'],
      definitions: { Node: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] } },
    },
  });
  assert.equal(validate({ node: { label: 'x' } }), undefined);
  assert.match(validate({ node: {} })!, /"node\.label" is required/);
});

test('keywords zod cannot express are left to the server, with a warning, and the rest is still checked', () => {
  const checked = valid({
    name: 'cond',
    inputSchema: { type: 'object', properties: { a: { type: 'string', not: { const: 'x' } }, b: { type: 'number' } }, required: ['b'] },
  });
  assert.match(checked.warning ?? '', /checked by the server only/);
  assert.match(checked.validate({ a: 'x' })!, /"b" is required/);
  assert.equal(checked.validate({ a: 'x', b: 1 }), undefined);
});
