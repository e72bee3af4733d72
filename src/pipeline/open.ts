import { InputError, IOLensError } from '../contract/errors.js';
import { DarshanLog } from '../formats/darshan/index.js';
import type { OpenOptions } from '../formats/darshan/log.js';

/** A log to analyse: a path, the bytes of one (with the name to show), or an opened log. */
export type LogInput = string | { readonly path: string; readonly bytes: Uint8Array } | DarshanLog;

/** The name a log is shown under (its path as given). */
export function inputName(input: LogInput): string {
  return typeof input === 'string' ? input : input instanceof DarshanLog ? input.source : input.path;
}

/**
 * Opens a Darshan log. Every failure is an `InputError` (or a `FormatError` for a malformed log) whose message
 * starts with the path: `run.darshan: corrupt POSIX region (…)`, `x.darshan: no such file`.
 */
export function openLog(input: LogInput, opts: OpenOptions = {}): DarshanLog {
  if (input instanceof DarshanLog) return input;
  const path = typeof input === 'string' ? input : input.path;
  try {
    return typeof input === 'string' ? DarshanLog.open(input, opts) : DarshanLog.fromBytes(input.bytes, input.path, opts);
  } catch (err) {
    throw withPath(path, err);
  }
}

/** Turns an error met while reading `path` into an IOLensError naming it (a library error passes through). */
export function withPath(path: string, err: unknown): Error {
  if (err instanceof IOLensError) {
    // Errors of the input name it; errors of the request (options, configuration) do not.
    if (!(err instanceof InputError) || err.message.startsWith(`${path}: `)) return err;
    // The same class, its message prefixed with the path.
    const Cls = err.constructor as new (message: string) => IOLensError;
    return new Cls(`${path}: ${err.message}`);
  }
  const e = err as NodeJS.ErrnoException;
  if (e && e.code === 'ENOENT') return new InputError(`${path}: no such file`);
  if (e && e.code === 'EACCES') return new InputError(`${path}: permission denied`);
  if (e && e.code === 'EISDIR') return new InputError(`${path}: is a directory, not a Darshan log`);
  if (e && typeof e.code === 'string') return new InputError(`${path}: cannot read (${e.code})`);
  return err instanceof Error ? err : new Error(String(err));
}
