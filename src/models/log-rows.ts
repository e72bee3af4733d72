import { InputError } from '../contract/errors.js';
import { makeTable, type Column, type Table } from '../learn/index.js';
import { extract, type ExtractOptions, type Extracted } from '../pipeline/extract.js';
import { projectRow } from '../store/row.js';
import { JOB_COLUMNS, type ColumnType } from '../store/schema.js';

/**
 * Feature tables for the learned models from Darshan logs given directly: each log goes through the pipeline's
 * `extract` and the store's own row projection (`projectRow`), then through the same per-type conversion as the
 * values `readStoreTable` reads back from DuckDB (source.ts), so a log and its ingested row give the same numbers
 * (one code path; a test checks it). Needs no database.
 *
 * Conversion by column type: numbers, booleans (1/0) → numeric (NULL = NaN); TIMESTAMP/DATE → seconds since 1970;
 * VARCHAR → text (NULL = null); lists → their items joined by `,`; anything else → its text.
 */

/** How a column enters a table: numeric (Float64Array, NaN = missing) or text. */
export type ColumnKind = 'numeric' | 'string';

/** Rows read for a model, with the kind of every column. */
export interface LoadedTable {
  /** The table or view read (`jobs`, `features_tokio` …); `logs` for logs given directly. */
  readonly name: string;
  readonly table: Table;
  readonly kinds: Readonly<Record<string, ColumnKind>>;
}

export const NUMERIC_TYPE = /^(DOUBLE|FLOAT|REAL|DECIMAL(\(.*\))?|HUGEINT|UHUGEINT|BIGINT|UBIGINT|INTEGER|UINTEGER|SMALLINT|USMALLINT|TINYINT|UTINYINT|BOOLEAN)$/;
export const TIME_TYPE = /^(TIMESTAMP.*|DATE)$/;

/** How a DuckDB column type is read. */
export function kindOfType(type: string): ColumnKind {
  return NUMERIC_TYPE.test(type) || TIME_TYPE.test(type) ? 'numeric' : 'string';
}

/** The kind of each `jobs` column, as `readStoreTable` reads it. */
export const JOB_COLUMN_KINDS: Readonly<Record<string, ColumnKind>> = Object.fromEntries(JOB_COLUMNS.map((c) => [c.name, kindOfType(c.type)]));

/** One cell of the store's projected row, converted as DuckDB gives it back through `selectExpr`. */
function convertCell(type: ColumnType, v: unknown): number | string | null {
  switch (type) {
    case 'VARCHAR':
      return v === null || v === undefined ? null : String(v);
    case 'VARCHAR[]':
      return v === null || v === undefined ? null : (v as string[]).join(',');
    case 'BOOLEAN':
      return v === null || v === undefined ? NaN : v ? 1 : 0;
    case 'TIMESTAMP':
      return v === null || v === undefined || !Number.isFinite(Number(v)) ? NaN : Math.round(Number(v)) / 1e6;
    default: {
      if (v === null || v === undefined) return NaN;
      const n = Number(v);
      return Number.isFinite(n) ? n : NaN;
    }
  }
}

/** A failure to read one log (the others still count). */
export interface LogFailure {
  readonly path: string;
  readonly error: string;
}

export interface LogsRead extends LoadedTable {
  /** Each log that could be read, in order: its extract (report, features, job row). */
  readonly extracted: readonly Extracted[];
  readonly failures: readonly LogFailure[];
}

/**
 * Darshan logs → the rows `ingest` would store for them (columns of `jobs`, all or `wanted`), through `extract` and
 * the store's projection. A log that cannot be read is a failure (path, one line), not an exception.
 */
export function logsTable(paths: readonly string[], wanted?: readonly string[], options: ExtractOptions = {}, optional: readonly string[] = []): LogsRead {
  const index = new Map(JOB_COLUMNS.map((c, i) => [c.name, i]));
  const names = wanted ? [...new Set([...wanted, ...optional.filter((o) => index.has(o))])] : JOB_COLUMNS.map((c) => c.name);
  const missing = names.filter((n) => !index.has(n));
  if (missing.length) {
    throw new InputError(`a log's job row has no column${missing.length > 1 ? 's' : ''} ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ''}; this model was not trained on the jobs table`);
  }
  const extracted: Extracted[] = [];
  const failures: LogFailure[] = [];
  for (const p of paths) {
    try {
      extracted.push(extract(p, options));
    } catch (err) {
      failures.push({ path: p, error: err instanceof Error ? err.message.split('\n')[0] : String(err) });
    }
  }
  return { name: 'logs', ...rowsToTable(extracted.map((x) => x.row), names), extracted, failures };
}

/** Job rows (the pipeline's `extract(...).row`) → a table of the named `jobs` columns. */
export function rowsToTable(rows: readonly Extracted['row'][], names: readonly string[]): { table: Table; kinds: Record<string, ColumnKind> } {
  const index = new Map(JOB_COLUMNS.map((c, i) => [c.name, i]));
  const cells = rows.map((r) => projectRow(r, 0));
  const out: Record<string, Column> = {};
  const kinds: Record<string, ColumnKind> = {};
  for (const n of names) {
    const i = index.get(n);
    if (i === undefined) throw new InputError(`the jobs table has no column ${n}`);
    const spec = JOB_COLUMNS[i];
    const kind = kindOfType(spec.type);
    kinds[n] = kind;
    const vals = cells.map((c) => convertCell(spec.type, c[i]));
    out[n] = kind === 'numeric' ? Float64Array.from(vals as number[]) : (vals as (string | null)[]);
  }
  return { table: makeTable(out), kinds };
}
