// A file's text encoding, guessed from its bytes the way editors do, and exact decoding/encoding in it, so an
// edit writes back every byte it did not change: UTF-8 (with or without BOM), UTF-16 LE/BE with a BOM, and
// Windows-1252 (Latin-1's superset) for bytes that are not valid UTF-8.

export type TextEncodingName = 'utf8' | 'utf8bom' | 'utf16le' | 'utf16be' | 'windows1252';

export interface DecodedFile {
  text: string;
  encoding: TextEncodingName;
  /** Encoding `text` again gives the very same bytes (false e.g. for UTF-16 with a lone surrogate). */
  exact: boolean;
}

export type Encoded = { ok: true; bytes: Uint8Array } | { ok: false; char: string; index: number };

const LABELS: Record<TextEncodingName, string> = {
  utf8: 'UTF-8',
  utf8bom: 'UTF-8 with BOM',
  utf16le: 'UTF-16 LE',
  utf16be: 'UTF-16 BE',
  windows1252: 'Windows-1252 (Latin-1)',
};

export function encodingLabel(encoding: TextEncodingName): string {
  return LABELS[encoding];
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The encoding the bytes are in: a BOM decides; else valid UTF-8 is UTF-8, anything else Windows-1252. */
export function detectEncoding(bytes: Uint8Array): TextEncodingName {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf8bom';
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf16le';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf16be';
  try {
    strictUtf8.decode(bytes);
    return 'utf8';
  } catch {
    return 'windows1252';
  }
}

/** NUL bytes near the start of a file without a UTF-16 BOM: a binary file. */
export function looksBinaryBytes(bytes: Uint8Array, encoding: TextEncodingName): boolean {
  if (encoding === 'utf16le' || encoding === 'utf16be') return false;
  const end = Math.min(bytes.length, 8000);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/**
 * Just the text, in the detected encoding (no exactness check): for readers that never write back.
 * `preferred` 'windows1252' (an editor's files.encoding setting) decodes every file without a BOM that way.
 */
export function decodeText(bytes: Uint8Array, preferred?: TextEncodingName): string {
  if (bytes.length >= 2 && (bytes[0] === 0xef || bytes[0] === 0xff || bytes[0] === 0xfe)) return decodeBytes(bytes).text;
  if (preferred === 'windows1252') return decode1252(bytes);
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return decode1252(bytes);
  }
}

export function decodeBytes(bytes: Uint8Array, encoding: TextEncodingName = detectEncoding(bytes)): DecodedFile {
  const text = decodeAs(bytes, encoding);
  const again = encodeText(text, encoding);
  return { text, encoding, exact: again.ok && sameBytes(again.bytes, bytes) };
}

function decodeAs(bytes: Uint8Array, encoding: TextEncodingName): string {
  switch (encoding) {
    case 'utf8':
      return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    case 'utf8bom':
      return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(3));
    case 'utf16le':
      return new TextDecoder('utf-16le', { ignoreBOM: true }).decode(bytes.subarray(2));
    case 'utf16be':
      return new TextDecoder('utf-16be', { ignoreBOM: true }).decode(bytes.subarray(2));
    case 'windows1252':
      return decode1252(bytes);
  }
}

export function encodeText(text: string, encoding: TextEncodingName): Encoded {
  switch (encoding) {
    case 'utf8':
    case 'utf8bom': {
      const lone = loneSurrogate(text);
      if (lone >= 0) return { ok: false, char: text[lone]!, index: lone };
      const body = new TextEncoder().encode(text);
      if (encoding === 'utf8') return { ok: true, bytes: body };
      const out = new Uint8Array(body.length + 3);
      out.set([0xef, 0xbb, 0xbf]);
      out.set(body, 3);
      return { ok: true, bytes: out };
    }
    case 'utf16le':
    case 'utf16be':
      return { ok: true, bytes: encodeUtf16(text, encoding === 'utf16le') };
    case 'windows1252':
      return encode1252(text);
  }
}

function encodeUtf16(text: string, littleEndian: boolean): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  const view = new DataView(out.buffer);
  view.setUint16(0, 0xfeff, littleEndian);
  for (let i = 0; i < text.length; i++) view.setUint16(2 + i * 2, text.charCodeAt(i), littleEndian);
  return out;
}

/** Windows-1252's characters in 0x80–0x9F that are not the C1 control of the same code. */
const CP1252_HIGH: Record<number, number> = {
  0x20ac: 0x80, 0x201a: 0x82, 0x0192: 0x83, 0x201e: 0x84, 0x2026: 0x85, 0x2020: 0x86, 0x2021: 0x87, 0x02c6: 0x88,
  0x2030: 0x89, 0x0160: 0x8a, 0x2039: 0x8b, 0x0152: 0x8c, 0x017d: 0x8e, 0x2018: 0x91, 0x2019: 0x92, 0x201c: 0x93,
  0x201d: 0x94, 0x2022: 0x95, 0x2013: 0x96, 0x2014: 0x97, 0x02dc: 0x98, 0x2122: 0x99, 0x0161: 0x9a, 0x203a: 0x9b,
  0x0153: 0x9c, 0x017e: 0x9e, 0x0178: 0x9f,
};
/** The five bytes Windows-1252 leaves undefined decode to the C1 controls of the same value (as in WHATWG). */
const C1_KEPT = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

let decodeTable: string[] | undefined;

/** By hand: Node's TextDecoder('windows-1252') decodes as ISO-8859-1 (0x80 → U+0080, not €). */
function decode1252(bytes: Uint8Array): string {
  if (!decodeTable) {
    decodeTable = Array.from({ length: 256 }, (_, b) => String.fromCharCode(b));
    for (const [code, byte] of Object.entries(CP1252_HIGH)) decodeTable[byte] = String.fromCharCode(Number(code));
  }
  const parts: string[] = [];
  const CHUNK = 8192;
  for (let start = 0; start < bytes.length; start += CHUNK) {
    let chunk = '';
    const end = Math.min(bytes.length, start + CHUNK);
    for (let i = start; i < end; i++) chunk += decodeTable[bytes[i]!]!;
    parts.push(chunk);
  }
  return parts.join('');
}

function encode1252(text: string): Encoded {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80 || (c >= 0xa0 && c <= 0xff) || C1_KEPT.has(c)) out[i] = c;
    else if (CP1252_HIGH[c] !== undefined) out[i] = CP1252_HIGH[c]!;
    else return { ok: false, char: String.fromCodePoint(text.codePointAt(i)!), index: i };
  }
  return { ok: true, bytes: out };
}

function loneSurrogate(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return i;
    } else if (c >= 0xdc00 && c <= 0xdfff) return i;
  }
  return -1;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
