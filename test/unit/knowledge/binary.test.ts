// Binary files read as text are refused before indexing: NUL bytes, control characters, undecodable bytes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { looksBinary } from '../../../src/core/knowledge/binary';

/** What reading the bytes as UTF-8 gives (as the editor's and the CLI's file systems do). */
const asText = (bytes: number[] | Uint8Array) => new TextDecoder('utf-8').decode(Uint8Array.from(bytes));

test('real binary formats look binary', () => {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0];
  assert.equal(looksBinary(asText(png)), true, 'PNG (NUL bytes)');
  const random = new Uint8Array(4096);
  let seed = 7;
  for (let i = 0; i < random.length; i++) random[i] = (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 256 || 1; // no NULs
  assert.equal(looksBinary(asText(random)), true, 'random bytes without NULs: mostly undecodable');
  const controls = Array.from({ length: 400 }, (_, i) => (i % 3 === 0 ? 0x01 + (i % 7) : 0x41 + (i % 26)));
  assert.equal(looksBinary(asText(controls)), true, 'a third control characters');
});

test('text, also with tabs, CRLF, ANSI colours, form feeds and non-Latin scripts, does not', () => {
  assert.equal(looksBinary(''), false);
  assert.equal(looksBinary('export const x = 1;\r\n\tconst y = "héllo wörld";\n'), false);
  assert.equal(looksBinary('\u001b[32mPASS\u001b[0m all good\n'.repeat(50)), false);
  assert.equal(looksBinary('page one\fpage two\n'), false);
  assert.equal(looksBinary('日本語のテキスト。中文文本。Русский текст. 🚀✨\n'.repeat(20)), false);
  // A few stray undecodable bytes in a long text file (a Latin-1 name in a comment) are still text.
  assert.equal(looksBinary(`// Author: ${asText([0x4a, 0xfc, 0x72, 0x67, 0x65, 0x6e])}\n${'const a = 1;\n'.repeat(100)}`), false);
});

test('only the start is sampled: a NUL late in a huge text file does not matter, one early does', () => {
  const text = 'plain text line\n'.repeat(2000);
  assert.equal(looksBinary(`${text}\u0000`), false);
  assert.equal(looksBinary(`\u0000${text}`), true);
});
