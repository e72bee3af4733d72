import { FormatError } from '../contract/errors.js';
import { serveTasks } from '../util/tasks.js';

/** A task script for the task runner's tests: doubles numbers, fails on request, or exits the thread. */
serveTasks<{ n: number; fail?: 'format' | 'plain' | 'exit' }, { n: number; by: number }>((task, data) => {
  if (task.fail === 'format') throw new FormatError(`task ${task.n}: bad input`);
  if (task.fail === 'plain') throw new TypeError(`task ${task.n}: a bug`);
  if (task.fail === 'exit') process.exit(3);
  return { n: task.n * 2, by: (data as { id: number }).id };
});
