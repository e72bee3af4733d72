import { InputError } from '../contract/errors.js';
import { explain, predict, takeRows, type Explanation, type Predictions, type Table } from '../learn/index.js';
import { checkJobsModel, missingColumns, missingReason, modelTable, optionalColumns, requiredColumns, rowKeys, type ModelBundle } from './bundle.js';
import { logsTable, type LoadedTable, type LogFailure } from './log-rows.js';
import { readStoreTable } from './source.js';
import { referenceChoice } from './reference.js';
import type { ExtractOptions } from '../pipeline/extract.js';

/**
 * What the `predict` and `explain` commands do, as library calls: load a model file, read rows (a store table or
 * logs), predict or explain them.
 */

/** Where rows come from: a store table (optionally filtered by an SQL condition), or Darshan logs. */
export type RowSource = { kind: 'store'; db: string; table: string; where?: string } | { kind: 'logs'; paths: readonly string[]; extract?: ExtractOptions };

export interface Rows {
  readonly loaded: LoadedTable;
  /** The key column shown (null: rows are numbered) and each row's key text. */
  readonly keyColumn: string | null;
  readonly keys: readonly string[];
  /** Where each row comes from, when the source says: its log's path and its job id (null where unknown). */
  readonly labels: { readonly path: readonly (string | null)[]; readonly jobId: readonly (string | null)[] };
  readonly failures: readonly LogFailure[];
}

/** Columns read beside the model's inputs so that outputs can name each row's log and job. */
const LABEL_COLUMNS = ['path', 'job_id'];

function rowLabels(table: Table): Rows['labels'] {
  const text = (name: string) => {
    const col = table.columns[name];
    return Array.from({ length: table.nRows }, (_, r) => {
      const v = col?.[r];
      return v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v)) || v === '' ? null : String(v);
    });
  };
  return { path: text('path'), jobId: text('job_id') };
}

/** Reads the rows a model needs from a source; `key` overrides the model's key column. */
export async function readRows(bundle: ModelBundle, source: RowSource, key?: string): Promise<Rows> {
  const need = requiredColumns(bundle);
  const keyColumn = key ?? (source.kind === 'logs' ? 'hash' : bundle.inputs.key);
  const optional = [...new Set([...optionalColumns(bundle), ...(keyColumn ? [keyColumn] : []), ...LABEL_COLUMNS])];
  if (source.kind === 'logs') {
    checkJobsModel(bundle);
    const r = logsTable(source.paths, need, source.extract, optional);
    return { loaded: r, keyColumn, keys: rowKeys(r.table, keyColumn), labels: rowLabels(r.table), failures: r.failures };
  }
  // another machine's table may lack some of the model's columns: they are missing values (`modelTable`), each row
  // says so among its out-of-distribution reasons (`missingReason`)
  const r = await readStoreTable(source.db, source.table, need, optional, source.where, true);
  if (key && r.table.columns[key] === undefined) throw new InputError(`table ${r.name} has no key column ${key}`);
  const kc = keyColumn && r.table.columns[keyColumn] !== undefined ? keyColumn : r.defaultKey && r.table.columns[r.defaultKey] !== undefined ? r.defaultKey : null;
  return { loaded: r, keyColumn: kc, keys: rowKeys(r.table, kc), labels: rowLabels(r.table), failures: [] };
}

/** Predicts every row. */
export function predictRows(bundle: ModelBundle, rows: Rows, options: { ood?: boolean; ensemble?: 'average' | 'closest' } = {}): Predictions {
  return predict(bundle.model, modelTable(bundle, rows.loaded), { ...options, oodAll: missingReason(missingColumns(bundle, rows.loaded)) });
}

/** Explains some rows (default all). */
export function explainRows(bundle: ModelBundle, rows: Rows, options: { rows?: number[]; baseline?: 'typical' | 'zero' | 'path' } = {}): Explanation[] {
  return explain(bundle.model, modelTable(bundle, rows.loaded), { ...options, baseline: options.baseline ?? 'typical', ...referenceChoice(bundle.model), oodAll: missingReason(missingColumns(bundle, rows.loaded)) });
}

/** One row's explanation with its prediction, interval, OOD verdict and measured value. */
export interface RowExplanation {
  readonly explanation: Explanation;
  /** predict's output and prediction for the row (the explanation's base + Σ shap equals the output to rounding). */
  readonly output: number;
  readonly prediction: number;
  readonly low: number;
  readonly high: number;
  readonly ood: boolean;
  readonly oodReasons: readonly string[];
  readonly measured: number | null;
}

/** Explains row `row` of the rows read (history and first-stage predictions use the whole table). */
export function explainRow(bundle: ModelBundle, rows: Rows, row: number, baseline: 'typical' | 'zero' | 'path' = 'typical'): RowExplanation {
  // History and first-stage predictions need the whole table; the engine then sees the one row.
  const one = takeRows(modelTable(bundle, rows.loaded), [row]);
  const oodAll = missingReason(missingColumns(bundle, rows.loaded));
  const [e] = explain(bundle.model, one, { rows: [0], baseline, ...referenceChoice(bundle.model), oodAll });
  const p = predict(bundle.model, one, { oodAll });
  const y = rows.loaded.table.columns[bundle.inputs.target];
  return {
    explanation: e,
    output: p.output[0],
    prediction: p.prediction[0],
    low: p.low[0],
    high: p.high[0],
    ood: p.ood[0],
    oodReasons: p.oodReasons[0],
    measured: y instanceof Float64Array && y[row] >= 0 ? y[row] : null,
  };
}
