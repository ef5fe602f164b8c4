import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineRingBuffer, LineSplitter } from '../../../src/mcp/ringBuffer';

test('keeps only the last lines within the line limit', () => {
  const buffer = new LineRingBuffer({ maxLines: 3, maxBytes: 1000, maxLineLength: 100 });
  for (let i = 1; i <= 5; i++) buffer.push(`line ${i}`);
  assert.deepEqual(buffer.all(), ['line 3', 'line 4', 'line 5']);
  assert.deepEqual(buffer.tail(2), ['line 4', 'line 5']);
  assert.equal(buffer.droppedLines, 2);
});

test('stays within the byte limit and cuts huge lines', () => {
  const buffer = new LineRingBuffer({ maxLines: 100, maxBytes: 50, maxLineLength: 20 });
  buffer.push('x'.repeat(1000));
  assert.equal(buffer.all()[0], `${'x'.repeat(20)}… [line cut]`);
  for (let i = 0; i < 20; i++) buffer.push(`entry-${i}`);
  const total = buffer.all().reduce((n, l) => n + l.length, 0);
  assert.ok(total <= 50, `kept ${total} characters`);
  assert.equal(buffer.all().at(-1), 'entry-19');
});

test('the splitter joins partial chunks into lines and bounds an endless line', () => {
  const lines: string[] = [];
  const splitter = new LineSplitter((l) => lines.push(l), 10);
  splitter.write('hel');
  splitter.write('lo\r\nwor');
  splitter.write('ld\npartial');
  assert.deepEqual(lines, ['hello', 'world']);
  splitter.flush();
  assert.deepEqual(lines, ['hello', 'world', 'partial']);
  splitter.write('0123456789abc');
  assert.deepEqual(lines.at(-1), '0123456789abc');
});
