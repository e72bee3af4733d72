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
