import { DarshanLog, type OpenOptions } from '../formats/darshan/log.js';
import { IOLensError } from '../contract/errors.js';
import { UserError } from './errors.js';

/** The library error `err` as one UserError line naming the log (`path: what is wrong`). */
function named(path: string, err: IOLensError): UserError {
  if (err instanceof UserError) return err;
  return new UserError(err.message.startsWith(`${path}:`) ? err.message : `${path}: ${err.message}`);
}

/**
 * Runs `read` on the log at `path`: an error of the input met while reading it (a damaged region, a budget
 * overrun) becomes one UserError line that names the file. Anything else passes through unchanged.
 */
export function readingLog<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw err instanceof IOLensError ? named(path, err) : err;
  }
}

/** Opens a log for a command, turning every read failure into one clear UserError line. */
export function openLogOrExit(path: string, opts: OpenOptions = {}): DarshanLog {
  try {
    return DarshanLog.open(path, opts);
  } catch (err) {
    if (err instanceof IOLensError) throw named(path, err);
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') throw new UserError(`${path}: no such file`);
    if (e.code === 'EACCES') throw new UserError(`${path}: permission denied`);
    if (e.code === 'EISDIR') throw new UserError(`${path}: is a directory, not a Darshan log`);
    if (e.code) throw new UserError(`${path}: cannot read (${e.code})`);
    throw err;
  }
}
