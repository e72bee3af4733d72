import { DarshanLog } from '../formats/darshan/log.js';
import { DarshanFormatError } from '../formats/darshan/errors.js';
import { UserError } from './errors.js';

/** Opens a log for a command, turning every read failure into one clear UserError line. */
export function openLogOrExit(path: string): DarshanLog {
  try {
    return DarshanLog.open(path);
  } catch (err) {
    if (err instanceof DarshanFormatError) throw new UserError(`${path}: ${err.message}`);
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') throw new UserError(`${path}: no such file`);
    if (e.code === 'EACCES') throw new UserError(`${path}: permission denied`);
    if (e.code === 'EISDIR') throw new UserError(`${path}: is a directory, not a Darshan log`);
    if (e.code) throw new UserError(`${path}: cannot read (${e.code})`);
    throw err;
  }
}
