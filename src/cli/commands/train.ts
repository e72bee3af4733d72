import type { Command } from 'commander';
import type { CommandModule } from './command.js';
import { UserError } from '../errors.js';
import { existsSync } from 'node:fs';
import { DEFAULT_DB } from '../../store/db.js';
import { formatBytes } from '../../text/format.js';
import { escapeTerminal } from '../../text/escape.js';
import { defaultJobFeatures, fileFeatures, presetFeatures, readFeatureFile, readStoreTable, saveBundle, trainBundle, type FeatureChoice, type ModelBundle } from '../../models/index.js';
import { ensembleOption, intOption, listOption, modelsOption } from '../learn-options.js';
import type { ModelKind } from '../../learn/index.js';

interface TrainFlags {
  db?: string;
  table?: string;
  target?: string;
  features?: string;
  preset?: string;
  time?: string;
  runtime?: string;
  key?: string;
  where?: string;
  models?: string;
  seed?: string;
  twoStage?: string;
  stage1Models?: string;
  history?: boolean;
  historyBy?: string;
  historyK?: string;
  strict?: boolean;
  ensemble?: string;
  out?: string;
  force?: boolean;
  quiet?: boolean;
}

/** Default target of the jobs table: Darshan's POSIX throughput by the slowest rank (MiB/s), AIIO's target. */
export const JOBS_TARGET = 'io_mibs';
/**
 * Families trained by default: every one but kNN, which predicts by a linear search over all training rows (about
 * 45 s per 100,000 jobs on TOKIO-sized models: BENCHMARKS.md) and so breaks predict's budget; `--models` adds it.
 */
export const DEFAULT_MODELS: readonly ModelKind[] = ['gbdt', 'forest', 'ridge', 'poly2', 'mlp'];
/** Run-time columns the leak guard looks for, in order, when --runtime is not given. */
const RUNTIME_COLUMNS = ['run_time', '_runtime', 'darshan_walltime', 'walltime', 'elapsed_s'];
/** History groups tried, in order, when --history-by is not given. */
const HISTORY_GROUPS = [['exe', 'uid'], ['app'], ['darshan_app']];

const pad = (s: string, n: number) => s.padEnd(n);
const num = (v: number, d = 3) => (Number.isFinite(v) ? v.toFixed(d) : '–');
/**
 * A median error factor past this is no estimate (three decades off on the typical job): the model is named unusable
 * instead of printing a number nobody can read (×17176833450.867).
 */
export const UNUSABLE_FACTOR = 1000;
const factor = (v: number) => (!Number.isFinite(v) ? '–' : v > UNUSABLE_FACTOR ? 'unusable' : `×${v.toFixed(3)}`);
/** R² in log space, or `–` where the model is unusable (its R² is then a large negative number of no meaning). */
const r2 = (v: number, f: number) => (Number.isFinite(f) && f > UNUSABLE_FACTOR ? '–' : num(v));

/** What `train` prints on standard output: the table of models, the ensemble, the best one. */
export function trainSummary(b: ModelBundle, outPath: string, bytes: number): string {
  const m = b.model;
  const c = m.card;
  const lines: string[] = [];
  const how = c.validation === 'time' ? `the latest ${c.validationRows.toLocaleString('en-US')} by ${c.timeColumn}` : `a random ${c.validationRows.toLocaleString('en-US')} (seed ${c.seed})`;
  lines.push(
    `Trained on ${c.rows.toLocaleString('en-US')} rows of ${b.inputs.table}${c.droppedRows ? ` (${c.droppedRows.toLocaleString('en-US')} without a finite target skipped)` : ''}: target ${b.inputs.target} as log10(1+y), ${m.preprocessor.features.length} features${m.leakGuard.dropped.length ? ` (of ${m.preprocessor.features.length + m.leakGuard.dropped.length} offered)` : ''} → ${m.preprocessor.columns.length} model columns.`,
    `Validation: ${how}; every setting chosen there, then each model refitted on all ${c.rows.toLocaleString('en-US')} rows.`,
  );
  for (const d of m.leakGuard.dropped) lines.push(`Leak guard dropped ${d.feature}: ${d.reason}`);
  for (const s of b.stages) {
    lines.push(`Stage 1 ${s.column} (${s.model.members.map((x) => x.model.type).join('+')}): cross-fit R²(log) ${num(s.crossFit.r2)}, RMSE ${num(s.crossFit.rmse)}, median ${factor(s.crossFit.medianErrorFactor)}; validation R² ${num(s.model.ensemble.validation.r2)}`);
  }
  if (b.inputs.history) lines.push(`App history: median ${b.inputs.target} of the previous ${b.inputs.history.k} runs by ${b.inputs.history.by.join(', ')} (strictly earlier ${b.inputs.history.timeColumn}).`);
  lines.push('');
  lines.push(`${pad('model', 34)} ${'weight'.padStart(6)}  ${'RMSE(log10)'.padStart(11)}  ${'R²(log)'.padStart(7)}  ${'median factor'.padStart(13)}`);
  for (const mb of m.members) {
    const bad = mb.validation.medianErrorFactor > UNUSABLE_FACTOR;
    lines.push(`${pad(mb.model.type, 34)} ${mb.weight.toFixed(3).padStart(6)}  ${(bad ? '–' : num(mb.validation.rmse)).padStart(11)}  ${r2(mb.validation.r2, mb.validation.medianErrorFactor).padStart(7)}  ${factor(mb.validation.medianErrorFactor).padStart(13)}`);
  }
  const ens = `ensemble (${m.ensemble.method}${m.ensemble.method === 'average' ? ', w ∝ 1/RMSE²' : ''})`;
  const v = m.ensemble.validation;
  lines.push(`${pad(ens, 34)} ${''.padStart(6)}  ${num(v.rmse).padStart(11)}  ${num(v.r2).padStart(7)}  ${factor(v.medianErrorFactor).padStart(13)}`);
  const bl = c.baseline;
  lines.push(`${pad('baseline: the training median', 34)} ${''.padStart(6)}  ${num(bl.rmse).padStart(11)}  ${num(bl.r2).padStart(7)}  ${factor(bl.medianErrorFactor).padStart(13)}`);
  const unusable = m.members.filter((x) => x.validation.medianErrorFactor > UNUSABLE_FACTOR);
  if (unusable.length > 0) {
    lines.push(
      '',
      `Unusable on the validation rows: ${unusable.map((x) => x.model.type).join(', ')} (median error more than ×${UNUSABLE_FACTOR}, three decades off the typical job; ` +
        `their ensemble weight ${unusable.map((x) => x.weight.toFixed(3)).join(', ')}). Such a family does not fit these features: leave it out with --models.`,
    );
  }
  const best = m.members.find((x) => x.model.type === m.best);
  lines.push('', `Best single model: ${m.best}${best ? ` (validation RMSE ${num(best.validation.rmse)}, R² ${num(best.validation.r2)})` : ''}.`);
  lines.push(`Wrote ${escapeTerminal(outPath)} (${formatBytes(bytes)}).`, '');
  return lines.join('\n');
}

const cmd: CommandModule = {
  name: 'train',
  register(program: Command) {
    program
      .command('train')
      .description('train throughput models on a job store table (the jobs, or an imported feature table) and write a model file')
      .option('--db <file>', `database file (default ${DEFAULT_DB})`)
      .option('--table <name>', 'table or view to learn from (default jobs; NAME also finds features_NAME from import-features)')
      .option('--target <column>', `numeric column to predict (default on jobs: ${JOBS_TARGET}, MiB/s per second of the slowest rank's I/O time); learned as log10(1+y)`)
      .option('--features <file>', 'columns to learn from, one per line (# comments; optional words numeric|categorical, slog|none)')
      .option('--preset <name>', "a feature set's columns without time columns: aiio or gauge")
      .option('--time <column>', 'validate on the most recent 20 % of rows by this column (default: a seeded random 20 %)')
      .option('--runtime <column>', `run-time column for the leak guard (default: the first of ${RUNTIME_COLUMNS.join(', ')})`)
      .option('--key <column>', 'column naming each row (default: hash on jobs, the import key on imported tables)')
      .option('--where <sql>', 'train on the rows matching this SQL condition only (e.g. "start_epoch < 1.7e9")')
      .option('--models <list>', `model families, comma-separated: gbdt, forest, ridge, poly2, knn, mlp (default: ${DEFAULT_MODELS.join(',')}; knn is slow to predict)`)
      .option('--seed <n>', 'seed of every random choice (default 0): same data and seed, same model file')
      .option('--two-stage <columns>', "columns known only after the run (server metrics; * patterns allowed): predicted first from the others, and the throughput model uses the predictions")
      .option('--stage1-models <list>', 'families of the first-stage models (default gbdt)')
      .option('--history', "add app history: the median target of the same application's previous runs, strictly earlier (needs --time)")
      .option('--history-by <columns>', 'columns that make an application (default exe,uid, or app, or darshan_app)')
      .option('--history-k <n>', 'previous runs the history median takes (default 5)')
      .option('--strict', 'refuse to train when the leak guard finds a feature that leaks the answer (default: drop it and say why)')
      .option('--ensemble <method>', 'default merge of the models: average (weights from validation error) or closest')
      .option('--out <file>', 'model file to write')
      .option('--force', 'overwrite --out if it exists')
      .option('-q, --quiet', 'no progress lines on standard error')
      .action(async (o: TrainFlags) => {
        if (!o.out) throw new UserError('give the model file to write with --out');
        if (existsSync(o.out) && !o.force) throw new UserError(`${o.out} already exists; not overwriting (use --force)`);
        if (o.features && o.preset) throw new UserError('choose --features or --preset, not both');
        if (o.historyBy && !o.history) throw new UserError('--history-by goes with --history');
        const ensemble = ensembleOption(o.ensemble);
        const db = o.db ?? DEFAULT_DB;
        const tableArg = o.table ?? 'jobs';
        const models = modelsOption(o.models) ?? [...DEFAULT_MODELS];
        const stage1 = modelsOption(o.stage1Models, '--stage1-models');
        const seed = intOption(o.seed, '--seed') ?? 0;
        const k = intOption(o.historyK, '--history-k', 1) ?? 5;
        const t0 = performance.now();
        const progress = o.quiet ? () => {} : (line: string) => process.stderr.write(`iolens train [${((performance.now() - t0) / 1000).toFixed(1)} s]: ${escapeTerminal(line)}\n`);

        // First the column list (which kinds, which key, which defaults), then the columns needed.
        const probe = await readStoreTable(db, tableArg, []);
        const isJobs = probe.name === 'jobs';
        const has = (c: string) => probe.columns.some((x) => x.name === c);
        const target = o.target ?? (isJobs ? JOBS_TARGET : undefined);
        if (!target) throw new UserError(`table ${probe.name} is not the jobs table: name the column to predict with --target`);
        let choice: FeatureChoice | null = null;
        let fileLines: ReturnType<typeof readFeatureFile> | null = null;
        if (o.features) fileLines = readFeatureFile(o.features);
        else if (o.preset) choice = presetFeatures(o.preset);
        else if (isJobs) choice = defaultJobFeatures();
        else throw new UserError(`table ${probe.name} is not the jobs table: name its feature columns with --features FILE (or --preset)`);
        const runtime = o.runtime ?? RUNTIME_COLUMNS.find(has);
        const key = o.key ?? probe.defaultKey ?? undefined;
        let historyBy: string[] = [];
        if (o.history) {
          historyBy = o.historyBy ? listOption(o.historyBy) : (HISTORY_GROUPS.find((g) => g.every(has)) ?? []);
          if (historyBy.length === 0) throw new UserError(`--history: name the columns that make an application with --history-by (table ${probe.name} has none of exe+uid, app, darshan_app)`);
        }
        const stageCols = listOption(o.twoStage);
        const featureNames = fileLines ? fileLines.map((l) => l.name) : (choice as FeatureChoice).specs.map((s) => s.name);
        // Two-stage columns may be patterns: read every numeric column they could match.
        const patternCols = stageCols.some((c) => c.includes('*')) ? probe.columns.filter((c) => c.kind === 'numeric').map((c) => c.name) : stageCols;
        const wanted = [...new Set([...featureNames, target, ...(o.time ? [o.time] : []), ...historyBy, ...patternCols])];
        const optional = [...(runtime ? [runtime] : []), ...(key ? [key] : [])];
        if (o.runtime && !has(o.runtime)) throw new UserError(`table ${probe.name} has no run-time column ${o.runtime}`);
        if (o.key && !has(o.key)) throw new UserError(`table ${probe.name} has no key column ${o.key}`);
        const loaded = await readStoreTable(db, tableArg, wanted, optional, o.where);
        if (fileLines) choice = fileFeatures(fileLines, loaded.kinds, loaded.name);
        progress(`read ${loaded.table.nRows.toLocaleString('en-US')} rows × ${Object.keys(loaded.table.columns).length} columns of ${loaded.name}`);
        const bundle = await trainBundle({
          loaded,
          db,
          ...(o.where ? { where: o.where } : {}),
          target,
          features: choice as FeatureChoice,
          key: key ?? null,
          timeColumn: o.time,
          runtimeColumn: runtime,
          models,
          seed,
          leakGuard: o.strict ? 'strict' : 'drop',
          ensemble,
          twoStage: stageCols.length ? { columns: stageCols, models: stage1 } : undefined,
          history: o.history ? { by: historyBy, k } : undefined,
          onProgress: progress,
        });
        const bytes = saveBundle(o.out, bundle, !!o.force);
        process.stdout.write(trainSummary(bundle, o.out, bytes));
      });
  },
};

export default cmd;
