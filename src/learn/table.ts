import { LearnInputError } from './errors.js';

/** A numeric column (NaN = missing) or a string column (null = missing). */
export type Column = Float64Array | readonly (string | null)[];

/**
 * A table of rows as the learning engine takes it: named columns of equal length. Numeric columns are
 * `Float64Array`s with NaN for a missing value; string columns are arrays of strings (null or '' for missing).
 */
export interface Table {
  readonly nRows: number;
  readonly columns: Readonly<Record<string, Column>>;
}

/** Builds a table, checking that every column has the same length. */
export function makeTable(columns: Record<string, Column>): Table {
  const names = Object.keys(columns);
  const nRows = names.length ? columns[names[0]].length : 0;
  for (const name of names) {
    if (columns[name].length !== nRows) {
      throw new LearnInputError(`column ${name} has ${columns[name].length} rows, expected ${nRows}`);
    }
  }
  return { nRows, columns };
}

/** The rows `rows` of `table`, in that order (a copy). */
export function takeRows(table: Table, rows: ArrayLike<number>): Table {
  const out: Record<string, Column> = {};
  for (const [name, col] of Object.entries(table.columns)) {
    if (col instanceof Float64Array) {
      const c = new Float64Array(rows.length);
      for (let i = 0; i < rows.length; i++) c[i] = col[rows[i]];
      out[name] = c;
    } else {
      const c: (string | null)[] = new Array(rows.length);
      for (let i = 0; i < rows.length; i++) c[i] = col[rows[i]];
      out[name] = c;
    }
  }
  return { nRows: rows.length, columns: out };
}

/** The numeric column `name`, or a one-line error naming what is wrong. */
export function numericColumn(table: Table, name: string): Float64Array {
  const col = table.columns[name];
  if (col === undefined) throw new LearnInputError(`no column ${name} in the table`);
  if (!(col instanceof Float64Array)) throw new LearnInputError(`column ${name} is not numeric`);
  return col;
}

/** The column `name` as strings (numbers are printed), or a one-line error when it is absent. */
export function stringColumn(table: Table, name: string): readonly (string | null)[] {
  const col = table.columns[name];
  if (col === undefined) throw new LearnInputError(`no column ${name} in the table`);
  if (col instanceof Float64Array) return Array.from(col, (v) => (Number.isNaN(v) ? null : String(v)));
  return col;
}

/**
 * A dense row-major matrix of model features (after transforms and one-hot encoding): `data[r * nCols + c]`,
 * NaN = missing.
 */
export interface Matrix {
  readonly nRows: number;
  readonly nCols: number;
  readonly data: Float64Array;
}

/** The rows `rows` of a matrix (a copy). */
export function takeMatrixRows(m: Matrix, rows: ArrayLike<number>): Matrix {
  const data = new Float64Array(rows.length * m.nCols);
  for (let i = 0; i < rows.length; i++) data.set(m.data.subarray(rows[i] * m.nCols, (rows[i] + 1) * m.nCols), i * m.nCols);
  return { nRows: rows.length, nCols: m.nCols, data };
}

/** `values[rows[i]]` for each i. */
export function gather(values: Float64Array, rows: ArrayLike<number>): Float64Array {
  const out = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = values[rows[i]];
  return out;
}
