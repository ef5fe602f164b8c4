import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sanitizeToolName, TOOL_NAME_PATTERN, uniqueToolName } from '../../../src/mcp/toolNames';

test('names become server__tool with only letters, digits, _ and -', () => {
  assert.equal(sanitizeToolName('fs', 'read_file'), 'fs__read_file');
  assert.equal(sanitizeToolName('my server', 'get.tiny image!'), 'my_server__get_tiny_image_');
  assert.equal(sanitizeToolName('ev', 'get-sum'), 'ev__get-sum');
  assert.equal(sanitizeToolName('ü', 'ß'), '____');
});

test('long names are cut to 64 characters and stay valid', () => {
  const name = sanitizeToolName('server'.repeat(10), 'tool'.repeat(20));
  assert.equal(name.length, 64);
  assert.match(name, TOOL_NAME_PATTERN);
});

test('duplicates get _2, _3 … within 64 characters', () => {
  const taken = new Set(['a__b', 'a__b_2']);
  assert.equal(uniqueToolName('a__b', (n) => taken.has(n)), 'a__b_3');
  const long = 'x'.repeat(64);
  const unique = uniqueToolName(long, (n) => n === long);
  assert.equal(unique, `${'x'.repeat(62)}_2`);
  assert.match(unique, TOOL_NAME_PATTERN);
});
