/**
 * The library's errors. Every error IOLens throws on purpose is an `IOLensError`: its message is one line the user
 * can act on (it may quote the user's file names: front-ends escape it before printing). Anything else that
 * escapes the library is a bug. Front-ends map the classes to their own conventions (the CLI: exit status 2 for
 * these, 70 for anything else; the web service: 4xx for these, 500 for anything else).
 */
export class IOLensError extends Error {
  /** Stable machine-readable kind (`input`, `format`, `limit`, `usage`, `busy`). */
  readonly kind: string = 'error';
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** An input cannot be used: it does not exist, cannot be read, or is not what it claims to be. */
export class InputError extends IOLensError {
  override readonly kind: string = 'input';
}

/** The content of an input is malformed (a corrupt Darshan region, a trace line that is not JSON …). */
export class FormatError extends InputError {
  override readonly kind: string = 'format';
}

/** An input exceeds a budget set to bound time or memory (inflated size, line length, archive size …). */
export class LimitError extends InputError {
  override readonly kind: string = 'limit';
}

/** The disk a store lives on has no room for a write (refused before the write starts). */
export class NoSpaceError extends IOLensError {
  override readonly kind: string = 'space';
}

/** A request the library cannot honour as asked: an unknown option value, a bad configuration or rules file. */
export class UsageError extends IOLensError {
  override readonly kind: string = 'usage';
}

/** A resource is held by someone else (a database another process writes). */
export class BusyError extends IOLensError {
  override readonly kind: string = 'busy';
}

/** Whether a value is one of the library's errors (also across worker threads, where classes are lost). */
export function isIOLensError(err: unknown): err is IOLensError {
  return err instanceof IOLensError;
}
