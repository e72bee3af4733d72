import type { Command } from 'commander';

/** A CLI subcommand: one file under `commands/`, listed in `COMMANDS` below. */
export interface CommandModule {
  readonly name: string;
  register(program: Command): void;
}

import parse from './parse.js';
import trace from './trace.js';
import ingest from './ingest.js';
import query from './query.js';
import synth from './synth.js';

/** Every subcommand, in the order `iolens --help` lists them. */
export const COMMANDS: readonly CommandModule[] = [parse, trace, ingest, query, synth];
