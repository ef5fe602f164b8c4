// Encoding detection and exact round trips: every byte of Windows-1252 comes back, BOMs decide, invalid UTF-8 is
// Windows-1252, and text an encoding cannot hold is reported with the character and its position.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBytes, decodeText, detectEncoding, encodeText, looksBinaryBytes } from '../../../src/core/tools/encoding/textEncoding';
import { dominantLineEnding, withLineEnding } from '../../../src/core/tools/encoding/lineEndings';

const bytes = (...b: number[]) => Uint8Array.from(b);

test('detection: BOMs first, then valid UTF-8, else Windows-1252', () => {
  assert.equal(detectEncoding(bytes(0xef, 0xbb, 0xbf, 0x61)), 'utf8bom');
  assert.equal(detectEncoding(bytes(0xff, 0xfe, 0x61, 0x00)), 'utf16le');
  assert.equal(detectEncoding(bytes(0xfe, 0xff, 0x00, 0x61)), 'utf16be');
  assert.equal(detectEncoding(new TextEncoder().encode('J\u00fcrgen \ud83d\ude80')), 'utf8');
  assert.equal(detectEncoding(bytes(0x4a, 0xfc, 0x72)), 'windows1252', 'J\\xfcr is not UTF-8');
  assert.equal(detectEncoding(bytes()), 'utf8');
});

test('all 256 Windows-1252 bytes decode and encode back exactly, with the euro sign and curly quotes where they belong', () => {
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  const decoded = decodeBytes(all, 'windows1252');
  assert.equal(decoded.exact, true);
  assert.equal(decoded.text[0x80], '\u20ac');
  assert.equal(decoded.text[0x93], '\u201c');
  assert.equal(decoded.text[0x81], '\u0081', 'undefined bytes decode to the C1 control of the same value');
  assert.equal(decoded.text[0xfc], '\u00fc');
  const again = encodeText(decoded.text, 'windows1252');
  assert.ok(again.ok);
  assert.deepEqual(again.bytes, all);
});

test('UTF-8 with BOM and UTF-16 round-trip, BOM excluded from the text', () => {
  for (const encoding of ['utf8bom', 'utf16le', 'utf16be'] as const) {
    const text = 'caf\u00e9 \ud83d\ude80\r\nline 2\n';
    const encoded = encodeText(text, encoding);
    assert.ok(encoded.ok);
    assert.equal(detectEncoding(encoded.bytes), encoding);
    const decoded = decodeBytes(encoded.bytes);
    assert.deepEqual({ text: decoded.text, exact: decoded.exact }, { text, exact: true }, encoding);
    assert.equal(decodeText(encoded.bytes), text);
  }
});

test('text an encoding cannot hold is reported, never replaced', () => {
  assert.deepEqual(encodeText('ab\u2192c', 'windows1252'), { ok: false, char: '\u2192', index: 2 });
  assert.deepEqual(encodeText('x\ud83d\ude80', 'windows1252'), { ok: false, char: '\ud83d\ude80', index: 1 });
  assert.deepEqual(encodeText('bad \ud800 half', 'utf8'), { ok: false, char: '\ud800', index: 4 });
  assert.equal(decodeBytes(bytes(0xff, 0xfe, 0x00, 0xd8)).exact, false, 'a lone surrogate in UTF-16 does not come back');
});

test('binary: NUL bytes, except in UTF-16', () => {
  assert.equal(looksBinaryBytes(bytes(0x89, 0x50, 0x00, 0x01), 'windows1252'), true);
  assert.equal(looksBinaryBytes(bytes(0xff, 0xfe, 0x61, 0x00), 'utf16le'), false);
  assert.equal(looksBinaryBytes(new TextEncoder().encode('plain text\n'), 'utf8'), false);
});

test('files.encoding windows1252 reads BOM-less UTF-8 bytes as the editor would', () => {
  const utf8 = new TextEncoder().encode('\u00fc');
  assert.equal(decodeText(utf8), '\u00fc');
  assert.equal(decodeText(utf8, 'windows1252'), '\u00c3\u00bc');
});

test('line endings: the dominant one, and model text converted to it', () => {
  assert.equal(dominantLineEnding('a\r\nb\r\nc\n'), '\r\n');
  assert.equal(dominantLineEnding('a\nb\nc\r\n'), '\n');
  assert.equal(dominantLineEnding('one line'), '\n');
  assert.equal(withLineEnding('a\nb\r\nc', '\r\n'), 'a\r\nb\r\nc');
  assert.equal(withLineEnding('a\r\nb\n', '\n'), 'a\nb\n');
});
