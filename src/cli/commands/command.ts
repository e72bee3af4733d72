import type { Command } from 'commander';

/** A CLI subcommand: one file under `commands/`, registered by name in `COMMANDS` (index.ts). */
export interface CommandModule {
  readonly name: string;
  register(program: Command): void;
}
