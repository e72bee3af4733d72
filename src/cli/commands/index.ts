import type { Command } from 'commander';

/** A CLI subcommand: one file under `commands/`, listed in `COMMANDS` below. */
export interface CommandModule {
  readonly name: string;
  register(program: Command): void;
}

import parse from './parse.js';
import report from './report.js';
import trace from './trace.js';
import ingest from './ingest.js';
import query from './query.js';
import merge from './merge.js';
import summary from './summary.js';
import exportCmd from './export.js';
import importFeatures from './import-features.js';
import synth from './synth.js';
import evalCommand from './eval.js';

/** Every subcommand, in the order `iolens --help` lists them. */
export const COMMANDS: readonly CommandModule[] = [parse, report, trace, ingest, merge, query, summary, exportCmd, importFeatures, synth, evalCommand];
