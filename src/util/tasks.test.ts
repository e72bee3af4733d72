import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormatError } from '../contract/errors.js';
import { distFile } from './package-root.js';
import { runTasks } from './tasks.js';

const script = distFile('testing/task-worker.js');

test('runTasks: every task runs once on the pool, results handled one at a time', async () => {
  const tasks = Array.from({ length: 50 }, (_, n) => ({ n }));
  const seen: number[] = [];
  let active = 0;
  await runTasks<{ n: number }, { n: number; by: number }>({
    script,
    workerData: { id: 7 },
    threads: 2,
    inFlight: 2,
    tasks,
    async onResult(r, task, i) {
      assert.equal(active++, 0, 'onResult calls never overlap');
      await new Promise((res) => setTimeout(res, 1));
      assert.equal(r.n, task.n * 2);
      assert.equal(i, task.n);
      assert.equal(r.by, 7);
      seen.push(task.n);
      active--;
    },
  });
  assert.deepEqual([...seen].sort((a, b) => a - b), tasks.map((t) => t.n));
});

test('runTasks: a library error in a worker arrives as the same class; a bug as a plain error; an exit rejects', async () => {
  const run = (fail: 'format' | 'plain' | 'exit') =>
    runTasks({ script, workerData: { id: 1 }, threads: 2, tasks: [{ n: 1 }, { n: 2, fail }, { n: 3 }], onResult: () => undefined });
  await assert.rejects(run('format'), (e: unknown) => e instanceof FormatError && e.message === 'task 2: bad input');
  await assert.rejects(run('plain'), (e: unknown) => e instanceof Error && !(e instanceof FormatError) && e.name === 'TypeError' && /a bug/.test(e.message));
  await assert.rejects(run('exit'), /task worker exited with code 3/);
});

test('runTasks: an onResult failure stops the pool', async () => {
  await assert.rejects(
    runTasks({ script, workerData: { id: 1 }, threads: 2, tasks: Array.from({ length: 20 }, (_, n) => ({ n })), onResult: (r: { n: number }) => {
      if (r.n === 10) throw new Error('writer failed');
    } }),
    /writer failed/,
  );
});

test('TaskPool: answers in any order, refuses past its queue, replaces a thread that runs past the time limit or dies', async () => {
  const { TaskPool } = await import('./tasks.js');
  const { BusyError, FormatError, LimitError } = await import('../contract/errors.js');
  const pool = new TaskPool<{ n: number; fail?: 'format' | 'plain' | 'exit' | 'hang'; sleepMs?: number }, { n: number; by: number }>({ script, workerData: { id: 9 }, threads: 2, maxQueued: 2, timeoutMs: 1500 });
  try {
    assert.deepEqual(await Promise.all([1, 2, 3].map((n) => pool.submit({ n }))), [{ n: 2, by: 9 }, { n: 4, by: 9 }, { n: 6, by: 9 }]);
    // Two running, two waiting: the fifth is refused at once.
    const slow = [1, 2, 3, 4].map((n) => pool.submit({ n, sleepMs: 300 }));
    await assert.rejects(pool.submit({ n: 5 }), (e: unknown) => e instanceof BusyError && /2 tasks running and 2 waiting/.test((e as Error).message));
    assert.equal((await Promise.all(slow)).length, 4);
    await assert.rejects(pool.submit({ n: 1, fail: 'format' }), FormatError);
    // A runaway task: its thread is replaced and the next task is served.
    const hung = pool.submit({ n: 1, fail: 'hang' });
    const after = pool.submit({ n: 7 });
    await assert.rejects(hung, (e: unknown) => e instanceof LimitError && /^took longer than 1.5 s \(the time limit of one request\)$/.test((e as Error).message));
    assert.deepEqual(await after, { n: 14, by: 9 });
    await assert.rejects(pool.submit({ n: 1, fail: 'exit' }), /exited with code 3/);
    assert.deepEqual(await pool.submit({ n: 8 }), { n: 16, by: 9 });
    assert.equal(pool.running + pool.queued, 0);
  } finally {
    await pool.close();
  }
});

test('runTasks: an iterable is taken as workers are free, and a slow onResult holds it back at maxQueued', { timeout: 120_000 }, async () => {
  // (count-based: however slow the machine, the tasks taken never run ahead of those handled by more than the pool
  // in flight plus the results allowed to wait)
  const threads = 2;
  const inFlight = 2;
  const maxQueued = 3;
  let taken = 0;
  let handled = 0;
  let aheadMax = 0;
  function* tasks(): Generator<{ n: number }> {
    for (let n = 0; n < 200; n++) {
      taken++;
      aheadMax = Math.max(aheadMax, taken - handled);
      yield { n };
    }
  }
  const seen = new Set<number>();
  await runTasks<{ n: number }, { n: number; by: number }>({
    script,
    workerData: { id: 3 },
    threads,
    inFlight,
    maxQueued,
    tasks: tasks(),
    async onResult(r, task, i) {
      assert.equal(r.n, task.n * 2);
      assert.equal(i, task.n);
      seen.add(task.n);
      await new Promise((res) => setTimeout(res, 2));
      handled++;
    },
  });
  assert.equal(seen.size, 200);
  assert.equal(taken, 200);
  assert.ok(aheadMax <= threads * inFlight + maxQueued, `tasks taken ran ${aheadMax} ahead of those handled (bound ${threads * inFlight + maxQueued})`);
  // Without the bound the pool takes every task while the writer is stalled on its first result.
  let release!: () => void;
  const stalled = new Promise<void>((res) => (release = res));
  let takenFree = 0;
  function* free(): Generator<{ n: number }> {
    for (let n = 0; n < 200; n++, takenFree++) yield { n };
    release();
  }
  let handledFree = 0;
  await runTasks<{ n: number }, { n: number; by: number }>({
    script, workerData: { id: 3 }, threads, inFlight, tasks: free(),
    async onResult() {
      await stalled;
      handledFree++;
    },
  });
  assert.equal(takenFree, 200);
  assert.equal(handledFree, 200);
});

test('runTasks: an empty iterable resolves at once; one task from a generator runs', async () => {
  await runTasks({ script, workerData: { id: 1 }, threads: 2, tasks: (function* () {})(), onResult: () => assert.fail('no task') });
  const got: number[] = [];
  await runTasks<{ n: number }, { n: number; by: number }>({ script, workerData: { id: 1 }, threads: 2, tasks: (function* () { yield { n: 21 }; })(), onResult: (r) => void got.push(r.n) });
  assert.deepEqual(got, [42]);
});
