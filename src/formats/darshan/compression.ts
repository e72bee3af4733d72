import { createInflate } from 'node:zlib';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { LimitError } from '../../contract/errors.js';
import { GrowingOutput, inflateStreamInto } from '../../util/inflate-engine.js';
import { DEFAULT_MAX_INFLATE, InflateBudget, sizeText } from '../../util/limits.js';

export { InflateBudget };
import { DarshanFormatError } from './errors.js';

/** Compression codes stored in the header byte at offset 16. */
export const COMPRESSION_NAMES = ['ZLIB', 'BZIP2', 'NONE'] as const;
export type CompressionName = (typeof COMPRESSION_NAMES)[number] | 'UNKNOWN';

/**
 * Upper bound on the decompressed size of one region, whatever the budget: a region of a real log is far below this
 * (a 1M-segment DXT region is 40 MB).
 */
export const MAX_REGION_BYTES = 2 ** 31 - 1;

/**
 * Budget charged for a bzip2 block that inflates to less: decoding one allocates and clears its whole 100–900 kB
 * block buffer whatever it holds, so many tiny blocks must not cost more than the budget says.
 */
export const BZIP2_BLOCK_CHARGE = 64 * 1024;

/**
 * A region may inflate to at most its cap times its compressed size (or RATIO_FLOOR bytes, whichever is more),
 * whatever the budget allows: a decompression budget tied to the input. Measured over 1,214 real logs (the shared
 * public and generated logs and both lab sweeps), no region compresses better than 52:1 (a zlib HEATMAP), record
 * regions at most 29:1 (POSIX), DXT 8.3:1. Records are capped at RECORD_RATIO_CAP (256:1, five times the most
 * compressible region seen); HEATMAP regions at RATIO_CAP (1,200:1), since a large job's heatmap may be almost all
 * zero bins, which zlib packs ~1,000:1. A 4 KB bomb thus stops after 16 MiB of output (a second of decoding), and a
 * 1.5 MB zlib bomb in a record region at 384 MiB, not at the 1 GiB budget.
 */
export const RATIO_CAP = 1200;
export const RECORD_RATIO_CAP = 256;
export const RATIO_FLOOR = 16 * 2 ** 20;

/** The ratio cap of a module's region (`module`: its name). */
export function ratioCap(module: string): number {
  return module === 'HEATMAP' ? RATIO_CAP : RECORD_RATIO_CAP;
}

/** The most the `module` region of `compressed` bytes may inflate to (the ratio cap). */
export function ratioLimit(compressed: number, module: string): number {
  return Math.max(RATIO_FLOOR, ratioCap(module) * compressed);
}

/** The error of the `module` region inflating past its ratio cap. */
export function ratioTooLarge(module: string, compressed: number): LimitError {
  return new LimitError(`the ${module} region inflates to more than ${ratioCap(module)} times its ${sizeText(compressed)} (and more than ${sizeText(RATIO_FLOOR)}): no real log's data compresses so well (a decompression bomb?)`);
}

/** Least room made for a stream's output, and the least a region's output buffer starts with. */
const MIN_CHUNK = 1024;

interface BunzipInstance {
  reader: { read(bits: number): number };
  streamCRC: number;
  _init_block(): boolean;
  _read_bunzip(): void;
  _start_bunzip(input: unknown, output: unknown): void;
}
type BunzipClass = new (input: unknown, output: unknown) => BunzipInstance;

const require = createRequire(import.meta.url);
let Bunzip: BunzipClass | null = null;

/**
 * Decompresses one region. A zlib region may hold several complete zlib streams back to back (one per MPI rank);
 * they are inflated one after another until the region's bytes are used up. Trailing bytes that do not form a
 * stream make the region corrupt, as in darshan-util. `budget` is the log's (a number: a fresh budget of that many
 * bytes); going past it throws a LimitError, a damaged stream a DarshanFormatError.
 */
export function decompressRegion(data: Uint8Array, compression: number, what: string, budget: InflateBudget | number = DEFAULT_MAX_INFLATE): Buffer {
  const b = typeof budget === 'number' ? new InflateBudget(budget) : budget;
  if (compression === 2) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (compression === 0) return inflateStreams(data, what, b);
  if (compression === 1) return bunzipStreams(data, what, b);
  throw new DarshanFormatError(`unknown compression method ${compression} in darshan log file`);
}

/** The error of a region that inflates past `MAX_REGION_BYTES`. */
export function regionTooLarge(what: string): LimitError {
  return new LimitError(`${what} inflates to more than ${sizeText(MAX_REGION_BYTES + 1)}, larger than IOLens reads`);
}

function inflateStreams(data: Uint8Array, what: string, budget: InflateBudget): Buffer {
  const input = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  // Every stream is inflated onto the end of one buffer, first sized from the compressed size (counters inflate
  // 3–5×), growing by doubling when a region inflates further. It is allocated, not filled: pages zlib does not
  // write are never touched. One zlib engine serves every stream (`inflateStreamInto`).
  const ratio = ratioLimit(data.byteLength, what);
  const firstCap = Math.min(budget.left, MAX_REGION_BYTES, ratio);
  const out = new GrowingOutput(Math.max(MIN_CHUNK, Math.min(1 << 26, firstCap + 1, input.length * 8)));
  let off = 0;
  let lastOut = 0;
  while (off < input.length) {
    let used: number;
    const start = out.total;
    // zlib stops inflating as soon as a stream passes the cap: the bomb never gets further than this.
    const cap = Math.min(budget.left, MAX_REGION_BYTES - start, ratio - start);
    try {
      // room made for a stream: the size of the one before (regions hold one stream per rank, of similar sizes)
      used = inflateStreamInto(input.subarray(off), out, Math.max(1, cap), Math.max(MIN_CHUNK, Math.ceil(lastOut * 1.25)));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ERR_BUFFER_TOO_LARGE') throw cap === budget.left ? budget.overrun(`the ${what} region`) : cap === ratio - start ? ratioTooLarge(what, data.byteLength) : regionTooLarge(`the ${what} region`);
      throw new DarshanFormatError(`corrupt ${what} region (zlib: ${(err as Error).message})`);
    }
    if (used <= 0) throw new DarshanFormatError(`corrupt ${what} region (zlib stream made no progress)`);
    lastOut = out.total - start;
    budget.charge(lastOut, `the ${what} region`);
    off += used;
  }
  return out.take();
}

/**
 * `inflateStreams` as a stream of pieces: the region's `length` compressed bytes, read through `open(from)` (a
 * stream of the bytes from offset `from` on), go zlib stream after zlib stream through Node's zlib (in the thread
 * pool, overlapping the caller's work); pieces are charged to `budget` as they arrive; `done` runs after the last.
 */
export async function* inflateChunks(
  length: number,
  open: (from: number) => Readable,
  what: string,
  budget: InflateBudget,
  chunk: number,
  done: () => void,
): AsyncGenerator<Uint8Array> {
  let total = 0;
  let off = 0;
  while (off < length) {
    // zlib may run up to 8 pieces ahead of the consumer (inflating while the caller works on earlier pieces); the
    // stream options reach the Transform, though ZlibOptions does not list them
    const opts = { chunkSize: chunk, readableHighWaterMark: 8 * chunk };
    const inf = createInflate(opts);
    const src = open(off);
    src.on('error', (err) => inf.destroy(err));
    src.pipe(inf);
    try {
      for await (const piece of inf as AsyncIterable<Buffer>) {
        // no MAX_REGION_BYTES here: pieces are not kept, so the budget and the ratio cap bound a streamed region
        total += piece.length;
        if (total > ratioLimit(length, what)) throw ratioTooLarge(what, length);
        budget.charge(piece.length, `the ${what} region`);
        yield piece;
      }
    } catch (err) {
      if (err instanceof LimitError) throw err;
      throw new DarshanFormatError(`corrupt ${what} region (zlib: ${(err as Error).message})`);
    } finally {
      src.destroy();
      inf.destroy();
    }
    if (inf.bytesWritten <= 0) throw new DarshanFormatError(`corrupt ${what} region (zlib stream made no progress)`);
    off += inf.bytesWritten;
  }
  done();
}

/** Signals that a bzip2 output passed its allowance (thrown from inside the decoder, caught below). */
class OutputFull extends Error {}

/**
 * bzip2 output with an allowance: the decoder writes byte by byte, and the byte past the allowance stops it.
 * `extra` is the budget charged beyond the bytes written (small blocks, see BZIP2_BLOCK_CHARGE).
 */
class BoundedOutput {
  buf = new Uint8Array(1 << 16);
  pos = 0;
  extra = 0;
  constructor(private readonly allowed: number) {}
  writeByte(byte: number): void {
    if (this.pos === this.buf.length) this.grow();
    this.buf[this.pos++] = byte;
  }
  private grow(): void {
    const room = this.allowed - this.extra;
    if (this.pos >= room) throw new OutputFull();
    const next = new Uint8Array(Math.min(this.buf.length * 2, room));
    next.set(this.buf);
    this.buf = next;
  }
  /** Charges a finished block that wrote `written` bytes. */
  block(written: number): void {
    if (written < BZIP2_BLOCK_CHARGE) this.extra += BZIP2_BLOCK_CHARGE - written;
    if (this.pos + this.extra > this.allowed) throw new OutputFull();
  }
}

/** An input the decoder reads byte by byte; reading past the end is a truncated stream. */
class ByteInput {
  pos = 0;
  constructor(private readonly data: Uint8Array) {}
  readByte(): number {
    if (this.pos >= this.data.length) throw new TypeError('Unexpected input EOF');
    return this.data[this.pos++];
  }
  read(buffer: Uint8Array, off: number, len: number): number {
    let n = 0;
    while (n < len && this.pos < this.data.length) buffer[off + n++] = this.data[this.pos++];
    return n === 0 && len > 0 ? -1 : n;
  }
  eof(): boolean {
    return this.pos >= this.data.length;
  }
}

/**
 * Decodes back-to-back bzip2 streams (one per rank) block by block with seek-bzip's decoder, charging each block to
 * the budget: the output stops at the budget, and tiny blocks cost their minimum charge.
 */
function bunzipStreams(data: Uint8Array, what: string, budget: InflateBudget): Buffer {
  Bunzip ??= require('seek-bzip') as BunzipClass;
  // (the ratio cap counts the bytes decoded; the minimum charge of tiny blocks counts against the budget only)
  const ratio = ratioLimit(data.byteLength, what);
  const allowed = Math.min(budget.left, MAX_REGION_BYTES);
  const input = new ByteInput(data);
  const out = new BoundedOutput(allowed);
  try {
    const bz = new Bunzip(input, out);
    while (!input.eof()) {
      if (bz._init_block()) {
        const before = out.pos;
        bz._read_bunzip();
        out.block(out.pos - before);
        if (out.pos > ratio) throw ratioTooLarge(what, data.byteLength);
        continue;
      }
      const crc = bz.reader.read(32) >>> 0;
      if (crc !== bz.streamCRC) throw new TypeError(`Bad stream CRC (got ${bz.streamCRC.toString(16)} expected ${crc.toString(16)})`);
      if (input.eof()) break;
      bz._start_bunzip(input, out);
    }
  } catch (err) {
    if (err instanceof LimitError) throw err;
    if (err instanceof OutputFull) throw allowed === budget.left ? budget.overrun(`the ${what} region`) : regionTooLarge(`the ${what} region`);
    throw new DarshanFormatError(`corrupt ${what} region (bzip2: ${String((err as Error).message ?? err)})`);
  }
  budget.charge(out.pos + out.extra, `the ${what} region`);
  return Buffer.from(out.buf.buffer, 0, out.pos);
}
