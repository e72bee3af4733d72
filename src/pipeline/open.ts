import { InputError, IOLensError } from '../contract/errors.js';
import { DarshanLog } from '../formats/darshan/index.js';
import type { OpenOptions } from '../formats/darshan/log.js';
import { dirname } from 'node:path';
import { isTraceInput } from './trace-input.js';
import { resolveSource } from '../formats/trace/readers/index.js';

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
    // The same class, its message prefixed with the path (and, for a trace given as a log, what to run instead).
    const Cls = err.constructor as new (message: string) => IOLensError;
    return new Cls(`${path}: ${err.message}${err.message.includes('not a Darshan log') ? traceHint(path) : ''}`);
  }
  const e = err as NodeJS.ErrnoException;
  if (e && e.code === 'ENOENT') return new InputError(`${path}: no such file`);
  if (e && e.code === 'EACCES') return new InputError(`${path}: permission denied`);
  if (e && e.code === 'EISDIR') return new InputError(`${path}: is a directory, not a Darshan log`);
  if (e && typeof e.code === 'string') return new InputError(`${path}: cannot read (${e.code})`);
  return err instanceof Error ? err : new Error(String(err));
}

/** What to run when a file that is not a Darshan log is a trace, or a file of a trace folder: '' otherwise. */
function traceHint(path: string): string {
  const NAMES: Record<string, string> = { dftracer: 'DFTracer', recorder: 'Recorder', 'recorder-parquet': 'Recorder (Parquet)', dxt: 'DXT' };
  const kind = (p: string) => {
    try {
      return NAMES[resolveSource([p]).format] ?? 'a';
    } catch {
      return null;
    }
  };
  try {
    if (isTraceInput([path])) return `; it is a ${kind(path) ?? ''} trace: run iolens trace ${path}`.replace('a  trace', 'a trace');
    // A Recorder trace is its folder: any file in it is a part (a DFTracer folder's other files are not).
    const dir = dirname(path);
    const k = isTraceInput([dir]) ? kind(dir) : null;
    if (k === 'Recorder' || k === 'Recorder (Parquet)') return `; it is a file of the ${k} trace in ${dir}: run iolens trace ${dir}`;
  } catch {
    // (a hint only)
  }
  return '';
}
