import { COMMANDS } from './commands/index.js';
import { runProgram } from './program.js';
import { rawArguments } from '../util/byte-path.js';

/**
 * The CLI with every command (`bin/iolens.cjs` runs it from a bundle: one per command, `scripts/bundle.mjs`).
 * Resolves to the process exit status; never rejects and never prints a stack trace.
 */
export function main(argv: readonly string[]): Promise<number> {
  // (an argument that is not UTF-8 — a file name from a Latin-1 system — is read again as bytes)
  return runProgram(COMMANDS, rawArguments(argv));
}
