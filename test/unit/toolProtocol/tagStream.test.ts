import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TagStreamSplitter, type TagSegment } from '../../../src/core/toolProtocol/tagStream';

function run(splitter: TagStreamSplitter, chunks: string[]) {
  const segments: TagSegment[] = [];
  for (const c of chunks) segments.push(...splitter.push(c));
  const end = splitter.end();
  segments.push(...end.segments);
  const text = segments.filter((s) => s.kind === 'text').map((s) => (s as { text: string }).text).join('');
  const blocks = segments.filter((s) => s.kind === 'block').map((s) => (s as { content: string }).content);
  const parts = segments.filter((s) => s.kind === 'block_part').map((s) => (s as { text: string }).text).join('');
  return { text, blocks, parts, unterminated: end.unterminated, segments };
}

/** Every way to cut the input into two chunks, plus one character at a time. */
function cuts(input: string): string[][] {
  const out: string[][] = [[input], [...input]];
  for (let i = 1; i < input.length; i++) out.push([input.slice(0, i), input.slice(i)]);
  return out;
}

const TOOL_TEXT = 'I will read it.\n<tool>{"server_name": "local", "tool_name": "read_file", "arguments": {"path": "a.txt"}}</tool>\nThen <b>bold</b> <to';

test('tool blocks are found and hidden however the stream is cut', () => {
  for (const chunks of cuts(TOOL_TEXT)) {
    const r = run(new TagStreamSplitter({ tags: ['tool', 'tool_call'], jsonAware: true }), chunks);
    assert.equal(r.text, 'I will read it.\n\nThen <b>bold</b> <to', JSON.stringify(chunks));
    assert.deepEqual(r.blocks, ['{"server_name": "local", "tool_name": "read_file", "arguments": {"path": "a.txt"}}']);
    assert.equal(r.unterminated, undefined);
  }
});

test('plain text is released as soon as it cannot start a tag', () => {
  const s = new TagStreamSplitter({ tags: ['tool'] });
  assert.deepEqual(s.push('Hello <'), [{ kind: 'text', text: 'Hello ' }]);
  assert.deepEqual(s.push('b> world'), [{ kind: 'text', text: '<b> world' }]);
});

test('a closing tag inside a JSON string does not close the block', () => {
  const content = '{"tool_name": "write_file", "arguments": {"path": "x.xml", "content": "<tool>\\"a\\"</tool>"}}';
  for (const chunks of cuts(`<tool>${content}</tool>done`)) {
    const r = run(new TagStreamSplitter({ tags: ['tool'], jsonAware: true }), chunks);
    assert.deepEqual(r.blocks, [content]);
    assert.equal(r.text, 'done');
  }
});

test('<tool_call> blocks close with their own tag', () => {
  const r = run(new TagStreamSplitter({ tags: ['tool', 'tool_call'], jsonAware: true }), ['<tool_call>{"name": "x"}</tool_call>ok']);
  assert.deepEqual(r.blocks, ['{"name": "x"}']);
  assert.equal(r.text, 'ok');
});

test('an unclosed block is reported at the end', () => {
  const r = run(new TagStreamSplitter({ tags: ['tool'], jsonAware: true }), ['a <tool>{"tool_name": "x", "arguments": {}}']);
  assert.equal(r.text, 'a ');
  assert.deepEqual(r.unterminated, { tag: 'tool', content: '{"tool_name": "x", "arguments": {}}' });
});

test('broken JSON quoting still closes at the first plain closing tag', () => {
  const r = run(new TagStreamSplitter({ tags: ['tool'], jsonAware: true }), ['<tool>{"tool_name": "x", "a": "oops}</tool> after <tool>{"b": 1}</tool>']);
  assert.deepEqual(r.blocks, ['{"tool_name": "x", "a": "oops}', '{"b": 1}']);
  assert.equal(r.text, ' after ');
  assert.equal(r.unterminated, undefined);
});

test('think blocks stream their content as it arrives', () => {
  for (const chunks of cuts('<think>step one</think>Answer')) {
    const r = run(new TagStreamSplitter({ tags: ['think'], streamBlocks: true }), chunks);
    assert.equal(r.parts, 'step one', JSON.stringify(chunks));
    assert.equal(r.text, 'Answer');
  }
  const s = new TagStreamSplitter({ tags: ['think'], streamBlocks: true });
  assert.deepEqual(s.push('<think>abc'), [{ kind: 'block_part', tag: 'think', text: 'abc' }]);
});
