import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { LimitError } from '../../contract/errors.js';
import type { InflateBudget } from '../../util/limits.js';
import { distFile } from '../../util/package-root.js';
import { DarshanFormatError } from './errors.js';

/** What the inflating thread is given. */
export interface InflateJob {
  readonly path: string;
  /** The region's first byte in the file and its compressed length. */
  readonly start: number;
  readonly length: number;
  /** Bytes per piece posted back. */
  readonly chunk: number;
  /** Pieces the thread may post before the main thread has taken any. */
  readonly ahead: number;
  /** The module, for messages. */
  readonly what: string;
  /** Inflate through Node's zlib streams even where the thread can drive a zlib engine itself (for tests). */
  readonly viaStreams?: boolean;
}

/** What it posts back: a piece, the end, or the error that stopped it. */
export type InflateReply = { readonly piece: Uint8Array } | { readonly end: true } | { readonly error: string; readonly limit: boolean };

/** Compressed regions at least this large are inflated on a thread of their own when a second core is there. */
export const OFF_THREAD_MIN_BYTES = 4 << 20;

/** True when a region of `length` compressed bytes is worth a thread of its own on this machine. */
export function inflateOffThread(length: number): boolean {
  return length >= OFF_THREAD_MIN_BYTES && availableParallelism() >= 2;
}

/**
 * `inflateChunks` on a worker thread, for a region read from a file: the same bytes in the same order (in pieces of
 * exactly `chunk` bytes but the last), charged to `budget` as they arrive, the same errors. A piece is the caller's
 * until it asks for the next one: its buffer then goes back to the thread to be filled again. The thread reads
 * the region and inflates it itself, straight into the pieces (`StreamsInflater`; Node's zlib streams where that
 * is missing, or with `viaStreams`), so inflating goes on while the caller works on earlier pieces (Node's zlib in
 * the caller's thread advances only when the caller yields); it stays at most `ahead` pieces ahead (4 unless the
 * caller asks for more), so a bomb stops within that many pieces of the budget.
 */
export async function* inflateFileChunks(
  path: string,
  start: number,
  length: number,
  what: string,
  budget: InflateBudget,
  chunk: number,
  done: () => void,
  viaStreams = false,
  ahead = 4,
): AsyncGenerator<Uint8Array> {
  const job: InflateJob = { path, start, length, chunk, ahead, what, viaStreams };
  // worker_threads is loaded here, not with the module: few logs need it, and loading it costs every start ~0.5 ms.
  const { Worker } = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
  const worker = new Worker(distFile('formats/darshan/inflate-worker.js'), { workerData: job });
  // at most `ahead` pieces and the end wait here
  const queue: InflateReply[] = [];
  let wake: (() => void) | null = null;
  let failure: Error | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  worker.on('message', (m: InflateReply) => {
    queue.push(m);
    notify();
  });
  worker.on('error', (err) => {
    failure ??= err;
    notify();
  });
  worker.on('exit', (code) => {
    failure ??= new Error(`the inflating thread exited with code ${code}`);
    notify();
  });
  try {
    for (;;) {
      while (queue.length === 0 && failure === null) await new Promise<void>((resolve) => (wake = resolve));
      const m = queue.shift();
      if (m === undefined) throw failure!;
      if ('end' in m) break;
      if ('error' in m) throw m.limit ? new LimitError(m.error) : new DarshanFormatError(m.error);
      budget.charge(m.piece.length, `the ${what} region`);
      yield m.piece;
      // the caller asked for the next piece: this one's buffer goes back to be filled again
      const back = m.piece.buffer as ArrayBuffer;
      worker.postMessage(back, [back]);
    }
  } finally {
    worker.removeAllListeners('exit');
    void worker.terminate();
  }
  done();
}
