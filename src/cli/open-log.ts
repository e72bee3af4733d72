import { DarshanLog, type OpenOptions } from '../formats/darshan/log.js';
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

/** `readingLog` of a reading that finishes later (a printer that inflates as it prints). */
export async function readingLogAsync<T>(path: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    throw withPath(path, err);
  }
}

/**
 * Opens a log for a command: every read failure is one library error line naming the file (exit 2). `fromFile`:
 * module regions stay in the file until used (`DarshanLog.openFile`), for a command that streams a large region.
 */
export function openLogOrExit(path: string, opts: OpenOptions = {}, fromFile = false): DarshanLog {
  if (!fromFile) return openLog(path, opts);
  try {
    return DarshanLog.openFile(path, opts);
  } catch (err) {
    throw withPath(path, err);
  }
}
