import { inflateSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { DarshanFormatError } from './errors.js';

/** Compression codes stored in the header byte at offset 16. */
export const COMPRESSION_NAMES = ['ZLIB', 'BZIP2', 'NONE'] as const;
export type CompressionName = (typeof COMPRESSION_NAMES)[number] | 'UNKNOWN';

/**
 * Upper bound on the decompressed size of one region. A region of a real log is far below this (a 1M-segment DXT
 * region is 40 MB); the cap keeps a corrupt or hostile log from making us allocate without bound.
 */
export const MAX_REGION_BYTES = 2 ** 31 - 1;

const require = createRequire(import.meta.url);
let bunzip: { decode(input: Uint8Array, output?: unknown, multistream?: boolean): Buffer } | null = null;

/**
 * Decompresses one region. A zlib region may hold several complete zlib streams back to back (one per MPI rank);
 * they are inflated one after another until the region's bytes are used up. Trailing bytes that do not form a
 * stream make the region corrupt, as in darshan-util.
 */
export function decompressRegion(data: Uint8Array, compression: number, what: string, maxBytes = MAX_REGION_BYTES): Buffer {
  if (compression === 2) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (compression === 0) return inflateStreams(data, what, maxBytes);
  if (compression === 1) return bunzipStreams(data, what, maxBytes);
  throw new DarshanFormatError(`unknown compression method ${compression} in darshan log file`);
}

function inflateStreams(data: Uint8Array, what: string, maxBytes: number): Buffer {
  const parts: Buffer[] = [];
  let total = 0;
  let off = 0;
  let lastOut = 0;
  const input = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  while (off < input.length) {
    let out: Buffer;
    let used: number;
    try {
      const res = inflateSync(input.subarray(off), {
        info: true,
        maxOutputLength: Math.max(1, maxBytes - total),
        // Output chunks sized from the previous stream (regions hold one stream per rank, of similar sizes):
        // few pieces to concatenate, without allocating a large buffer per small stream.
        chunkSize: Math.min(1 << 24, Math.max(1 << 14, Math.ceil(lastOut * 1.25) || Math.min(input.length * 4, 1 << 20))),
      }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
      out = res.buffer;
      used = res.engine.bytesWritten;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ERR_BUFFER_TOO_LARGE') throw new DarshanFormatError(`${what} region inflates to more than ${maxBytes} bytes`);
      throw new DarshanFormatError(`corrupt ${what} region (zlib: ${(err as Error).message})`);
    }
    if (used <= 0) throw new DarshanFormatError(`corrupt ${what} region (zlib stream made no progress)`);
    parts.push(out);
    lastOut = out.length;
    total += out.length;
    off += used;
    if (total > maxBytes) throw new DarshanFormatError(`${what} region inflates to more than ${maxBytes} bytes`);
  }
  return parts.length === 1 ? parts[0] : Buffer.concat(parts, total);
}

function bunzipStreams(data: Uint8Array, what: string, maxBytes: number): Buffer {
  bunzip ??= require('seek-bzip') as typeof bunzip;
  try {
    const out = bunzip!.decode(Buffer.from(data.buffer, data.byteOffset, data.byteLength), undefined, true);
    if (out.length > maxBytes) throw new DarshanFormatError(`${what} region inflates to more than ${maxBytes} bytes`);
    return out;
  } catch (err) {
    if (err instanceof DarshanFormatError) throw err;
    throw new DarshanFormatError(`corrupt ${what} region (bzip2: ${String((err as Error).message ?? err)})`);
  }
}
