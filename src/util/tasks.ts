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
  readonly tasks: readonly T[];
  /** Tasks sent ahead to each worker, so it never waits for the next one (default 1). */
  readonly inFlight?: number;
  /** Called once per finished task, serially, in arrival order; a rejection stops the pool. */
  onResult(result: R, task: T, index: number): void | Promise<void>;
  /** Buffers of a task to move rather than copy. */
  transfer?(task: T): Transferable[];
  /** When aborted, no further task is sent; the tasks in flight finish and are handled, then the run resolves. */
  readonly signal?: AbortSignal;
}

/** Runs every task on a pool of worker threads; resolves when all results were handled. */
export async function runTasks<T, R>(opts: RunTasksOptions<T, R>): Promise<void> {
  const tasks = opts.tasks;
  if (tasks.length === 0) return;
  const n = Math.max(1, Math.min(opts.threads, tasks.length));
  const inFlight = Math.max(1, opts.inFlight ?? 1);
  const workers = Array.from({ length: n }, () => new Worker(opts.script, { workerData: opts.workerData }));
  let next = 0;
  let outstanding = 0;
  let chain: Promise<void> = Promise.resolve();
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
        if (failed || stopped() || next >= tasks.length) return;
        const seq = next++;
        outstanding++;
        const msg: TaskMessage<T> = { seq, task: tasks[seq] };
        w.postMessage(msg, opts.transfer ? opts.transfer(tasks[seq]) : []);
      };
      for (const w of workers) {
        w.on('message', (reply: ReplyMessage<R>) => {
          outstanding--;
          if (!reply.ok) return fail(restoreError(reply.error));
          chain = chain.then(() => opts.onResult(reply.result, tasks[reply.seq], reply.seq));
          chain.catch(fail);
          send(w);
          if (outstanding === 0 && (next >= tasks.length || stopped())) chain.then(() => resolve(), fail);
        });
        w.on('error', fail);
        w.on('exit', (code) => {
          if (outstanding > 0 || (next < tasks.length && !stopped())) fail(new Error(`task worker exited with code ${code}`));
        });
        for (let k = 0; k < inFlight; k++) send(w);
      }
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
