import { parentPort, Worker, workerData, type Transferable } from 'node:worker_threads';
import { BusyError, FormatError, InputError, IOLensError, LimitError, UsageError } from '../contract/errors.js';

/**
 * The one task runner of IOLens: a pool of worker threads, each running a task script that calls `serveTasks`.
 * Ingest (batches of logs) and trace analysis (ranks or files of a trace) both use it. Results are handed to
 * `onResult` one at a time, in arrival order; the first failure stops the pool and rejects, with the library's
 * error class restored across the thread boundary.
 */

interface TaskMessage<T> {
  readonly seq: number;
  readonly task: T;
}

type ReplyMessage<R> = { readonly seq: number; readonly ok: true; readonly result: R } | { readonly seq: number; readonly ok: false; readonly error: SerialError };

interface SerialError {
  readonly kind: string | null;
  readonly name: string;
  readonly message: string;
}

const KINDS: Record<string, new (message: string) => IOLensError> = {
  input: InputError,
  format: FormatError,
  limit: LimitError,
  usage: UsageError,
  busy: BusyError,
};

function serialise(err: unknown): SerialError {
  if (err instanceof IOLensError) return { kind: err.kind, name: err.name, message: err.message };
  const e = err instanceof Error ? err : new Error(String(err));
  return { kind: null, name: e.name, message: e.message };
}

/** The error a worker threw, as an instance of the same library class (or a plain Error for anything else). */
export function restoreError(s: SerialError): Error {
  const Cls = s.kind ? KINDS[s.kind] : undefined;
  if (Cls) return new Cls(s.message);
  const e = new Error(s.message);
  e.name = s.name;
  return e;
}

export interface RunTasksOptions<T, R> {
  /** The task script (a compiled module that calls `serveTasks`). */
  readonly script: URL;
  /** Passed to every worker as `workerData`. */
  readonly workerData?: unknown;
  /** Worker threads (at most one per task). */
  readonly threads: number;
  /** The tasks: an array, or any iterable, taken one at a time as workers are free (never listed whole). */
  readonly tasks: readonly T[] | Iterable<T>;
  /** Tasks sent ahead to each worker, so it never waits for the next one (default 1). */
  readonly inFlight?: number;
  /**
   * Results received but not yet handled by `onResult` beyond which no further task is sent (default: no bound).
   * With it, a slow `onResult` holds the workers back instead of letting results pile up in memory.
   */
  readonly maxQueued?: number;
  /** Called once per finished task, serially, in arrival order; a rejection stops the pool. */
  onResult(result: R, task: T, index: number): void | Promise<void>;
  /** Buffers of a task to move rather than copy. */
  transfer?(task: T): Transferable[];
  /** When aborted, no further task is sent; the tasks in flight finish and are handled, then the run resolves. */
  readonly signal?: AbortSignal;
}

/** Runs every task on a pool of worker threads; resolves when all results were handled. */
export async function runTasks<T, R>(opts: RunTasksOptions<T, R>): Promise<void> {
  const it = opts.tasks[Symbol.iterator]();
  let first: IteratorResult<T> | undefined = it.next();
  if (first.done) return;
  const count = Array.isArray(opts.tasks) ? (opts.tasks as readonly T[]).length : Infinity;
  const n = Math.max(1, Math.min(opts.threads, count));
  const inFlight = Math.max(1, opts.inFlight ?? 1);
  const maxQueued = opts.maxQueued ?? Infinity;
  const workers = Array.from({ length: n }, () => new Worker(opts.script, { workerData: opts.workerData }));
  // Tasks sent and not yet handled, by sequence number (what `onResult` is given back).
  const sent = new Map<number, T>();
  let next = 0;
  let exhausted = false;
  let outstanding = 0;
  let queued = 0;
  const parked: Worker[] = [];
  let chain: Promise<void> = Promise.resolve();
  const take = (): T | undefined => {
    if (exhausted) return undefined;
    const r = first ?? it.next();
    first = undefined;
    if (r.done) {
      exhausted = true;
      return undefined;
    }
    return r.value;
  };
  try {
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      const fail = (err: unknown) => {
        if (failed) return;
        failed = true;
        reject(err);
      };
      const stopped = () => opts.signal?.aborted === true;
      const send = (w: Worker) => {
        if (failed || stopped() || exhausted) return;
        if (queued >= maxQueued) {
          parked.push(w);
          return;
        }
        const task = take();
        if (task === undefined) return;
        const seq = next++;
        sent.set(seq, task);
        outstanding++;
        const msg: TaskMessage<T> = { seq, task };
        w.postMessage(msg, opts.transfer ? opts.transfer(task) : []);
      };
      const settle = () => {
        if (outstanding === 0 && (exhausted || stopped())) chain.then(() => resolve(), fail);
      };
      for (const w of workers) {
        w.on('message', (reply: ReplyMessage<R>) => {
          outstanding--;
          if (!reply.ok) return fail(restoreError(reply.error));
          queued++;
          const task = sent.get(reply.seq)!;
          chain = chain.then(async () => {
            try {
              await opts.onResult(reply.result, task, reply.seq);
            } finally {
              sent.delete(reply.seq);
              queued--;
            }
            while (parked.length > 0 && queued < maxQueued && !exhausted) send(parked.shift()!);
            if (parked.length > 0 && (exhausted || stopped())) parked.length = 0;
            settle();
          });
          chain.catch(fail);
          send(w);
          settle();
        });
        w.on('error', fail);
        w.on('exit', (code) => {
          if (outstanding > 0 || (!exhausted && !stopped())) fail(new Error(`task worker exited with code ${code}`));
        });
        for (let k = 0; k < inFlight; k++) send(w);
      }
      settle();
    });
    await chain;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/**
 * The worker side: handles each task with `handle` and posts the result back (errors are sent as data, never
 * crash the thread). `transfer` names result buffers to move rather than copy.
 */
export function serveTasks<T, R>(handle: (task: T, data: unknown) => R | Promise<R>, transfer?: (result: R) => Transferable[]): void {
  const port = parentPort;
  if (!port) throw new Error('serveTasks runs only in a worker thread');
  port.on('message', (msg: TaskMessage<T>) => {
    Promise.resolve()
      .then(() => handle(msg.task, workerData))
      .then(
        (result) => port.postMessage({ seq: msg.seq, ok: true, result } satisfies ReplyMessage<R>, transfer ? transfer(result) : []),
        (err: unknown) => port.postMessage({ seq: msg.seq, ok: false, error: serialise(err) } satisfies ReplyMessage<R>),
      );
  });
}

export interface TaskPoolOptions {
  /** The task script (a compiled module that calls `serveTasks`). */
  readonly script: URL;
  readonly workerData?: unknown;
  /** Worker threads, started at once and kept. */
  readonly threads: number;
  /** Tasks that may wait for a free thread; past it `submit` refuses with a BusyError at once. */
  readonly maxQueued: number;
  /** A task running longer than this is abandoned: its thread is terminated and replaced, the task rejects. */
  readonly timeoutMs: number;
}

interface Pending<T, R> {
  readonly task: T;
  readonly transfer: Transferable[];
  readonly resolve: (r: R) => void;
  readonly reject: (e: unknown) => void;
}

interface Slot<T, R> {
  worker: Worker;
  job: Pending<T, R> | null;
  timer: NodeJS.Timeout | null;
}

/**
 * A long-lived pool for a service: tasks arrive one at a time (`submit`), wait in a bounded queue for one of a
 * fixed number of worker threads, and each either answers, fails with its library error, or is stopped after
 * `timeoutMs` (its thread is replaced, so a runaway input never holds a thread). Same task-script protocol as
 * `runTasks` (`serveTasks`).
 */
export class TaskPool<T, R> {
  private readonly slots: Slot<T, R>[] = [];
  private readonly queue: Pending<T, R>[] = [];
  private seq = 0;
  private closed = false;

  constructor(private readonly opts: TaskPoolOptions) {
    for (let i = 0; i < Math.max(1, opts.threads); i++) this.slots.push(this.spawn());
  }

  /** Tasks waiting for a thread. */
  get queued(): number {
    return this.queue.length;
  }

  /** Tasks running now. */
  get running(): number {
    return this.slots.filter((s) => s.job !== null).length;
  }

  /** Runs a task; rejects with a BusyError when the queue is full, a LimitError past the time limit. */
  submit(task: T, transfer: Transferable[] = []): Promise<R> {
    if (this.closed) return Promise.reject(new BusyError('the task pool is shut down'));
    const free = this.slots.find((s) => s.job === null);
    if (!free && this.queue.length >= this.opts.maxQueued) {
      return Promise.reject(new BusyError(`busy: ${this.slots.length} tasks running and ${this.queue.length} waiting`));
    }
    return new Promise<R>((resolve, reject) => {
      const p: Pending<T, R> = { task, transfer, resolve, reject };
      if (free) this.start(free, p);
      else this.queue.push(p);
    });
  }

  /** Stops every thread; queued and running tasks reject. */
  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new BusyError('the task pool is shut down'));
    // (a running task rejects once its thread is gone: whatever the task made on disk can then be removed for good)
    await Promise.all(
      this.slots.map(async (s) => {
        if (s.timer) clearTimeout(s.timer);
        const job = s.job;
        s.job = null;
        await s.worker.terminate().catch(() => undefined);
        job?.reject(new BusyError('the task pool is shut down'));
      }),
    );
  }

  private spawn(): Slot<T, R> {
    const slot: Slot<T, R> = { worker: new Worker(this.opts.script, { workerData: this.opts.workerData }), job: null, timer: null };
    slot.worker.on('message', (reply: ReplyMessage<R>) => {
      const job = slot.job;
      if (!job) return;
      this.finish(slot);
      if (reply.ok) job.resolve(reply.result);
      else job.reject(restoreError(reply.error));
    });
    slot.worker.on('error', (err) => this.replace(slot, err));
    slot.worker.on('exit', (code) => {
      if (!this.closed && this.slots.includes(slot)) this.replace(slot, new Error(`task worker exited with code ${code}`));
    });
    return slot;
  }

  private start(slot: Slot<T, R>, p: Pending<T, R>): void {
    slot.job = p;
    slot.timer = setTimeout(() => this.replace(slot, new LimitError(`took longer than ${Number((this.opts.timeoutMs / 1000).toPrecision(2))} s (the time limit of one request)`)), this.opts.timeoutMs);
    const msg: TaskMessage<T> = { seq: this.seq++, task: p.task };
    slot.worker.postMessage(msg, p.transfer);
  }

  private finish(slot: Slot<T, R>): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    const next = this.queue.shift();
    if (next) this.start(slot, next);
  }

  /** A thread that timed out or died: its task rejects, a fresh thread takes its place and the queue moves on. */
  private replace(slot: Slot<T, R>, err: unknown): void {
    const i = this.slots.indexOf(slot);
    if (i < 0 || this.closed) return;
    const job = slot.job;
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = null;
    slot.timer = null;
    this.slots.splice(i, 1);
    slot.worker.removeAllListeners();
    slot.worker.on('error', () => undefined);
    const gone = slot.worker.terminate().catch(() => undefined);
    const fresh = this.spawn();
    this.slots.push(fresh);
    // (the task rejects once its thread has stopped: nothing it started writes after its caller cleans up)
    void gone.then(() => job?.reject(err));
    const next = this.queue.shift();
    if (next) this.start(fresh, next);
  }
}
