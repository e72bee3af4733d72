import { COMMANDS } from './commands/index.js';
import { runProgram } from './program.js';

/**
 * The CLI with every command (`bin/iolens.cjs` runs it from a bundle: one per command, `scripts/bundle.mjs`).
 * Resolves to the process exit status; never rejects and never prints a stack trace.
 */
export function main(argv: readonly string[]): Promise<number> {
  return runProgram(COMMANDS, argv);
}
