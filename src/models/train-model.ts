import { basename } from 'node:path';
import { InputError, UsageError } from '../contract/errors.js';
import { logMetrics, predict, sortByTime, takeRows, toModelSpace, train, type FeatureSpec, type ModelKind, type Table, type TrainOptions, type TrainedModel } from '../learn/index.js';
import { rng } from '../util/random.js';
import { toolVersion } from '../pipeline/resources.js';
import { INPUTS_VERSION, PREDICTED_PREFIX, rowKeys, withoutReference, withZeros, type Inputs, type ModelBundle, type Stage } from './bundle.js';
import { zeroWhenMissing, type FeatureChoice } from './features.js';
import { entriesOf, HISTORY_FEATURES, historyFeatures, historyTail, type HistorySettings } from './history.js';
import type { LoadedTable } from './log-rows.js';
import { deriveRoles } from './reference.js';

/**
 * `iolens train` as a library call: a feature table (from a store or from logs) → a model bundle. The engine does
 * the leak guard, the validation split, model selection, the refit, the ensemble and the OOD calibration; this adds
 * the two-stage models and the app history on top, and records how rows become the model's table.
 */

export interface TwoStageRequest {
  /** Columns known only after a job ran (server metrics): predicted first, from the other features. */
  readonly columns: readonly string[];
  /** Families of the first-stage models (default gbdt). */
  readonly models?: readonly ModelKind[];
  /** Folds of the cross-fit that gives the training rows out-of-sample first-stage predictions (default 3). */
  readonly folds?: number;
}

export interface TrainRequest {
  readonly loaded: LoadedTable;
  /** The database's path (only its file name is recorded), or null. */
  readonly db: string | null;
  /** The SQL condition that chose the rows (recorded in the model file), if any. */
  readonly where?: string;
  readonly target: string;
  readonly features: FeatureChoice;
  readonly key: string | null;
  readonly timeColumn?: string;
  readonly runtimeColumn?: string;
  readonly models?: readonly ModelKind[];
  readonly seed?: number;
  readonly leakGuard?: 'drop' | 'strict';
  readonly ensemble?: 'average' | 'closest';
  readonly twoStage?: TwoStageRequest;
  readonly history?: { readonly by: readonly string[]; readonly k: number };
  readonly overrides?: TrainOptions['overrides'];
  readonly onProgress?: (line: string) => void;
}

/** Expands `fs_ave_*`-style patterns against the table's numeric columns (a plain name must exist). */
export function expandColumns(patterns: readonly string[], table: Table): string[] {
  const names = Object.keys(table.columns);
  const out: string[] = [];
  for (const p of patterns) {
    if (p.includes('*')) {
      const re = new RegExp(`^${p.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
      const hit = names.filter((n) => re.test(n) && table.columns[n] instanceof Float64Array);
      if (hit.length === 0) throw new InputError(`no numeric column matches ${p}`);
      out.push(...hit);
    } else {
      if (table.columns[p] === undefined) throw new InputError(`no column ${p} in the table`);
      if (!(table.columns[p] instanceof Float64Array)) throw new InputError(`column ${p} is not numeric; two-stage predicts numbers`);
      out.push(p);
    }
  }
  return [...new Set(out)];
}

/**
 * Time-blocked folds: rows in time order cut into `folds` consecutive blocks. Server load is correlated in time, so
 * a random fold puts each held-out job beside its neighbours in time in the fitting rows and the first stage looks
 * better than it is on later jobs (TOKIO-ABC: cross-fit R² 0.59 on random folds, 0.38 on later time).
 */
function timeBlocks(table: Table, timeColumn: string, folds: number): Int32Array {
  const order = sortByTime(table, timeColumn, Int32Array.from({ length: table.nRows }, (_, i) => i));
  const out = new Int32Array(table.nRows);
  order.forEach((row, i) => (out[row] = Math.min(folds - 1, Math.floor((i * folds) / table.nRows))));
  return out;
}

/** Seeded fold of every row (0 … folds − 1), balanced: a shuffled round robin. */
function foldsOf(n: number, folds: number, seed: number): Int32Array {
  const r = rng(seed ^ 0x2f6b1c3d);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const out = new Int32Array(n);
  order.forEach((row, i) => (out[row] = i % folds));
  return out;
}

async function trainStage(table: Table, column: string, specs: readonly FeatureSpec[], req: TrainRequest, two: TwoStageRequest, progress: (l: string) => void): Promise<{ stage: Stage; oof: Float64Array }> {
  const folds = two.folds ?? 3;
  const opts: TrainOptions = {
    target: column,
    features: specs,
    timeColumn: req.timeColumn,
    runtimeColumn: req.runtimeColumn,
    models: two.models ?? ['gbdt'],
    seed: req.seed ?? 0,
    leakGuard: req.leakGuard ?? 'drop',
    overrides: req.overrides,
  };
  // with a time column, blocks of consecutive time; otherwise seeded random folds
  const fold = req.timeColumn ? timeBlocks(table, req.timeColumn, folds) : foldsOf(table.nRows, folds, req.seed ?? 0);
  const oof = new Float64Array(table.nRows);
  for (let f = 0; f < folds; f++) {
    const inFit: number[] = [];
    const held: number[] = [];
    for (let r = 0; r < table.nRows; r++) (fold[r] === f ? held : inFit).push(r);
    const m = await train(takeRows(table, inFit), opts);
    const p = predict(m, takeRows(table, held), { ood: false }).prediction;
    held.forEach((r, i) => (oof[r] = p[i]));
  }
  const model = withoutReference(await train(table, opts));
  const y = table.columns[column] as Float64Array;
  const rows = Array.from({ length: table.nRows }, (_, r) => r).filter((r) => y[r] >= 0);
  const crossFit = logMetrics(
    rows.map((r) => toModelSpace(y[r])),
    rows.map((r) => toModelSpace(Math.max(0, oof[r]))),
  );
  progress(`stage 1 ${column}: cross-fit R² ${crossFit.r2.toFixed(4)}, RMSE ${crossFit.rmse.toFixed(4)}; validation R² ${model.ensemble.validation.r2.toFixed(4)}`);
  return { stage: { column, feature: `${PREDICTED_PREFIX}${column}`, model, crossFit }, oof };
}

/** Trains a model bundle (see TrainRequest). Same table, same request, same seed → the same bundle. */
export async function trainBundle(req: TrainRequest): Promise<ModelBundle> {
  const progress = req.onProgress ?? (() => {});
  const zeroFill = zeroWhenMissing(req.features.specs.map((s) => s.name));
  const t0 = withZeros(req.loaded.table, zeroFill);
  const columns: Record<string, Table['columns'][string]> = { ...t0.columns };
  let specs: FeatureSpec[] = [...req.features.specs];
  if (specs.some((s) => s.name === req.target)) throw new UsageError(`the target ${req.target} cannot also be a feature`);

  const stages: Stage[] = [];
  let twoStage: Inputs['twoStage'] = null;
  if (req.twoStage && req.twoStage.columns.length) {
    const cols = expandColumns(req.twoStage.columns, t0);
    if (cols.includes(req.target)) throw new UsageError(`the target ${req.target} cannot be a first-stage column`);
    const pre = specs.filter((s) => !cols.includes(s.name));
    if (pre.length === 0) throw new UsageError('two-stage leaves no feature known before the run');
    for (const c of cols) {
      const name = `${PREDICTED_PREFIX}${c}`;
      if (t0.columns[name] !== undefined) throw new UsageError(`the table already has a column ${name}`);
    }
    for (const c of cols) {
      const { stage, oof } = await trainStage(t0, c, pre, req, req.twoStage, progress);
      stages.push(stage);
      columns[stage.feature] = oof;
    }
    specs = [...pre, ...stages.map((s): FeatureSpec => ({ name: s.feature, kind: 'numeric', transform: 'slog' }))];
    twoStage = { columns: cols, models: [...(req.twoStage.models ?? ['gbdt'])], folds: req.twoStage.folds ?? 3 };
  }

  let history: Inputs['history'] = null;
  if (req.history) {
    if (!req.timeColumn) throw new UsageError('app history needs --time: history is what came strictly before a job');
    if (!req.key) throw new UsageError('app history needs a key column (--key) to tell jobs apart');
    for (const f of HISTORY_FEATURES) if (t0.columns[f] !== undefined) throw new UsageError(`the table already has a column ${f}`);
    const settings: HistorySettings = { by: req.history.by, k: req.history.k, timeColumn: req.timeColumn, target: req.target };
    const keys = rowKeys(t0, req.key);
    if (new Set(keys).size !== keys.length) throw new InputError(`key ${req.key} repeats: history needs one row per key`);
    const entries = entriesOf(t0, settings, keys);
    Object.assign(columns, historyFeatures(t0, settings, keys, entries));
    specs.push({ name: 'history_median', kind: 'numeric', transform: 'slog' }, { name: 'history_runs', kind: 'numeric', transform: 'none' });
    history = { ...settings, tail: historyTail(entries, req.history.k) };
  }

  const table: Table = { nRows: t0.nRows, columns };
  const trained: TrainedModel = await train(table, {
    target: req.target,
    features: specs,
    timeColumn: req.timeColumn,
    runtimeColumn: req.runtimeColumn,
    models: req.models,
    seed: req.seed ?? 0,
    leakGuard: req.leakGuard ?? 'drop',
    ensemble: req.ensemble,
    overrides: req.overrides,
    onProgress: progress,
  });
  // each feature's role and reference, from its name and the training data, kept in the file (docs/learn.md)
  const model: TrainedModel = { ...trained, roles: deriveRoles(trained) };

  const inputColumns = req.features.specs.map((s) => s.name);
  const kinds: Record<string, 'numeric' | 'string'> = {};
  for (const c of [...inputColumns, req.target, ...(req.key ? [req.key] : []), ...(req.timeColumn ? [req.timeColumn] : []), ...(history ? history.by : [])]) {
    if (req.loaded.kinds[c]) kinds[c] = req.loaded.kinds[c];
  }
  const inputs: Inputs = {
    version: INPUTS_VERSION,
    iolens: toolVersion(),
    table: req.loaded.name,
    db: req.db ? basename(req.db) : null,
    where: req.where ?? null,
    key: req.key,
    target: req.target,
    timeColumn: req.timeColumn ?? null,
    runtimeColumn: req.runtimeColumn ?? null,
    features: { origin: req.features.origin, preset: req.features.preset, sets: req.features.sets, columns: inputColumns },
    zeroFill,
    columnKinds: kinds,
    twoStage,
    history,
  };
  return { model, inputs, stages };
}
