import { FormatError } from '../contract/errors.js';
import { serveTasks } from '../util/tasks.js';

/** A task script for the task runner's tests: doubles numbers, fails on request, exits the thread, or hangs. */
serveTasks<{ n: number; fail?: 'format' | 'plain' | 'exit' | 'hang'; sleepMs?: number }, { n: number; by: number }>(async (task, data) => {
  if (task.fail === 'hang') for (;;);
  if (task.sleepMs) await new Promise((r) => setTimeout(r, task.sleepMs));
  if (task.fail === 'format') throw new FormatError(`task ${task.n}: bad input`);
  if (task.fail === 'plain') throw new TypeError(`task ${task.n}: a bug`);
  if (task.fail === 'exit') process.exit(3);
  return { n: task.n * 2, by: (data as { id: number }).id };
});
