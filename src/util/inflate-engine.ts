import { constants, createInflate, inflateSync, type Inflate } from 'node:zlib';

/** One zlib stream inflated: its bytes and how many compressed bytes it used (the next stream starts there). */
export interface InflatedStream {
  readonly buffer: Buffer;
  readonly used: number;
}

/** The parts of Node's zlib stream object this module drives directly (present in Node 20 and 22). */
interface EngineHandle {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  onerror: (message: string, errno: number, code: string) => void;
}
interface RawEngine {
  readonly inflate: Inflate;
  readonly handle: EngineHandle;
  /** [output bytes left, input bytes left] after each write. */
  readonly state: Uint32Array;
}

let engine: RawEngine | null = null;
/** The error zlib reported during the write under way. */
let failure: Error | null = null;
/** False once this Node's zlib objects lack what `inflateStream` drives: `inflateSync` then does every stream. */
let direct = true;
/** Engines made so far (tests check that streams share one). */
let made = 0;

function newEngine(): RawEngine | null {
  const inflate = createInflate();
  const handle = (inflate as unknown as { _handle?: EngineHandle })._handle;
  const state = (inflate as unknown as { _writeState?: unknown })._writeState;
  if (!handle || typeof handle.writeSync !== 'function' || !(state instanceof Uint32Array) || typeof inflate.reset !== 'function') {
    inflate.close();
    return null;
  }
  // zlib reports a damaged stream by calling the handle's onerror during writeSync; Node's own handler would destroy
  // the stream object and emit 'error' later. The message is kept and thrown by the write instead.
  handle.onerror = (message, errno, code) => {
    failure = Object.assign(new Error(message), { errno, code });
  };
  made++;
  return { inflate, handle, state };
}

/**
 * Inflates the zlib stream at the start of `input`, like `inflateSync(input, { info: true, chunkSize, maxOutputLength:
 * maxOutput })` (the same bytes, the same count of input used, the same errors: zlib's message, or `code`
 * `ERR_BUFFER_TOO_LARGE` past `maxOutput`), on one zlib engine reset between streams. `inflateSync` builds a Node
 * stream object with its own native engine and 32 KiB window per call: a Darshan log holds one stream per rank and
 * region (6,146 in sample-badost), and building and collecting those objects cost more than the inflating. After a
 * damaged stream the engine is dropped (zlib leaves it mid-write) and the next call makes another.
 */
export function inflateStream(input: Buffer, chunkSize: number, maxOutput: number): InflatedStream {
  if (!direct) return viaInflateSync(input, chunkSize, maxOutput);
  if (engine === null) {
    engine = newEngine();
    if (engine === null) {
      direct = false;
      return viaInflateSync(input, chunkSize, maxOutput);
    }
  } else engine.inflate.reset();
  const { handle, state } = engine;
  let out = Buffer.allocUnsafe(chunkSize);
  let outOff = 0;
  let inOff = 0;
  let inLeft = input.length;
  let parts: Buffer[] | null = null;
  let first: Buffer | null = null;
  let total = 0;
  for (;;) {
    handle.writeSync(constants.Z_FINISH, input, inOff, inLeft, out, outOff, out.length - outOff);
    if (failure !== null) {
      const err = failure;
      failure = null;
      engine.inflate.close();
      engine = null;
      throw err;
    }
    const outLeft = state[0];
    const have = out.length - outOff - outLeft;
    inOff += inLeft - state[1];
    inLeft = state[1];
    if (have > 0) {
      const piece = out.subarray(outOff, outOff + have);
      if (first === null) first = piece;
      else (parts ??= [first]).push(piece);
      total += have;
      outOff += have;
      if (total > maxOutput) throw Object.assign(new RangeError(`Cannot create a Buffer larger than ${maxOutput} bytes`), { code: 'ERR_BUFFER_TOO_LARGE' });
    }
    // zlib stopped with room left: the stream ended (input may remain: the next stream's)
    if (outLeft !== 0) break;
    out = Buffer.allocUnsafe(chunkSize);
    outOff = 0;
  }
  const buffer = first === null ? Buffer.alloc(0) : parts === null ? first : Buffer.concat(parts, total);
  return { buffer, used: inOff };
}

function viaInflateSync(input: Buffer, chunkSize: number, maxOutput: number): InflatedStream {
  const res = inflateSync(input, { info: true, chunkSize, maxOutputLength: maxOutput }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
  return { buffer: res.buffer, used: res.engine.bytesWritten };
}

/** How many zlib engines `inflateStream` has made in this thread (for tests). */
export function enginesMade(): number {
  return made;
}
