import { constants, createGunzip, createInflate, inflateSync, type Inflate } from 'node:zlib';

/** The parts of Node's zlib stream object this module drives directly (present in Node 20 and 22). */
interface EngineHandle {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  onerror: (message: string, errno: number, code: string) => void;
}
interface RawEngine {
  /** The stream object that owns the engine (a Gunzip one is driven the same way: both have `reset` and `close`). */
  readonly inflate: Inflate;
  readonly handle: EngineHandle;
  /** [output bytes left, input bytes left] after each write. */
  readonly state: Uint32Array;
  /** The error zlib reported during the write under way. */
  failure: Error | null;
}

let engine: RawEngine | null = null;
/** False once this Node's zlib objects lack what `inflateStreamInto` drives: `inflateSync` then does every stream. */
let direct = true;
/** Engines made so far (tests check that streams share one). */
let made = 0;

/** A zlib engine (a gzip one with `gzip`) driven through its handle, or null when this Node's objects lack it. */
function newEngine(gzip = false): RawEngine | null {
  const inflate = gzip ? (createGunzip() as unknown as Inflate) : createInflate();
  const handle = (inflate as unknown as { _handle?: EngineHandle })._handle;
  const state = (inflate as unknown as { _writeState?: unknown })._writeState;
  if (!handle || typeof handle.writeSync !== 'function' || !(state instanceof Uint32Array) || typeof inflate.reset !== 'function') {
    inflate.close();
    return null;
  }
  const raw: RawEngine = { inflate, handle, state, failure: null };
  // zlib reports a damaged stream by calling the handle's onerror during writeSync; Node's own handler would destroy
  // the stream object and emit 'error' later. The message is kept and thrown by the write instead.
  handle.onerror = (message, errno, code) => {
    raw.failure = Object.assign(new Error(message), { errno, code });
  };
  made++;
  return raw;
}

/** Throws the error zlib reported during the last write, if any (and forgets it). */
function throwFailure(e: RawEngine): void {
  const err = e.failure;
  if (err === null) return;
  e.failure = null;
  throw err;
}

/** Bytes written one stream after another into a buffer that grows: `bytes.subarray(0, length)` holds them. */
export class GrowingOutput {
  /** The piece being written. */
  bytes: Buffer;
  /** Bytes written in `bytes`. */
  length = 0;
  /** Bytes in the pieces before `bytes`: past PIECES_FROM the output grows by adding pieces, not by copying. */
  private base = 0;
  private sealed: Buffer[] = [];
  constructor(capacity: number) {
    this.bytes = Buffer.allocUnsafe(capacity);
  }
  /** Bytes written in all. */
  get total(): number {
    return this.base + this.length;
  }
  /**
   * Makes room for `n` more bytes in `bytes`: a small output grows by at least doubling (so that growing costs at
   * most one more copy of it); one of PIECES_FROM bytes or more keeps what it holds as a piece and goes on in a new
   * one, so that a large output (a bomb running to its cap) never holds a copy of itself. Never past `most` bytes
   * in all unless `n` needs it (the most the writer can write: a bomb's cap).
   */
  reserve(n: number, most = Infinity): void {
    if (this.bytes.length - this.length >= n) return;
    if (this.bytes.length >= PIECES_FROM && this.length > 0) {
      this.sealed.push(this.bytes.subarray(0, this.length));
      this.base += this.length;
      this.bytes = Buffer.allocUnsafe(Math.max(n, Math.min(this.bytes.length, most - this.base)));
      this.length = 0;
      return;
    }
    const grown = Math.min(2 * this.bytes.length, MAX_GROWTH_STEP + this.bytes.length, most - this.base);
    const next = Buffer.allocUnsafe(Math.max(this.length + n, grown));
    this.bytes.copy(next, 0, 0, this.length);
    this.bytes = next;
  }
  /** What was written: without a copy when it is one piece, else its pieces joined once. */
  take(): Buffer {
    if (this.sealed.length) {
      const all = Buffer.concat([...this.sealed, this.bytes.subarray(0, this.length)], this.total);
      this.sealed = [];
      this.base = 0;
      this.bytes = all;
      this.length = all.length;
    }
    return this.bytes.subarray(0, this.length);
  }
}

/** Output size from which a growing output adds pieces instead of copying itself into a larger buffer. */
const PIECES_FROM = 64 << 20;

/** A buffer grows by doubling, but by no more than this at once (a large region grows in steps of 256 MiB). */
const MAX_GROWTH_STEP = 1 << 28;

/**
 * Inflates the zlib stream at the start of `input` onto the end of `out` and returns how many compressed bytes it
 * used (the next stream starts there). Bytes, count and errors are those of `inflateSync(input, { info: true,
 * maxOutputLength: maxOutput, chunkSize: maxOutput + 1 })`: zlib's message for a damaged stream, `code`
 * `ERR_BUFFER_TOO_LARGE` when it inflates past `maxOutput` before any damage (zlib writes at most one byte past the
 * cap); `out` then holds part of the stream. `room` is the space made before each write (the stream's expected
 * size). One zlib engine, reset between streams, does every stream: `inflateSync` builds a Node stream object with its
 * own native engine and 32 KiB window per call, and a Darshan log holds one stream per rank and region (6,146 in
 * sample-badost), so building and collecting those cost more than inflating. The engine outlives damaged streams too
 * (the reset clears zlib's error): in Node 20 an engine that met one is never freed (~8 KiB each), which a server
 * reading many damaged uploads would pay per stream.
 */
export function inflateStreamInto(input: Buffer, out: GrowingOutput, maxOutput: number, room: number): number {
  if (!direct) return viaInflateSync(input, out, maxOutput, room);
  if (engine !== null) {
    engine.inflate.reset();
    // a reset zlib refuses leaves the engine unusable: start again with a new one
    if (engine.failure !== null) {
      engine.inflate.close();
      engine = null;
    }
  }
  if (engine === null) {
    engine = newEngine();
    if (engine === null) {
      direct = false;
      return viaInflateSync(input, out, maxOutput, room);
    }
  }
  const e = engine;
  const { handle, state } = e;
  let inOff = 0;
  let inLeft = input.length;
  let total = 0;
  // the stream can end no further than one byte past its cap
  const end = out.total + maxOutput + 1;
  for (;;) {
    out.reserve(Math.max(1, Math.min(room, maxOutput + 1 - total)), end);
    // never more than one byte past the cap: a bomb stops there
    const avail = Math.min(out.bytes.length - out.length, maxOutput + 1 - total);
    handle.writeSync(constants.Z_FINISH, input, inOff, inLeft, out.bytes, out.length, avail);
    throwFailure(e);
    const outLeft = state[0];
    const have = avail - outLeft;
    inOff += inLeft - state[1];
    inLeft = state[1];
    out.length += have;
    total += have;
    if (total > maxOutput) throw tooLarge(maxOutput);
    // zlib stopped with room left: the stream ended (input may remain: the next stream's)
    if (outLeft !== 0) return inOff;
  }
}

/**
 * The input has ended: what the engine still holds, written into `out[outOff, outOff + outLen)`; returns how many
 * bytes. zlib's "unexpected end of file" when a stream is left unfinished with room to spare.
 */
function drain(e: RawEngine, out: Uint8Array, outOff: number, outLen: number): number {
  e.handle.writeSync(constants.Z_FINISH, out, 0, 0, out, outOff, outLen);
  throwFailure(e);
  return outLen - e.state[0];
}

const NO_PROGRESS = 'ERR_ZLIB_NO_PROGRESS';

/** An engine driven block by block into the caller's buffers: what each call used and wrote, and closing it. */
abstract class DrivenEngine {
  /** Bytes the last call used and wrote. */
  used = 0;
  wrote = 0;
  protected constructor(protected readonly e: RawEngine) {}

  close(): void {
    this.e.inflate.close();
  }
}

/**
 * Back-to-back zlib streams inflated as their compressed bytes arrive, block by block, straight into the caller's
 * buffers: what `inflateStreamInto` does for a region in memory, for a region read from a file in pieces (a DXT
 * region of a large log, on a thread of its own). Bytes and errors are those of inflating the whole region with
 * `inflateStreamInto` stream after stream: zlib's message for a damaged stream; "unexpected end of file" from
 * `finish` when the input ends inside a stream. An engine of its own, not the one `inflateStreamInto` shares.
 */
export class StreamsInflater extends DrivenEngine {
  /** `code` of the error `write` throws when zlib stops without progress at the start of a stream. */
  static readonly NO_PROGRESS = NO_PROGRESS;
  /** A stream ended and the engine was reset, and nothing was inflated since. */
  private fresh = true;
  /** Some input was given. */
  private started = false;

  /** An inflater, or null when this Node's zlib objects lack what it drives (then use Node's zlib streams). */
  static create(): StreamsInflater | null {
    if (!direct) return null;
    const e = newEngine();
    return e === null ? null : new StreamsInflater(e);
  }

  /**
   * Inflates from `input[inOff, inOff + inLen)` into `out[outOff, outOff + outLen)` (both lengths above 0) until the
   * input is used or the output full; a stream that ends is followed by the next one. Sets `used` and `wrote`. What
   * zlib holds when the input is used up comes out with the next block, or from `finish` after the last one.
   */
  write(input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void {
    const { handle, state } = this.e;
    this.started = true;
    for (;;) {
      handle.writeSync(constants.Z_NO_FLUSH, input, inOff, inLen, out, outOff, outLen);
      throwFailure(this.e);
      this.used = inLen - state[1];
      this.wrote = outLen - state[0];
      if (this.used > 0 || this.wrote > 0) {
        this.fresh = false;
        return;
      }
      // With input and room, zlib stops without progress only at the end of a stream: the next one starts here. A
      // stream just begun always takes some input, so a second stop in a row cannot happen; it would be a loop.
      if (this.fresh) throw Object.assign(new Error('zlib stream made no progress'), { code: NO_PROGRESS });
      this.e.inflate.reset();
      throwFailure(this.e);
      this.fresh = true;
    }
  }

  /**
   * The input ended: writes what zlib still holds into `out[outOff, outOff + outLen)` and sets `wrote`; while that
   * fills `out`, call again with more room. Throws zlib's "unexpected end of file" when the input ended inside a
   * stream (an input of no bytes at all is an empty region).
   */
  finish(out: Uint8Array, outOff: number, outLen: number): void {
    this.used = 0;
    this.wrote = 0;
    if (this.started) this.wrote = drain(this.e, out, outOff, outLen);
  }
}

/**
 * A gzip file inflated as its bytes arrive, block by block, straight into the caller's buffers, with the bytes and
 * errors of Node's Gunzip stream: members back to back make one output; bytes after the last member that start
 * with a zero byte are padding, and end the data (`ended`); a member cut short is zlib's "unexpected end of file"
 * from `finish`; damage is zlib's message. Errors carry zlib's `code` (`Z_DATA_ERROR`, `Z_BUF_ERROR`…).
 */
export class GunzipStream extends DrivenEngine {
  /** The gzip data ended before the input did: what follows is not gzip data and is not read. */
  ended = false;

  /** A gunzip engine, or null when this Node's zlib objects lack what it drives (then use Node's Gunzip stream). */
  static create(): GunzipStream | null {
    if (!direct) return null;
    const e = newEngine(true);
    return e === null ? null : new GunzipStream(e);
  }

  /**
   * Inflates from `input[inOff, inOff + inLen)` into `out[outOff, outOff + outLen)` until the input is used, the
   * output is full or the data ends (`ended`: input left and room to spare, as Node's stream ends there too).
   */
  write(input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void {
    const { handle, state } = this.e;
    // Node's engine goes on to the next member by itself when one ends and the next byte is not zero
    handle.writeSync(constants.Z_NO_FLUSH, input, inOff, inLen, out, outOff, outLen);
    throwFailure(this.e);
    this.used = inLen - state[1];
    this.wrote = outLen - state[0];
    if (state[0] > 0 && state[1] > 0) this.ended = true;
  }

  /** The input ended: what zlib still holds, into `out` (call again while it fills `out`); a cut member throws. */
  finish(out: Uint8Array, outOff: number, outLen: number): void {
    this.used = 0;
    this.wrote = drain(this.e, out, outOff, outLen);
  }
}

function tooLarge(maxOutput: number): Error {
  return Object.assign(new RangeError(`Cannot create a Buffer larger than ${maxOutput} bytes`), { code: 'ERR_BUFFER_TOO_LARGE' });
}

/** `inflateStreamInto` through `inflateSync`: one Node stream object per stream. */
function viaInflateSync(input: Buffer, out: GrowingOutput, maxOutput: number, room: number): number {
  // Below 1 MiB a first chunk one byte past the cap stops zlib where the engine stops. Past that the chunk is the
  // room asked for (a chunk of the whole cap per stream would be a large allocation each), and a stream both too
  // large and damaged may be reported as either.
  const chunkSize = maxOutput < 1 << 20 ? Math.max(64, maxOutput + 1) : Math.max(64, Math.min(room, 1 << 26));
  const res = inflateSync(input, { info: true, chunkSize, maxOutputLength: maxOutput }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
  out.reserve(res.buffer.length);
  res.buffer.copy(out.bytes, out.length);
  out.length += res.buffer.length;
  return res.engine.bytesWritten;
}

/** For tests: every later call goes through `inflateSync` (true), as on a Node without the members used, or not. */
export function useInflateSyncForTesting(on: boolean): void {
  direct = !on;
}

/** How many zlib engines `inflateStreamInto` has made in this thread (for tests). */
export function enginesMade(): number {
  return made;
}
