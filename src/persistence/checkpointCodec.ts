// How a checkpoint's "before" bytes are stored: deflated (fast level) when that saves at least a tenth, raw
// otherwise. Source text shrinks 3–5×, so the in-memory database, its journal and every fold carry that much less.
import { deflateRawSync, inflateRawSync, constants } from 'node:zlib';
import type { Row } from './journaledDatabase';

export const DEFLATE = 'deflate';

/** The stored form: hex of the bytes (the journal carries JSON) and the encoding, null for raw. */
export function encodeBefore(bytes: Uint8Array): { hex: string; encoding: string | null } {
  if (bytes.byteLength >= 256) {
    const packed = deflateRawSync(bytes, { level: constants.Z_BEST_SPEED });
    if (packed.byteLength < bytes.byteLength * 0.9) return { hex: packed.toString('hex'), encoding: DEFLATE };
  }
  return { hex: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex'), encoding: null };
}

/** A row's `before` as stored (text from older rows, bytes, or deflated bytes) back to what the file held. */
export function decodeBefore(row: Row): Uint8Array | string | null {
  const value = row.before;
  if (value === null || value === undefined) return null;
  if (!(value instanceof Uint8Array)) return String(value);
  return row.encoding === DEFLATE ? new Uint8Array(inflateRawSync(value)) : value;
}
