import { LearnInputError } from './errors.js';
import { quantileSorted } from '../util/stats.js';
import type { Matrix, Table } from './table.js';

/** How one input column becomes model features. */
export type FeatureSpec =
  | {
      name: string;
      kind: 'numeric';
      /** `slog` (default): sign(x)·log10(1+|x|), for counters and rates; `none`: the value as is. */
      transform?: NumericTransform;
    }
  | {
      name: string;
      kind: 'categorical';
      /** Values seen on fewer training rows than this are pooled into one "other" column. Default 10. */
      minCount?: number;
      /** At most this many one-hot columns per feature (the most frequent values); the rest are pooled. Default 32. */
      maxCategories?: number;
    };

export type NumericTransform = 'slog' | 'none';

/** A fitted numeric feature: one model column. */
export interface NumericFeature {
  name: string;
  kind: 'numeric';
  transform: NumericTransform;
  /** Index of its model column. */
  column: number;
}

/** A fitted categorical feature: one model column per kept value, plus one for "other" when values were pooled. */
export interface CategoricalFeature {
  name: string;
  kind: 'categorical';
  minCount: number;
  maxCategories: number;
  /** Kept values, in the order of their model columns ('' stands for a missing value). */
  categories: string[];
  /** Whether an "other" column exists (some training values were pooled); its index is `column + categories.length`. */
  other: boolean;
  /** Training rows whose value was pooled into "other". */
  otherRows: number;
  /** Index of the first model column. */
  column: number;
}

export type FittedFeature = NumericFeature | CategoricalFeature;

/** Per model column statistics over the training rows, in model space (after transforms), NaN ignored. */
export interface ColumnStats {
  mean: number;
  /** Standard deviation; 1 for a constant column, so standardising never divides by zero. */
  std: number;
  /** 0.5 % and 99.5 % quantiles (the robust training range). */
  lo: number;
  hi: number;
  /** The median: the typical value a column is explained against when 0 means nothing (absent in model files
   * written before it was kept; then it comes from the stored training rows, `typicalRow`). */
  median?: number;
  /** Fraction of training rows where the column was missing. */
  missing: number;
}

/** The fitted preprocessing: features, their model columns and the training statistics of each column. */
export interface Preprocessor {
  features: FittedFeature[];
  /** Names of the model columns: a numeric feature's own name, `name=value` for one-hot columns, `name=(other)`. */
  columns: string[];
  /** For each model column, the index of the feature it belongs to. */
  columnFeature: number[];
  stats: ColumnStats[];
}

/** The model features of a table, plus which rows carried category values never kept at training. */
export interface Encoded {
  matrix: Matrix;
  /** For each row, the names of categorical features whose value was not one of the kept categories (or null). */
  unseen: (string[] | null)[];
}

/** sign(x)·log10(1+|x|): keeps 0 at 0 and compresses counters spanning many decades. */
export function slog(x: number): number {
  return x >= 0 ? Math.log10(1 + x) : -Math.log10(1 - x);
}

/** Applies a numeric transform. */
export function applyTransform(t: NumericTransform, x: number): number {
  return t === 'slog' ? slog(x) : x;
}

/** The inverse of a numeric transform (for printing a model-space value in the input's units). */
export function invertTransform(t: NumericTransform, v: number): number {
  if (t === 'none') return v;
  return v >= 0 ? 10 ** v - 1 : 1 - 10 ** -v;
}

const OTHER = '(other)';

function categoryKey(v: string | null | number): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isNaN(v) ? '' : String(v);
  return v;
}

/** Fits the preprocessing on training rows: category sets, model columns and their statistics. */
export function fitPreprocessor(table: Table, specs: readonly FeatureSpec[]): Preprocessor {
  if (specs.length === 0) throw new LearnInputError('no features to learn from');
  const seen = new Set<string>();
  const features: FittedFeature[] = [];
  const columns: string[] = [];
  const columnFeature: number[] = [];
  for (const spec of specs) {
    if (seen.has(spec.name)) throw new LearnInputError(`feature ${spec.name} is listed twice`);
    seen.add(spec.name);
    const col = table.columns[spec.name];
    if (col === undefined) throw new LearnInputError(`no column ${spec.name} in the table`);
    const fi = features.length;
    if (spec.kind === 'numeric') {
      if (!(col instanceof Float64Array)) throw new LearnInputError(`column ${spec.name} is not numeric`);
      features.push({ name: spec.name, kind: 'numeric', transform: spec.transform ?? 'slog', column: columns.length });
      columns.push(spec.name);
      columnFeature.push(fi);
    } else {
      const minCount = spec.minCount ?? 10;
      const maxCategories = spec.maxCategories ?? 32;
      const counts = new Map<string, number>();
      for (let i = 0; i < col.length; i++) {
        const k = categoryKey(col[i]);
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      // Most frequent first; ties by value so the order never depends on the row order.
      const ranked = [...counts.entries()]
        .filter(([, c]) => c >= minCount)
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
        .slice(0, maxCategories);
      const categories = ranked.map(([k]) => k).sort();
      const kept = ranked.reduce((s, [, c]) => s + c, 0);
      const otherRows = table.nRows - kept;
      const f: CategoricalFeature = {
        name: spec.name,
        kind: 'categorical',
        minCount,
        maxCategories,
        categories,
        other: otherRows > 0,
        otherRows,
        column: columns.length,
      };
      features.push(f);
      for (const c of categories) {
        columns.push(`${spec.name}=${c}`);
        columnFeature.push(fi);
      }
      if (f.other) {
        columns.push(`${spec.name}=${OTHER}`);
        columnFeature.push(fi);
      }
    }
  }
  const pre: Preprocessor = { features, columns, columnFeature, stats: [] };
  pre.stats = columnStats(encode(pre, table).matrix);
  return pre;
}

/** Statistics of each column of a model-feature matrix. */
export function columnStats(m: Matrix): ColumnStats[] {
  const out: ColumnStats[] = [];
  const buf = new Float64Array(m.nRows);
  for (let c = 0; c < m.nCols; c++) {
    let n = 0;
    let sum = 0;
    for (let r = 0; r < m.nRows; r++) {
      const v = m.data[r * m.nCols + c];
      if (!Number.isNaN(v)) {
        buf[n++] = v;
        sum += v;
      }
    }
    const mean = n ? sum / n : 0;
    let ss = 0;
    for (let i = 0; i < n; i++) ss += (buf[i] - mean) ** 2;
    const std = n > 1 ? Math.sqrt(ss / n) : 0;
    const sorted = buf.subarray(0, n).sort();
    out.push({
      mean,
      std: std > 1e-12 ? std : 1,
      lo: n ? quantileSorted(sorted, 0.005) : NaN,
      hi: n ? quantileSorted(sorted, 0.995) : NaN,
      median: n ? quantileSorted(sorted, 0.5) : NaN,
      missing: m.nRows ? (m.nRows - n) / m.nRows : 0,
    });
  }
  return out;
}

/** Turns a table into model features: transforms, one-hot columns, unseen categories flagged. */
export function encode(pre: Preprocessor, table: Table): Encoded {
  const nCols = pre.columns.length;
  const n = table.nRows;
  const data = new Float64Array(n * nCols);
  const unseen: (string[] | null)[] = new Array(n).fill(null);
  for (const f of pre.features) {
    const col = table.columns[f.name];
    if (col === undefined) throw new LearnInputError(`no column ${f.name} in the table`);
    if (f.kind === 'numeric') {
      if (!(col instanceof Float64Array)) throw new LearnInputError(`column ${f.name} is not numeric`);
      // ±Infinity is no measurement a model can use: a missing value (NaN), like an absent one
      for (let r = 0; r < n; r++) data[r * nCols + f.column] = Number.isFinite(col[r]) ? applyTransform(f.transform, col[r]) : NaN;
    } else {
      const index = new Map(f.categories.map((c, i) => [c, i]));
      for (let r = 0; r < n; r++) {
        const k = categoryKey(col[r]);
        const i = index.get(k);
        if (i !== undefined) data[r * nCols + f.column + i] = 1;
        else {
          if (f.other) data[r * nCols + f.column + f.categories.length] = 1;
          (unseen[r] ??= []).push(f.name);
        }
      }
    }
  }
  return { matrix: { nRows: n, nCols, data }, unseen };
}

/** Standardises model features with the training statistics; a missing value becomes 0 (the training mean). */
export function standardize(pre: Preprocessor, m: Matrix): Matrix {
  const out = new Float64Array(m.data.length);
  for (let r = 0; r < m.nRows; r++) {
    for (let c = 0; c < m.nCols; c++) {
      const v = m.data[r * m.nCols + c];
      const s = pre.stats[c];
      out[r * m.nCols + c] = Number.isNaN(v) ? 0 : (v - s.mean) / s.std;
    }
  }
  return { nRows: m.nRows, nCols: m.nCols, data: out };
}
