import { UsageError } from '../contract/errors.js';
import { escapeTerminal } from '../text/escape.js';

/**
 * A usage error of the command line (a bad flag value, a missing argument). The CLI prints its message as one line
 * on stderr and exits with `exitCode`. The library's own errors (`IOLensError` and its kinds) are mapped to exit
 * status 2 by the CLI's error handler; only the CLI chooses exit codes.
 */
export class UserError extends UsageError {
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** Exit status for a usage error or bad input (the library's `IOLensError`). */
export const EXIT_USAGE = 2;
/** Exit status used when `--fail-on` finds insights at or above the requested level. */
export const EXIT_FAIL_ON = 3;
/** Exit status for an unexpected internal error (sysexits EX_SOFTWARE). */
export const EXIT_INTERNAL = 70;

/** Error text as one line: messages can quote text from the user's files, which may hold newlines or controls. */
export function oneLine(message: string): string {
  return escapeTerminal(message.replace(/\s*[\r\n]+\s*/g, ' '));
}
