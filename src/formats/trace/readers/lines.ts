import { closeSync, createReadStream, readSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { IOLensError, LimitError } from '../../../contract/errors.js';
import { GunzipStream } from '../../../util/inflate-engine.js';
import { DEFAULT_MAX_INFLATE, DEFAULT_MAX_LINE_BYTES, InflateBudget, sizeText } from '../../../util/limits.js';
import { openRegularFile } from '../../../util/read-file.js';
import { TraceInputError } from '../errors.js';

/**
 * Streams the lines of a text file (transparently gunzipping `.gz` files, detected by magic bytes) and calls `onLine`
 * with each line and its 1-based number. Memory is bounded by the stream's chunk size plus the longest line, which
 * may not exceed `maxLineBytes` (a LimitError past it).
 */
export async function forEachLine(path: string, onLine: (line: string, lineNo: number) => void, maxLineBytes = DEFAULT_MAX_LINE_BYTES): Promise<number> {
  return forEachLineBytes(path, (buf, start, end, lineNo) => onLine(buf.toString('utf8', start, end), lineNo), { maxLineBytes, beforeReuse: () => {} });
}

/** Opens `path` for reading (regular files only: a FIFO or device is refused at once instead of blocking). */
export function openTraceFile(path: string): number {
  try {
    return openRegularFile(path, 'a trace file').fd;
  } catch (err) {
    if (err instanceof IOLensError) throw new TraceInputError(`${path}: ${err.message}`);
    const e = err as NodeJS.ErrnoException;
    if (e && e.code === 'ENOENT') throw new TraceInputError(`${path}: no such file`);
    throw new TraceInputError(`${path}: cannot open (${e.code ?? e.message})`);
  }
}

export interface LineReadOptions {
  /** The longest line (a LimitError past it). */
  maxLineBytes?: number;
  /** Bytes a `.gz` file may inflate to (default `DEFAULT_MAX_INFLATE`; a LimitError past it). */
  maxInflate?: number;
  /** Called before a buffer handed to `onLine` is filled again (see `forEachLineBytes`). */
  beforeReuse?: (buf: Buffer) => void;
  /** With `beforeReuse`: the buffers to fill in turn (`ringBuffer(i)` for i < 3, 1 MiB each) instead of fresh ones. */
  ringBuffer?: (i: number) => Buffer;
  /**
   * Gunzip in Node's thread pool, beside the reading thread, into a fresh buffer per chunk: faster in wall time when
   * this thread is the only one reading and a core is free; otherwise (the default) this thread gunzips into reused
   * buffers, which costs less CPU.
   */
  gunzipAside?: boolean;
  /**
   * Takes runs of lines in one piece: called with `buf[start, end)` (complete lines, `end` just after a newline) and
   * the number of its first line, it handles as many of them from `start` on as it can, as `onLine` would (empty ones
   * included), and says in `run` where the first line it left starts (`end` when none) and how many it took. That
   * line goes to `onLine`, and the next call starts after it.
   */
  onLines?: (buf: Buffer, start: number, end: number, lineNo: number, run: LineRun) => void;
}

/** What `LineReadOptions.onLines` took: the lines, and where the first line it left starts. */
export interface LineRun {
  at: number;
  lines: number;
}

/**
 * Like `forEachLine`, but hands over the raw bytes: `onLine(buf, start, end, lineNo)` with `end` excluding the
 * newline and a `\r` before it. Empty lines are skipped (but counted). A line that spans chunks is assembled once,
 * when its end arrives (linear in its length, however many chunks). The file is read (and gunzipped) in chunks of
 * 1 MiB into a few buffers used in turn: a buffer handed over is filled again only after `beforeReuse(buf)` was
 * called, so a caller that keeps references to earlier lines (the DFTracer scanner reads each line against recent
 * ones) copies what it still needs then. Without `beforeReuse` every chunk is a buffer of its own, never refilled.
 * (Filling the same few buffers spares touching fresh memory for every megabyte: gunzip and line splitting of a
 * 120 MB DFTracer file 140 → 90 ms of CPU.)
 */
export async function forEachLineBytes(path: string, onLine: (buf: Buffer, start: number, end: number, lineNo: number) => void, opts: LineReadOptions = {}): Promise<number> {
  const { maxLineBytes = DEFAULT_MAX_LINE_BYTES, beforeReuse, ringBuffer, gunzipAside = false, maxInflate = DEFAULT_MAX_INFLATE, onLines } = opts;
  const fd = openTraceFile(path);
  const magic = Buffer.alloc(2);
  let gz: boolean;
  try {
    gz = readSync(fd, magic, 0, 2, 0) === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
  } catch (err) {
    closeSync(fd);
    throw new TraceInputError(`${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const lines = new LineSplitter(path, onLine, maxLineBytes, onLines);
  // a gzip bomb of short lines costs time per byte: inflating stops at the budget
  const budget = gz ? new InflateBudget(maxInflate, 'trace') : null;
  const gunzip = gz && !gunzipAside ? GunzipStream.create() : null;
  // gunzipped by Node's stream (aside, or where the engine is missing), whose read stream closes the descriptor
  const viaStream = gz && gunzip === null;
  try {
    if (viaStream) await throughGunzipStream(fd, lines, budget!, path, beforeReuse && ringBuffer ? ringOf(beforeReuse, ringBuffer) : null);
    else await readChunks(fd, gunzip, lines, beforeReuse, ringBuffer, budget, path);
  } catch (err) {
    if (err instanceof IOLensError) throw err;
    const e = err as NodeJS.ErrnoException;
    if (e && e.code && e.code.startsWith('Z_')) throw new TraceInputError(`${path}: corrupt gzip data (${e.message})`);
    if (e && e.code === 'ENOENT') throw new TraceInputError(`${path}: no such file`);
    throw err;
  } finally {
    gunzip?.close();
    if (!viaStream) closeSync(fd);
  }
  return lines.end();
}

const CHUNK = 1 << 20;

/**
 * Buffers filled in turn, each refilled only after `beforeReuse`: with three, what a caller keeps of the last two
 * chunks (the scanner's recent lines) is copied only when the oldest buffer comes round again.
 */
const RING = 3;

/**
 * The file's bytes (gunzipped when `gunzip` is given) in chunks of `CHUNK` into `RING` buffers used in turn (a
 * fresh buffer per chunk without `beforeReuse`), each chunk handed to `lines`; yields to the event loop between
 * chunks, as a stream would.
 */
async function readChunks(
  fd: number,
  gunzip: GunzipStream | null,
  lines: LineSplitter,
  beforeReuse: ((buf: Buffer) => void) | undefined,
  ringBuffer: ((i: number) => Buffer) | undefined,
  budget: InflateBudget | null,
  path: string,
): Promise<void> {
  const nextOut = beforeReuse === undefined ? () => Buffer.allocUnsafe(CHUNK) : ringOf(beforeReuse, ringBuffer);
  let pos = 0;
  if (gunzip === null) {
    for (;;) {
      const out = nextOut();
      const got = readSync(fd, out, 0, CHUNK, pos);
      if (got <= 0) return;
      pos += got;
      lines.chunk(out, got);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const input = Buffer.allocUnsafe(CHUNK);
  let inOff = 0;
  let inLeft = 0;
  let eof = false;
  for (;;) {
    if (inLeft === 0 && !eof) {
      inLeft = readSync(fd, input, 0, CHUNK, pos);
      pos += inLeft;
      inOff = 0;
      eof = inLeft === 0;
    }
    const out = nextOut();
    if (eof) gunzip.finish(out, 0, CHUNK);
    else gunzip.write(input, inOff, inLeft, out, 0, CHUNK);
    inOff += gunzip.used;
    inLeft -= gunzip.used;
    budget?.charge(gunzip.wrote, path);
    if (gunzip.wrote > 0) lines.chunk(out, gunzip.wrote);
    // output full: zlib may hold more; else the input ended, or the gzip data did (what follows is not read)
    if (gunzip.wrote < CHUNK && (eof || gunzip.ended)) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** `RING` buffers (`ringBuffer`'s, or new ones) handed out in turn, each after `beforeReuse` from its second turn on. */
function ringOf(beforeReuse: (buf: Buffer) => void, ringBuffer: ((i: number) => Buffer) | undefined): () => Buffer {
  const ring: Buffer[] = [];
  let turn = 0;
  return () => {
    if (ring.length < RING) {
      const b = ringBuffer ? ringBuffer(ring.length) : Buffer.allocUnsafe(CHUNK);
      if (b.length !== CHUNK) throw new RangeError(`ring buffer of ${b.length} bytes, not ${CHUNK}`);
      ring.push(b);
      return b;
    }
    const b = ring[turn];
    turn = (turn + 1) % RING;
    beforeReuse(b);
    return b;
  };
}

/**
 * The file through Node's Gunzip stream (`gunzipAside`, or a Node without what `GunzipStream` drives): a fresh buffer
 * per chunk, or, with `ring`, each chunk copied into the ring's next buffer (the caller's `ringBuffer`s).
 */
async function throughGunzipStream(fd: number, lines: LineSplitter, budget: InflateBudget, path: string, ring: (() => Buffer) | null): Promise<void> {
  const file = createReadStream('', { fd, start: 0, highWaterMark: CHUNK });
  const stream = file.pipe(createGunzip({ chunkSize: CHUNK }));
  file.on('error', (err) => stream.destroy(err));
  try {
    for await (const raw of stream as AsyncIterable<Buffer>) {
      budget.charge(raw.length, path);
      if (ring === null || raw.length > CHUNK) lines.chunk(raw, raw.length);
      else {
        const out = ring();
        raw.copy(out, 0, 0, raw.length);
        lines.chunk(out, raw.length);
      }
    }
  } finally {
    stream.destroy();
    file.destroy();
  }
}

/** Splits chunks into lines for `onLine` (see `forEachLineBytes`). */
class LineSplitter {
  /** pieces of the line under way (its start, from earlier chunks) and their total length */
  private pending: Buffer[] = [];
  private pendingLen = 0;
  private lineNo = 0;
  private readonly run: LineRun = { at: 0, lines: 0 };

  constructor(
    private readonly path: string,
    private readonly onLine: (buf: Buffer, start: number, end: number, lineNo: number) => void,
    private readonly maxLineBytes: number,
    private readonly onLines?: (buf: Buffer, start: number, end: number, lineNo: number, run: LineRun) => void,
  ) {}

  private tooLong(): LimitError {
    return new LimitError(`${this.path}:${this.lineNo + 1}: line longer than ${sizeText(this.maxLineBytes)} (no newline); not a trace file, or raise the line limit`);
  }

  /** The lines of `raw[0, len)`, the part of a line it ends kept (copied) for the next chunk. */
  chunk(raw: Buffer, len: number): void {
    const max = this.maxLineBytes;
    let pos = 0;
    let nl = raw.indexOf(10);
    if (nl >= len) nl = -1;
    if (this.pendingLen > 0) {
      if (nl < 0) {
        if (this.pendingLen + len > max) throw this.tooLong();
        this.pending.push(Buffer.from(raw.subarray(0, len)));
        this.pendingLen += len;
        return;
      }
      if (this.pendingLen + nl > max) throw this.tooLong();
      this.pending.push(raw.subarray(0, nl));
      const line = Buffer.concat(this.pending, this.pendingLen + nl);
      this.pending = [];
      this.pendingLen = 0;
      this.lineNo++;
      let e = line.length;
      if (e > 0 && line[e - 1] === 13) e--;
      if (e > 0) this.onLine(line, 0, e, this.lineNo);
      pos = nl + 1;
      nl = raw.indexOf(10, pos);
      if (nl >= len) nl = -1;
    }
    // the complete lines from `pos` to `last` go to `onLines` first, then the line it left to `onLine`, and so on
    const last = this.onLines !== undefined && nl >= 0 ? raw.lastIndexOf(10, len - 1) : -1;
    while (nl >= 0) {
      if (last >= 0) {
        const run = this.run;
        this.onLines!(raw, pos, last + 1, this.lineNo + 1, run);
        this.lineNo += run.lines;
        pos = run.at;
        if (pos > last) break;
        nl = raw.indexOf(10, pos);
      }
      if (nl - pos > max) throw this.tooLong();
      this.lineNo++;
      let e = nl;
      if (e > pos && raw[e - 1] === 13) e--;
      if (e > pos) this.onLine(raw, pos, e, this.lineNo);
      pos = nl + 1;
      nl = raw.indexOf(10, pos);
      if (nl >= len) nl = -1;
    }
    if (pos < len) {
      if (len - pos > max) throw this.tooLong();
      this.pending.push(Buffer.from(raw.subarray(pos, len)));
      this.pendingLen = len - pos;
    }
  }

  /** The last line (one without a newline), then the number of lines. */
  end(): number {
    if (this.pendingLen > 0) {
      this.lineNo++;
      const rest = Buffer.concat(this.pending, this.pendingLen);
      this.pending = [];
      this.pendingLen = 0;
      this.onLine(rest, 0, rest.length, this.lineNo);
    }
    return this.lineNo;
  }
}
