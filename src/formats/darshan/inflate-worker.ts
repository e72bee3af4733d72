import { createReadStream } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { LimitError } from '../../contract/errors.js';
import { InflateBudget, inflateChunks } from './compression.js';
import type { InflateJob, InflateReply } from './inflate-thread.js';

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

async function run(): Promise<void> {
  // zlib's pieces are views into buffers it keeps writing: they are copied into pieces of our own
  let acc = new Uint8Array(spare.pop() ?? new ArrayBuffer(job.chunk));
  let n = 0;
  const open = (from: number) => createReadStream(job.path, { start: job.start + from, end: job.start + job.length - 1, highWaterMark: job.chunk });
  // past MAX_REGION_BYTES inflateChunks stops by itself
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
        acc = new Uint8Array(spare.pop() ?? new ArrayBuffer(job.chunk));
        n = 0;
      }
    }
  }
  if (n > 0) await send(acc.slice(0, n));
}

run().then(
  () => port.postMessage({ end: true } satisfies InflateReply),
  (err: unknown) => port.postMessage({ error: (err as Error).message ?? String(err), limit: err instanceof LimitError } satisfies InflateReply),
);
