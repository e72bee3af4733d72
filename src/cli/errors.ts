/**
 * An error the user can act on: bad input, a missing file, a wrong flag. The CLI prints its message as one line on
 * stderr and exits with `exitCode`; it never prints a stack trace for it.
 */
export class UserError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = 'UserError';
    this.exitCode = exitCode;
  }
}

/** Exit status used when `--fail-on` finds insights at or above the requested level. */
export const EXIT_FAIL_ON = 3;
/** Exit status for an unexpected internal error (sysexits EX_SOFTWARE). */
export const EXIT_INTERNAL = 70;
