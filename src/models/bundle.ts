import { existsSync, writeFileSync } from 'node:fs';
import { readRegularFile } from '../util/read-file.js';
import { JOB_COLUMNS } from '../store/schema.js';
import { InputError, UsageError } from '../contract/errors.js';
import { parseModel, predict, serializeModel, type Metrics, type ModelKind, type Table, type TrainedModel } from '../learn/index.js';
import { checkFeatureSets, type FeatureChoice, type FeatureSetRef } from './features.js';
import { entriesOf, HISTORY_FEATURES, historyFeatures, type HistoryEntry } from './history.js';
import type { ColumnKind, LoadedTable } from './log-rows.js';

/**
 * The model file of `iolens train`: the engine's versioned model document (src/learn/model-file.ts, docs/learn.md)
 * with one more block, `inputs`, that says how rows become the model's table: which table and columns it was
 * trained on, the key, target and time columns, the feature sets (id and version) its features come from, the
 * first-stage models of a two-stage model, and the app-history settings and tail.
 */

/** Version of the `inputs` block; a loader refuses a newer one. */
export const INPUTS_VERSION = 1;

/** The prefix of a first-stage prediction's column: `predicted_fs_ave_oss_cpu`. */
export const PREDICTED_PREFIX = 'predicted_';

/** A first-stage model (two-stage, Kim et al.): predicts a column known only after a job ran from what is known before. */
export interface Stage {
  /** The column it predicts. */
  readonly column: string;
  /** The throughput model's feature holding the prediction. */
  readonly feature: string;
  readonly model: TrainedModel;
  /** Out-of-fold accuracy over the training rows, log10(1+y) space: what the throughput model learned from. */
  readonly crossFit: Metrics;
}

export interface Inputs {
  readonly version: number;
  /** The IOLens version that trained the model (absent in files written before it was kept). */
  readonly iolens?: string;
  /** The table trained on (`jobs`, `features_tokio` …) and the database's file name (no folders). */
  readonly table: string;
  readonly db: string | null;
  /** The SQL condition that chose the training rows (`train --where`), or null for all rows. */
  readonly where: string | null;
  /** The column naming each row (`hash` on jobs), or null. */
  readonly key: string | null;
  readonly target: string;
  readonly timeColumn: string | null;
  readonly runtimeColumn: string | null;
  /** The input columns the features came from (before two-stage predictions and history were added). */
  readonly features: { readonly origin: FeatureChoice['origin']; readonly preset: string | null; readonly sets: readonly FeatureSetRef[]; readonly columns: readonly string[] };
  /** Columns whose missing values count as 0 (module totals: a module absent from the log did no I/O). */
  readonly zeroFill: readonly string[];
  /** Kind of every input column a prediction reads. */
  readonly columnKinds: Readonly<Record<string, ColumnKind>>;
  readonly twoStage: { readonly columns: readonly string[]; readonly models: readonly ModelKind[]; readonly folds: number } | null;
  readonly history: { readonly by: readonly string[]; readonly k: number; readonly timeColumn: string; readonly target: string; readonly tail: readonly HistoryEntry[] } | null;
}

/** A trained model with everything `predict`, `explain` and `report --model` need. */
export interface ModelBundle {
  readonly model: TrainedModel;
  readonly inputs: Inputs;
  readonly stages: readonly Stage[];
}

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A first-stage model keeps no reference rows: it is never scored for OOD (the throughput model is). */
export function withoutReference(m: TrainedModel): TrainedModel {
  return { ...m, reference: { rows: new Float32Array(0), y: new Float64Array(0), nRows: 0, oodRows: 0 } };
}

/** The model file text: deterministic (same model, same bytes), one JSON document and a newline. */
export function serializeBundle(b: ModelBundle): string {
  const doc = JSON.parse(serializeModel(b.model)) as Doc;
  const { twoStage, ...rest } = b.inputs;
  doc.inputs = {
    ...rest,
    twoStage: twoStage
      ? { ...twoStage, stages: b.stages.map((s) => ({ column: s.column, feature: s.feature, crossFit: s.crossFit, model: JSON.parse(serializeModel(s.model)) as Doc })) }
      : null,
  };
  return `${JSON.stringify(doc)}\n`;
}

function need(cond: unknown, what: string): asserts cond {
  if (!cond) throw new InputError(`model file: ${what}`);
}

/** Inputs of a bare engine model file (no `inputs` block): its own features, numeric or text as encoded. */
function bareInputs(m: TrainedModel): Inputs {
  const kinds: Record<string, ColumnKind> = {};
  for (const f of m.preprocessor.features) kinds[f.name] = f.kind === 'numeric' ? 'numeric' : 'string';
  return {
    version: INPUTS_VERSION,
    table: 'jobs',
    db: null,
    where: null,
    key: null,
    target: m.target.column,
    timeColumn: m.card.timeColumn,
    runtimeColumn: null,
    features: { origin: 'file', preset: null, sets: [], columns: m.preprocessor.features.map((f) => f.name) },
    zeroFill: [],
    columnKinds: kinds,
    twoStage: null,
    history: null,
  };
}

/** Reads a model file's text: the engine's checks, then the `inputs` block's. One line on any problem. */
export function parseBundle(text: string): ModelBundle {
  let doc: Doc;
  try {
    doc = JSON.parse(text) as Doc;
  } catch {
    throw new InputError('model file is not valid JSON');
  }
  const model = parseModel(doc);
  if (doc.inputs === undefined) return { model, inputs: bareInputs(model), stages: [] };
  const inp = doc.inputs as Doc;
  need(inp && Number.isInteger(inp.version), 'inputs block without a version');
  if (inp.version > INPUTS_VERSION) throw new InputError(`model file has inputs version ${inp.version}; this IOLens reads up to ${INPUTS_VERSION} (upgrade IOLens)`);
  need(typeof inp.target === 'string' && typeof inp.table === 'string', 'inputs block without table or target');
  need(inp.features && Array.isArray(inp.features.columns) && Array.isArray(inp.features.sets), 'inputs block without feature columns');
  need(inp.columnKinds && typeof inp.columnKinds === 'object', 'inputs block without column kinds');
  need(Array.isArray(inp.zeroFill), 'inputs block without zeroFill');
  const stages: Stage[] = [];
  if (inp.twoStage) {
    need(Array.isArray(inp.twoStage.stages), 'two-stage block without stages');
    for (const s of inp.twoStage.stages as Doc[]) {
      need(typeof s.column === 'string' && typeof s.feature === 'string', 'a stage without column');
      stages.push({ column: s.column, feature: s.feature, model: parseModel(s.model), crossFit: s.crossFit });
    }
    const { stages: _s, ...ts } = inp.twoStage as Doc;
    inp.twoStage = ts;
  }
  if (inp.history) need(Array.isArray(inp.history.by) && Number.isInteger(inp.history.k) && Array.isArray(inp.history.tail), 'history block malformed');
  return { model, inputs: inp as Inputs, stages };
}

/** Fails unless the model reads only columns of the jobs table (what a log's row has: predict and report on logs). */
export function checkJobsModel(b: ModelBundle): void {
  const jobs = new Set(JOB_COLUMNS.map((c) => c.name));
  const missing = requiredColumns(b).filter((c) => !jobs.has(c));
  if (missing.length) {
    throw new InputError(`the model was trained on table ${b.inputs.table}, whose columns a Darshan log does not have (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}); train on the jobs table to use it on logs`);
  }
}

/** The input columns a prediction must find: the features (minus derived ones), and what history reads. */
export function requiredColumns(b: ModelBundle): string[] {
  const derived = new Set<string>([...HISTORY_FEATURES, ...b.stages.map((s) => s.feature)]);
  const out = new Set<string>();
  for (const f of b.model.preprocessor.features) if (!derived.has(f.name)) out.add(f.name);
  for (const s of b.stages) for (const f of s.model.preprocessor.features) out.add(f.name);
  if (b.inputs.history) for (const c of [...b.inputs.history.by, b.inputs.history.timeColumn]) out.add(c);
  return [...out];
}

/** Columns read when present: the key, the measured target, the time column. */
export function optionalColumns(b: ModelBundle): string[] {
  return [b.inputs.key, b.inputs.target, b.inputs.timeColumn].filter((c): c is string => !!c);
}

/** The text of each row's key (`#1`, `#2` … by position when the table has no key column). */
export function rowKeys(table: Table, key: string | null): string[] {
  const col = key ? table.columns[key] : undefined;
  return Array.from({ length: table.nRows }, (_, r) => {
    if (!col) return `#${r + 1}`;
    const v = col[r];
    return v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v)) ? `#${r + 1}` : String(v);
  });
}

/** The model's input columns the rows lack, other than what history needs (those are required). */
export function missingColumns(b: ModelBundle, loaded: LoadedTable): string[] {
  const t = loaded.table;
  return requiredColumns(b).filter((c) => t.columns[c] === undefined && !historyInputs(b).has(c));
}

function historyInputs(b: ModelBundle): Set<string> {
  const h = b.inputs.history;
  return new Set(h ? [...h.by, h.timeColumn] : []);
}

/** The kind of each input column of the model and its first stages (numeric unless a preprocessor says categorical). */
function inputKinds(b: ModelBundle): Map<string, 'numeric' | 'categorical'> {
  const kinds = new Map<string, 'numeric' | 'categorical'>();
  for (const m of [b.model, ...b.stages.map((s) => s.model)]) for (const f of m.preprocessor.features) kinds.set(f.name, f.kind);
  return kinds;
}

/**
 * The model's table for some rows: the input columns, plus each first-stage prediction and the history features.
 * Checks the feature sets' versions. A feature column the rows lack (another system's table without some server
 * metrics) is a column of missing values, as a missing value in a row is (the caller flags such rows out of
 * distribution: `missingColumns`); only what history is computed from must be there (one line naming it).
 */
export function modelTable(b: ModelBundle, loaded: LoadedTable): Table {
  checkFeatureSets(b.inputs.features.sets);
  const t = withZeros(loaded.table, b.inputs.zeroFill);
  const required = [...historyInputs(b)].filter((c) => t.columns[c] === undefined);
  if (required.length) {
    throw new InputError(`the rows lack the column${required.length > 1 ? 's' : ''} ${required.slice(0, 5).join(', ')} that the model's application history is computed from (the model was trained on table ${b.inputs.table})`);
  }
  const columns: Record<string, Table['columns'][string]> = { ...t.columns };
  const kinds = inputKinds(b);
  for (const c of missingColumns(b, loaded)) columns[c] = kinds.get(c) === 'categorical' ? new Array<string | null>(t.nRows).fill(null) : new Float64Array(t.nRows).fill(NaN);
  const full: Table = { nRows: t.nRows, columns };
  for (const s of b.stages) columns[s.feature] = predict(s.model, full, { ood: false }).prediction;
  const h = b.inputs.history;
  if (h) {
    const keys = rowKeys(full, b.inputs.key);
    const own = full.columns[h.target] instanceof Float64Array ? entriesOf(full, h, keys) : [];
    Object.assign(columns, historyFeatures(full, h, keys, [...own, ...h.tail]));
  }
  return full;
}

/** The out-of-distribution reason of rows that lack some of the model's columns (none when they have all). */
export function missingReason(missing: readonly string[]): string[] {
  if (missing.length === 0) return [];
  return [`the rows lack ${missing.length} of the model's columns (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}): taken as missing values`];
}

/** Model files are refused above this size (a TOKIO model with every family is about 11 MiB). */
export const MAX_MODEL_BYTES = 512 * 1024 * 1024;

/** The table with NaN replaced by 0 in the named numeric columns (the others are shared, not copied). */
export function withZeros(t: Table, columns: readonly string[]): Table {
  if (columns.length === 0) return t;
  const out: Record<string, Table['columns'][string]> = { ...t.columns };
  for (const c of columns) {
    const col = t.columns[c];
    if (col instanceof Float64Array) out[c] = col.map((v) => (Number.isNaN(v) ? 0 : v));
  }
  return { nRows: t.nRows, columns: out };
}

/** Reads a model file (one line on any problem). */
export function loadBundle(path: string): ModelBundle {
  let text: string;
  try {
    text = readRegularFile(path, MAX_MODEL_BYTES, 'a model file').toString('utf8');
  } catch (err) {
    if (err instanceof InputError) throw new InputError(`${path}: ${err.message}`);
    throw new InputError(`${path}: cannot read the model file (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    return parseBundle(text);
  } catch (err) {
    if (err instanceof InputError) throw new InputError(`${path}: ${err.message}`);
    throw err;
  }
}

/** Writes a model file; an existing file is kept unless `force`. */
export function saveBundle(path: string, bundle: ModelBundle, force = false): number {
  if (existsSync(path) && !force) throw new UsageError(`${path} already exists; not overwriting (use --force)`);
  const text = serializeBundle(bundle);
  writeFileSync(path, text);
  return Buffer.byteLength(text);
}

