import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { LimitError } from '../../contract/errors.js';
import { StreamsInflater } from '../../util/inflate-engine.js';
import { InflateBudget, inflateChunks, ratioLimit, ratioTooLarge } from './compression.js';
import type { InflateJob, InflateReply } from './inflate-thread.js';
import { fsPath } from '../../util/byte-path.js';

/**
 * Worker entry of `inflateFileChunks`: inflates one zlib region of a log file (back-to-back zlib streams) and posts
 * it in pieces of `job.chunk` bytes (the last one shorter), moved, not copied, to the main thread. It runs at most
 * `job.ahead` pieces ahead: each message from the main thread is one more piece it may send, and may give a piece's
 * buffer back to be filled again (so that neither thread allocates per piece). The main thread
 * charges the log's budget; this thread only stops past the largest region IOLens reads.
 */
const port = parentPort!;
const job = workerData as InflateJob;
let credits = job.ahead;
let wake: (() => void) | null = null;
/** Pieces the main thread is done with, sent back to be filled again. */
const spare: ArrayBuffer[] = [];
port.on('message', (back: ArrayBuffer | null) => {
  if (back !== null && back.byteLength === job.chunk) spare.push(back);
  credits++;
  const w = wake;
  wake = null;
  w?.();
});

async function send(piece: Uint8Array): Promise<void> {
  while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
  credits--;
  const reply: InflateReply = { piece };
  port.postMessage(reply, [piece.buffer as ArrayBuffer]);
}

function nextPiece(): Uint8Array {
  return new Uint8Array(spare.pop() ?? new ArrayBuffer(job.chunk));
}

/**
 * The region read in blocks of `job.chunk` bytes and inflated by this thread itself, straight into the pieces it
 * posts: no copy, and no hand-over to Node's thread pool and back for every piece.
 */
async function inflateHere(inflater: StreamsInflater): Promise<void> {
  const fd = openSync(job.path, 'r');
  try {
    const input = Buffer.allocUnsafe(Math.max(1, Math.min(job.chunk, job.length)));
    let read = 0;
    let inOff = 0;
    let inLeft = 0;
    let total = 0;
    let piece = nextPiece();
    let n = 0;
    /** Counts what the inflater wrote into `piece` and sends the piece once it is full; false while it is not. */
    const took = async (): Promise<boolean> => {
      n += inflater.wrote;
      total += inflater.wrote;
      if (total > ratioLimit(job.length, job.what)) throw ratioTooLarge(job.what, job.length);
      if (n < job.chunk) return false;
      await send(piece);
      piece = nextPiece();
      n = 0;
      return true;
    };
    for (;;) {
      if (inLeft === 0) {
        // a file shorter than its header says ends the input early: zlib then reports the cut stream
        const got = read < job.length ? readSync(fd, input, 0, Math.min(input.length, job.length - read), job.start + read) : 0;
        if (got <= 0) break;
        read += got;
        inOff = 0;
        inLeft = got;
      }
      try {
        inflater.write(input, inOff, inLeft, piece, n, job.chunk - n);
      } catch (err) {
        throw corrupt(err as NodeJS.ErrnoException);
      }
      inOff += inflater.used;
      inLeft -= inflater.used;
      await took();
    }
    // what zlib still holds after the last block, as long as it fills pieces
    do {
      try {
        inflater.finish(piece, n, job.chunk - n);
      } catch (err) {
        throw corrupt(err as NodeJS.ErrnoException);
      }
    } while (await took());
    if (n > 0) await send(piece.slice(0, n));
  } finally {
    closeSync(fd);
    inflater.close();
  }
}

/** A zlib error as the region's error, worded as for a region inflated in memory. */
function corrupt(err: NodeJS.ErrnoException): Error {
  return new Error(`corrupt ${job.what} region (${err.code === StreamsInflater.NO_PROGRESS ? 'zlib stream made no progress' : `zlib: ${err.message}`})`);
}

/** The region through Node's zlib streams (a Node without what `StreamsInflater` drives, or `job.viaStreams`). */
async function inflateThroughStreams(): Promise<void> {
  // zlib's pieces are views into buffers it keeps writing: they are copied into pieces of our own
  let acc = nextPiece();
  let n = 0;
  const open = (from: number) => createReadStream(fsPath(job.path), { start: job.start + from, end: job.start + job.length - 1, highWaterMark: job.chunk });
  // the caller charges the pieces to the log's budget (this thread stays at most `ahead` pieces ahead of it)
  const budget = new InflateBudget(Infinity);
  for await (const piece of inflateChunks(job.length, open, job.what, budget, job.chunk, () => {})) {
    let p = 0;
    while (p < piece.length) {
      const k = Math.min(piece.length - p, job.chunk - n);
      acc.set(piece.subarray(p, p + k), n);
      n += k;
      p += k;
      if (n === job.chunk) {
        await send(acc);
        acc = nextPiece();
        n = 0;
      }
    }
  }
  if (n > 0) await send(acc.slice(0, n));
}

const inflater = job.viaStreams ? null : StreamsInflater.create();
(inflater ? inflateHere(inflater) : inflateThroughStreams()).then(
  () => port.postMessage({ end: true } satisfies InflateReply),
  (err: unknown) => port.postMessage({ error: (err as Error).message ?? String(err), limit: err instanceof LimitError } satisfies InflateReply),
);
