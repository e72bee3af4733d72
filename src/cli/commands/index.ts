import type { CommandModule } from './command.js';

export type { CommandModule };

/**
 * Every subcommand, in the order `iolens --help` lists them, loaded on demand: `iolens parse …` imports only the
 * parse command's code (and so only what it needs), which keeps start-up fast; help imports them all.
 * A meta-test checks that this list matches the files of this folder.
 */
export const COMMANDS: Readonly<Record<string, () => Promise<{ default: CommandModule }>>> = {
  parse: () => import('./parse.js'),
  report: () => import('./report.js'),
  'list-checks': () => import('./list-checks.js'),
  trace: () => import('./trace.js'),
  compare: () => import('./compare.js'),
  ingest: () => import('./ingest.js'),
  merge: () => import('./merge.js'),
  query: () => import('./query.js'),
  summary: () => import('./summary.js'),
  export: () => import('./export.js'),
  'import-features': () => import('./import-features.js'),
  train: () => import('./train.js'),
  predict: () => import('./predict.js'),
  explain: () => import('./explain.js'),
  cluster: () => import('./cluster.js'),
  eval: () => import('./eval.js'),
  synth: () => import('./synth.js'),
  serve: () => import('./serve.js'),
  mcp: () => import('./mcp.js'),
  slurm: () => import('./slurm.js'),
};
