import { UserError } from './errors.js';

/** `--width <columns>`, the same for every command that prints text. */
export const WIDTH_FLAG = ['--width <columns>', 'wrap text to this many columns (default: the terminal\'s width; not wrapped when piped)'] as const;

/**
 * The width text is wrapped to: `--width` when given (a positive integer, else a one-line error), the terminal's
 * columns when standard output is one, else none (a pipe or a file gets whole lines).
 */
export function textWidth(flag: string | undefined): number | undefined {
  if (flag !== undefined) {
    const n = Number(flag);
    if (!Number.isInteger(n) || n <= 0) throw new UserError(`--width needs a positive integer, got '${flag}'`);
    return n;
  }
  return process.stdout.isTTY && process.stdout.columns ? process.stdout.columns : undefined;
}
