// Runs the kernels either in this thread or on worker threads sharing memory (SharedArrayBuffer). Work is split in
// chunks handed out through an atomic counter, so threads balance themselves; dense Prim synchronises its threads
// once per added edge with a barrier on Atomics.wait/notify.
import { Worker } from 'node:worker_threads';
import { distFile } from '../util/package-root.js';
import { boruvkaQueries, coreKd, primThread, sharedI32 } from './kernels.js';
import type { BoruvkaState, ChunkSource, KdTree, PrimState } from './kernels.js';

type Op =
  | { op: 'coreKd'; tree: KdTree; k: number; kept: number; out: Float64Array; nbr: Int32Array; nbrD: Float64Array }
  | { op: 'boruvka'; tree: KdTree; state: BoruvkaState }
  | { op: 'prim'; state: PrimState; t: number; T: number };

/** What a worker receives: an operation plus the shared control word array and the chunking of its range. */
export type PoolRequest = Op & { ctl: Int32Array; total: number; chunk: number };

/** Chunk starts from a shared counter (ctl[0]). */
export function atomicChunks(ctl: Int32Array, total: number, chunk: number): ChunkSource {
  return () => {
    const s = Atomics.add(ctl, 0, chunk);
    return s < total ? s : -1;
  };
}

/** A reusable barrier for T threads on ctl[1] (arrivals) and ctl[2] (generation). */
export function atomicBarrier(ctl: Int32Array, T: number): () => void {
  return () => {
    const gen = Atomics.load(ctl, 2);
    if (Atomics.add(ctl, 1, 1) === T - 1) {
      Atomics.store(ctl, 1, 0);
      Atomics.add(ctl, 2, 1);
      Atomics.notify(ctl, 2);
      return;
    }
    for (let spin = 0; spin < 4000; spin++) if (Atomics.load(ctl, 2) !== gen) return;
    while (Atomics.load(ctl, 2) === gen) Atomics.wait(ctl, 2, gen, 50);
  };
}

type Reply = { ok: true } | { ok: false; message: string };

/** Kernels on `threads` threads: 1 runs them here, more start that many workers (call close() when done). */
export class KernelPool {
  private readonly workers: Worker[] = [];
  private readonly ctl = sharedI32(4);

  constructor(readonly threads: number) {
    if (threads > 1) for (let i = 0; i < threads; i++) this.workers.push(new Worker(distFile('cluster/worker.js')));
  }

  private async all(reqs: PoolRequest[]): Promise<void> {
    const replies = await Promise.all(
      this.workers.map(
        (w, i) =>
          new Promise<Reply>((resolve) => {
            const onError = (err: Error): void => resolve({ ok: false, message: err.message });
            w.once('error', onError);
            w.once('message', (m: Reply) => {
              w.off('error', onError);
              resolve(m);
            });
            w.postMessage(reqs[i]);
          }),
      ),
    );
    const bad = replies.find((r) => !r.ok);
    if (bad && !bad.ok) throw new Error(`clustering worker failed: ${bad.message}`);
  }

  private async chunked(op: Op, total: number, chunk: number): Promise<void> {
    if (this.threads <= 1) {
      let next = 0;
      const chunks: ChunkSource = () => {
        const s = next;
        next += chunk;
        return s < total ? s : -1;
      };
      runHere(op, chunks, chunk);
      return;
    }
    Atomics.store(this.ctl, 0, 0);
    await this.all(this.workers.map(() => ({ ...op, ctl: this.ctl, total, chunk })));
  }

  /** Squared core distances of tree rows and their `kept` nearest rows (tree order). */
  coreKd(tree: KdTree, k: number, kept: number, out: Float64Array, nbr: Int32Array, nbrD: Float64Array): Promise<void> {
    return this.chunked({ op: 'coreKd', tree, k, kept, out, nbr, nbrD }, tree.n, 64);
  }

  /** One Borůvka round of nearest-other-component queries over all rows. */
  boruvka(tree: KdTree, state: BoruvkaState): Promise<void> {
    return this.chunked({ op: 'boruvka', tree, state }, tree.n, 256);
  }

  /** Dense Prim over all threads. */
  async prim(state: PrimState): Promise<void> {
    if (this.threads <= 1) {
      primThread(state, 0, 1, () => {});
      return;
    }
    Atomics.store(this.ctl, 1, 0);
    const T = this.workers.length;
    await this.all(this.workers.map((_, t) => ({ op: 'prim', state, t, T, ctl: this.ctl, total: 0, chunk: 0 })));
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.workers.length = 0;
  }
}

function runHere(op: Op, chunks: ChunkSource, chunk: number): void {
  switch (op.op) {
    case 'coreKd':
      coreKd(op.tree, op.k, op.kept, op.out, op.nbr, op.nbrD, chunks, chunk);
      break;
    case 'boruvka':
      boruvkaQueries(op.tree, op.state, chunks, chunk);
      break;
    case 'prim':
      throw new Error('prim runs through KernelPool.prim');
  }
}
