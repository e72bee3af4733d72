import type { DarshanLog, OpenOptions } from '../formats/darshan/log.js';
import { openLog, withPath } from '../pipeline/open.js';

/**
 * Runs `read` on the log at `path`: an error of the input met while reading it (a damaged region, a budget
 * overrun) becomes one library error line that names the file. Anything else passes through unchanged.
 */
export function readingLog<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw withPath(path, err);
  }
}

/** Opens a log for a command: every read failure is one library error line naming the file (exit 2). */
export function openLogOrExit(path: string, opts: OpenOptions = {}): DarshanLog {
  return openLog(path, opts);
}
