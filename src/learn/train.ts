import { distFile } from '../util/package-root.js';
import { runTasks } from '../util/tasks.js';
import { LearnInputError } from './errors.js';
import { identifierColumns, leakGuard, type LeakReport } from './leak-guard.js';
import { baselineMetrics, logMetrics, toModelSpace } from './metrics.js';
import { SCHEMA_VERSION, type Member, type TrainedModel } from './model-file.js';
import { MODEL_KINDS, type ModelKind } from './models.js';
import { calibrateOod, numericRanges } from './ood.js';
import { encode, fitPreprocessor, type FeatureSpec } from './preprocess.js';
import { Rng } from './rng.js';
import { selectMlp, selectSync, type Selected, type SelectionData, type SettingOverrides } from './select.js';
import { validationSplit, sortByTime } from './split.js';
import { takeRows, type Table } from './table.js';
import { zScores } from './knn.js';
import { ensembleWeights } from './ensemble.js';

export interface TrainOptions {
  /** Numeric target column in its own units (e.g. MiB/s); the models learn log10(1 + target). */
  target: string;
  features: readonly FeatureSpec[];
  /** Validate on the most recent 20 % of rows by this column; without it, on a seeded random 20 %. */
  timeColumn?: string;
  /** The job's run time, for the leak guard's run-time rules. */
  runtimeColumn?: string;
  /** Families to train (default: all). */
  models?: readonly ModelKind[];
  seed?: number;
  validationFraction?: number;
  /** 'drop' (default): leaking features are dropped with a reason; 'strict': training refuses; 'off'. */
  leakGuard?: 'drop' | 'strict' | 'off';
  /** How predictions and explanations combine the models by default. */
  ensemble?: 'average' | 'closest';
  /** Train the MLP on a worker thread while the other families train (default true). */
  parallel?: boolean;
  /** Replaces fixed settings of a family (e.g. `{ mlp: { maxEpochs: 20 } }`); the searched grids stay. */
  overrides?: SettingOverrides;
  /** Progress lines (one per family) for a CLI to print. */
  onProgress?: (line: string) => void;
}

/** Rows of the OOD distance reference at most (the nearest-row search is linear in it). */
const OOD_REFERENCE_ROWS = 4000;

/** Model columns past which ridge and poly2 are not fitted (their normal equations are p × p). */
export const LINEAR_COLUMN_BUDGET = 2000;

/** The rows usable for training: target present, finite and not negative (the others are counted as dropped). */
function usableRows(table: Table, target: string): { rows: Int32Array; y: Float64Array; dropped: number } {
  const col = table.columns[target];
  if (col === undefined) throw new LearnInputError(`no target column ${target} in the table`);
  if (!(col instanceof Float64Array)) throw new LearnInputError(`target column ${target} is not numeric`);
  const rows: number[] = [];
  for (let r = 0; r < table.nRows; r++) if (col[r] >= 0 && Number.isFinite(col[r])) rows.push(r);
  return { rows: Int32Array.from(rows), y: Float64Array.from(rows, (r) => toModelSpace(col[r])), dropped: table.nRows - rows.length };
}

/** The MLP's selection and refit on a second core (the one task runner, one task). */
async function runMlpWorker(data: SelectionData): Promise<Selected & { backend: string }> {
  let out: (Selected & { backend: string }) | null = null;
  await runTasks<SelectionData, Selected & { backend: string }>({
    script: distFile('learn/mlp-worker.js'),
    threads: 1,
    tasks: [data],
    onResult: (r) => {
      out = r;
    },
  });
  if (!out) throw new Error('MLP training returned nothing');
  return out;
}

/**
 * Trains every requested model family on a table and returns the trained model (see `serializeModel` for its file).
 * Validation rows are carved from the given rows only; every setting is chosen on them; each family is then refitted
 * on all rows; the ensemble is weighted by validation error; OOD checks are calibrated on validation rows.
 */
export async function train(table: Table, options: TrainOptions): Promise<TrainedModel> {
  const seed = options.seed ?? 0;
  let kinds = [...new Set(options.models ?? MODEL_KINDS)];
  for (const k of kinds) if (!MODEL_KINDS.includes(k)) throw new LearnInputError(`unknown model ${k}; known: ${MODEL_KINDS.join(', ')}`);
  if (kinds.length === 0) throw new LearnInputError('no models to train');
  const progress = options.onProgress ?? (() => {});
  const { rows, y, dropped } = usableRows(table, options.target);
  if (rows.length < 20) throw new LearnInputError(`only ${rows.length} rows have the target ${options.target}; at least 20 are needed`);
  const data = takeRows(table, rows);

  let specs = [...options.features];
  let leak: LeakReport = { dropped: [] };
  if ((options.leakGuard ?? 'drop') !== 'off') {
    // identifiers first (dropped even under --strict: they identify, they do not leak), then the leaks
    const ids = identifierColumns(data, specs.map((s) => s.name));
    const idNames = new Set(ids.map((d) => d.feature));
    leak = leakGuard(data, specs.map((s) => s.name).filter((n) => !idNames.has(n)), options.target, options.runtimeColumn);
    if (leak.dropped.length && options.leakGuard === 'strict') {
      const d = leak.dropped[0];
      throw new LearnInputError(`feature ${d.feature} leaks the answer: ${d.reason}${leak.dropped.length > 1 ? ` (and ${leak.dropped.length - 1} more)` : ''}`);
    }
    leak = { dropped: [...ids, ...leak.dropped] };
    const gone = new Set(leak.dropped.map((d) => d.feature));
    specs = specs.filter((s) => !gone.has(s.name));
    for (const d of leak.dropped) progress(`leak guard: dropped ${d.feature}: ${d.reason}`);
  }

  const split = validationSplit(data, { timeColumn: options.timeColumn, fraction: options.validationFraction ?? 0.2, seed });
  const fitTable = takeRows(data, split.fit);
  const validTable = takeRows(data, split.valid);
  const preFit = fitPreprocessor(fitTable, specs);
  const pre = fitPreprocessor(data, specs);
  const xFit = encode(preFit, fitTable);
  const xValid = encode(preFit, validTable);
  const xAll = encode(pre, data);
  // The linear families solve a p × p system (p = model columns): memory p²·8 bytes, time ~p³. Past the budget
  // they are left out (said on the progress line), or refused when nothing else was asked for.
  const p = pre.columns.length;
  if (p > LINEAR_COLUMN_BUDGET && kinds.some((k) => k === 'ridge' || k === 'poly2')) {
    const linear: string[] = kinds.filter((k) => k === 'ridge' || k === 'poly2');
    const why = `${p.toLocaleString('en-US')} model columns, above the ${LINEAR_COLUMN_BUDGET.toLocaleString('en-US')} a ${p}×${p} linear system allows (${Math.round((p * p * 8) / 2 ** 20)} MiB, hours of solving): choose fewer features`;
    kinds = kinds.filter((k) => !linear.includes(k));
    if (!kinds.length) throw new LearnInputError(`${linear.join(' and ')}: ${why}, or other models`);
    progress(`${linear.join(' and ')} left out: ${why}`);
  }
  const yFit = Float64Array.from(split.fit, (r) => y[r]);
  const yValid = Float64Array.from(split.valid, (r) => y[r]);
  const statsOf = (p: typeof pre): { mean: number[]; std: number[] } => ({ mean: p.stats.map((s) => s.mean), std: p.stats.map((s) => s.std) });

  // Reference rows: all training rows as float32 z-scores in a seeded order (kNN's data; the first ones are OOD's).
  const order = new Rng(seed ^ 0x5bd1e995).shuffle(Int32Array.from({ length: data.nRows }, (_, i) => i));
  const zAll = zScores(xAll.matrix, statsOf(pre).mean, statsOf(pre).std);
  const refRows = new Float32Array(data.nRows * pre.columns.length);
  order.forEach((r, i) => refRows.set(zAll.subarray(r * pre.columns.length, (r + 1) * pre.columns.length), i * pre.columns.length));
  const refY = Float64Array.from(order, (r) => y[r]);

  const sel: SelectionData = {
    fit: { x: xFit.matrix, y: yFit },
    valid: { x: xValid.matrix, y: yValid },
    all: { x: xAll.matrix, y },
    statsFit: statsOf(preFit),
    statsAll: statsOf(pre),
    reference: { rows: refRows, y: refY },
    seed,
    overrides: options.overrides,
  };
  const results = new Map<ModelKind, Selected>();
  let mlpBackend: string | null = null;
  const parallel = options.parallel ?? true;
  // If the worker cannot start (no compiled worker file beside a bundle, say), the MLP trains here afterwards.
  const mlpJob = kinds.includes('mlp') && parallel ? runMlpWorker(sel).catch(() => selectMlp(sel)) : null;
  for (const kind of kinds) {
    if (kind === 'mlp') continue;
    const t0 = performance.now();
    const s = selectSync(kind, sel);
    results.set(kind, s);
    progress(`${kind}: validation RMSE ${s.validation.rmse.toFixed(4)}, R² ${s.validation.r2.toFixed(4)} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
  if (kinds.includes('mlp')) {
    const t0 = performance.now();
    const s = mlpJob ? await mlpJob : await selectMlp(sel);
    mlpBackend = s.backend;
    results.set('mlp', { model: s.model, validation: s.validation, validPred: s.validPred, tried: s.tried });
    progress(`mlp: validation RMSE ${s.validation.rmse.toFixed(4)}, R² ${s.validation.r2.toFixed(4)} (${((performance.now() - t0) / 1000).toFixed(1)} s more)`);
  }

  const ordered = kinds.filter((k) => results.has(k)).sort((a, b) => MODEL_KINDS.indexOf(a) - MODEL_KINDS.indexOf(b));
  const weights = ensembleWeights(ordered.map((k) => (results.get(k) as Selected).validation.rmse));
  const members: Member[] = ordered.map((k, i) => {
    const s = results.get(k) as Selected;
    return { model: s.model, validation: s.validation, weight: weights.weights[i], tried: s.tried };
  });
  const ensValid = new Float64Array(yValid.length);
  ordered.forEach((k, i) => {
    const p = (results.get(k) as Selected).validPred;
    for (let r = 0; r < p.length; r++) ensValid[r] += weights.weights[i] * p[r];
  });
  const residuals = Float64Array.from(yValid, (t, r) => t - ensValid[r]).sort();
  const best = ordered.reduce((a, b) => ((results.get(b) as Selected).validation.rmse < (results.get(a) as Selected).validation.rmse ? b : a));

  const nOod = Math.min(OOD_REFERENCE_ROWS, data.nRows);
  const fitOrder = new Rng(seed ^ 0x27d4eb2f).shuffle(Int32Array.from({ length: xFit.matrix.nRows }, (_, i) => i)).slice(0, Math.min(OOD_REFERENCE_ROWS, xFit.matrix.nRows));
  const zFit = zScores(xFit.matrix, sel.statsFit.mean, sel.statsFit.std);
  const fitRef = new Float32Array(fitOrder.length * preFit.columns.length);
  fitOrder.forEach((r, i) => fitRef.set(zFit.subarray(r * preFit.columns.length, (r + 1) * preFit.columns.length), i * preFit.columns.length));
  const calibration = calibrateOod(preFit, { rows: fitRef, n: fitOrder.length }, xValid);

  let timeSpan: TrainedModel['card']['timeSpan'] = null;
  if (options.timeColumn) {
    const sorted = sortByTime(data, options.timeColumn, Int32Array.from({ length: data.nRows }, (_, i) => i));
    const col = data.columns[options.timeColumn];
    timeSpan = { from: col[sorted[0]] as string | number, to: col[sorted[sorted.length - 1]] as string | number };
  }
  return {
    schemaVersion: SCHEMA_VERSION,
    target: { column: options.target, transform: 'log10(1+y)' },
    preprocessor: pre,
    leakGuard: leak,
    members,
    ensemble: {
      method: options.ensemble ?? 'average',
      weighting: weights.rule,
      validation: logMetrics(yValid, ensValid),
      interval: conformalInterval(residuals, 0.9),
    },
    best,
    ood: { ranges: numericRanges(pre), ...calibration },
    reference: { rows: refRows, y: refY, nRows: data.nRows, oodRows: nOod },
    card: {
      rows: data.nRows,
      fitRows: split.fit.length,
      validationRows: split.valid.length,
      droppedRows: dropped,
      validation: split.method,
      timeColumn: options.timeColumn ?? null,
      timeSpan,
      seed,
      baseline: baselineMetrics(yFit, yValid),
      mlpBackend,
    },
  };
}

/**
 * Split-conformal bounds of sorted residuals for a central interval of `coverage`: the ⌊(n + 1)·α/2⌋-th and
 * ⌈(n + 1)·(1 − α/2)⌉-th smallest (1-based), ±the extreme residual when n is too small for an order statistic.
 */
export function conformalInterval(sorted: Float64Array, coverage: number): { low: number; high: number; coverage: number; rows: number } {
  const n = sorted.length;
  if (n === 0) return { low: 0, high: 0, coverage, rows: 0 };
  const a = (1 - coverage) / 2;
  // (a guard against the binary rounding of α/2: 0.1 / 2 · 100 is 4.999…)
  const lo = Math.floor((n + 1) * a + 1e-9);
  const hi = Math.ceil((n + 1) * (1 - a) - 1e-9);
  return { low: lo >= 1 ? sorted[lo - 1] : sorted[0], high: hi <= n ? sorted[hi - 1] : sorted[n - 1], coverage, rows: n };
}
