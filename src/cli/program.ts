import { Command, CommanderError } from 'commander';
import type { CommandModule } from './commands/command.js';
import { EXIT_INTERNAL, EXIT_USAGE, UserError, oneLine } from './errors.js';
import { IOLensError } from '../contract/errors.js';
import { OutputClosedError } from '../util/output.js';
import { packageVersion } from '../util/package-root.js';
import { rawArguments } from '../util/byte-path.js';


/** The subcommand named on the command line (the first argument that is not an option), if any. */
function requestedCommand(argv: readonly string[]): string | undefined {
  return argv.find((a) => !a.startsWith('-'));
}

/** Command modules by name, each loaded on demand (`commands/index.ts` has them all; a one-command bundle has one). */
export type CommandTable = Readonly<Record<string, () => Promise<{ default: CommandModule }>>>;

/**
 * Builds the commander program. With a known subcommand on the command line only that command's module is loaded;
 * otherwise (help, unknown command) all of them are, so that help and suggestions are complete.
 */
export async function buildProgram(commands: CommandTable, argv: readonly string[] = []): Promise<Command> {
  const wanted = requestedCommand(argv);
  const versionOnly = !wanted && argv.length === 1 && (argv[0] === '-V' || argv[0] === '--version');
  const names = versionOnly ? [] : wanted && wanted !== 'help' && commands[wanted] ? [wanted] : Object.keys(commands);
  const modules = await Promise.all(names.map(async (n) => (await commands[n]()).default));
  const program = new Command('iolens')
    .description('I/O performance diagnosis for HPC jobs (Darshan logs, DXT, Recorder and DFTracer traces)')
    .version(packageVersion(), '-V, --version', 'print the IOLens version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => process.stdout.write(s),
      writeErr: (s) => process.stderr.write(s),
      // One prefix for every error line, commander's own included.
      outputError: (s, write) => write(`iolens: ${s.replace(/^error: /, '')}`),
    });
  for (const cmd of modules) cmd.register(program);
  for (const sub of program.commands) {
    sub.exitOverride();
    sub.version(packageVersion(), '-V, --version', 'print the IOLens version');
  }
  return program;
}

/** Runs the CLI with these commands; resolves to the process exit status. Never rejects, never prints a stack trace. */
export async function runProgram(commands: CommandTable, given: readonly string[]): Promise<number> {
  // (an argument that is not UTF-8 — a file name from a Latin-1 system — is read again as bytes: src/util/byte-path.ts)
  const argv = rawArguments(given);
  let program: Command;
  try {
    program = await buildProgram(commands, argv);
  } catch (err) {
    return handleError(err);
  }
  try {
    await program.parseAsync(argv as string[], { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    return handleError(err);
  }
}

function handleError(err: unknown): number {
  if (err instanceof CommanderError) {
    // commander already printed its message (help, version, or a usage error).
    return err.exitCode === 0 ? 0 : 2;
  }
  if (err instanceof OutputClosedError) return 0;
  if (err instanceof IOLensError) {
    process.stderr.write(`iolens: ${oneLine(err.message)}\n`);
    return err instanceof UserError ? err.exitCode : EXIT_USAGE;
  }
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e.code === 'string' && e.syscall) {
    process.stderr.write(`iolens: ${oneLine(`${e.syscall} ${e.path ?? ''}: ${e.code}`.replace(/ :/, ':'))}\n`);
    return 2;
  }
  process.stderr.write(`iolens: internal error: ${oneLine(e && e.message ? e.message : String(err))}\n`);
  if (process.env.IOLENS_DEBUG && e?.stack) process.stderr.write(`${e.stack}\n`);
  return EXIT_INTERNAL;
}

