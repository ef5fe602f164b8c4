// How a checkpoint's "before" bytes are stored: compressed when that saves at least a tenth, raw otherwise. Source
// text shrinks 3–5×, so the in-memory database, its journal and every fold carry that much less. Compression runs
// before every agent edit, so it must be cheap: Brotli at quality 1 costs about 0.6× of deflate's fastest level for
// the same size on source code, and gives up on incompressible bytes 10× sooner. A file of up to 256 KB compresses on
// the main thread (0.4 ms for 50 KB; the hop to libuv's pool and back costs more than that), while the edit's own
// temp file is written in the pool (nodeFileSystem.ts); larger files compress in the pool, so the main thread never
// stalls for long. Rows from before schema 11 are deflated; they still decode.
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, brotliDecompressSync, constants, inflateRawSync } from 'node:zlib';
import type { Row } from './journaledDatabase';

export const DEFLATE = 'deflate';
export const BROTLI = 'brotli';

/** Smaller than this, the compressor's setup costs more than the bytes it could save. */
const MIN_COMPRESS_BYTES = 256;

/** Up to this size, compressing in place is cheaper than handing the bytes to another thread. */
const MAX_INLINE_BYTES = 256 * 1024;

const compressInPool = promisify(brotliCompress);

/** The stored form: the bytes to keep and their encoding, null for raw. */
export async function encodeBefore(bytes: Uint8Array): Promise<{ stored: Uint8Array; encoding: string | null }> {
  if (bytes.byteLength >= MIN_COMPRESS_BYTES) {
    const options = {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 1,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
      },
    };
    const packed = bytes.byteLength <= MAX_INLINE_BYTES ? brotliCompressSync(bytes, options) : await compressInPool(bytes, options);
    if (packed.byteLength < bytes.byteLength * 0.9) return { stored: packed, encoding: BROTLI };
  }
  return { stored: bytes, encoding: null };
}

/** A row's `before` as stored (text from older rows, bytes, or compressed bytes) back to what the file held. */
export function decodeBefore(row: Row): Uint8Array | string | null {
  const value = row.before;
  if (value === null || value === undefined) return null;
  if (!(value instanceof Uint8Array)) return String(value);
  if (row.encoding === BROTLI) return new Uint8Array(brotliDecompressSync(value));
  return row.encoding === DEFLATE ? new Uint8Array(inflateRawSync(value)) : value;
}
