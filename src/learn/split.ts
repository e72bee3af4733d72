import { LearnInputError } from './errors.js';
import { Rng } from './rng.js';
import type { Table } from './table.js';

/** A split of row indices into the rows models are fitted on and the rows they are validated on. */
export interface Split {
  fit: Int32Array;
  valid: Int32Array;
  /** 'time' (the most recent rows by a column) or 'random' (seeded). */
  method: 'time' | 'random';
}

/**
 * Carves a validation set out of `rows` (default: all rows of the table): with `timeColumn`, the most recent
 * `fraction` of rows by that column (numbers, or strings compared as text, e.g. ISO dates; ties by row index;
 * rows without a time sort first), else a seeded random `fraction`. Fit and validation indices come back sorted.
 */
export function validationSplit(
  table: Table,
  options: { timeColumn?: string; fraction?: number; seed?: number; rows?: ArrayLike<number> } = {},
): Split {
  const fraction = options.fraction ?? 0.2;
  if (!(fraction > 0 && fraction < 1)) throw new LearnInputError('validation fraction must be between 0 and 1');
  const rows = options.rows ? Int32Array.from(options.rows) : Int32Array.from({ length: table.nRows }, (_, i) => i);
  const nValid = Math.round(rows.length * fraction);
  if (nValid < 1 || nValid >= rows.length) throw new LearnInputError(`too few rows (${rows.length}) for a validation split`);
  let order: Int32Array;
  let method: Split['method'];
  if (options.timeColumn) {
    order = sortByTime(table, options.timeColumn, rows);
    method = 'time';
  } else {
    order = new Rng(options.seed ?? 0).shuffle(Int32Array.from(rows));
    method = 'random';
  }
  const cut = rows.length - nValid;
  return { fit: order.slice(0, cut).sort(), valid: order.slice(cut).sort(), method };
}

/** `rows` ordered by the time column, ascending; ties and missing times by row index (missing first). */
export function sortByTime(table: Table, column: string, rows: Int32Array): Int32Array {
  const col = table.columns[column];
  if (col === undefined) throw new LearnInputError(`no time column ${column} in the table`);
  const out = Int32Array.from(rows);
  if (col instanceof Float64Array) {
    const key = (r: number): number => (Number.isNaN(col[r]) ? -Infinity : col[r]);
    return out.sort((a, b) => key(a) - key(b) || a - b);
  }
  return out.sort((a, b) => {
    const x = col[a] ?? '';
    const y = col[b] ?? '';
    return x < y ? -1 : x > y ? 1 : a - b;
  });
}
