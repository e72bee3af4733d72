// The rows a clustering run works on: a table of the job store (`jobs`, or a table loaded with import-features),
// its key, the feature columns (a feature set of the registry, or a list), and optionally a throughput target and
// an I/O-time column, read into typed arrays.
import { InputError, UsageError } from '../contract/errors.js';
import { FEATURE_SETS_BY_ID } from '../features/registry.js';
import type { Store } from '../store/db.js';
import { importedKeyColumn, keyCounts, keyedDoubles, keyedTexts, tableColumns } from '../store/queries/tables.js';
import { readRegularFile } from '../util/read-file.js';
import { describeFeature, type FeatureInfo } from './describe.js';

export interface SourceOptions {
  /** Table (or view) to cluster; `NAME` also finds `features_NAME` (import-features). Default `jobs`. */
  table?: string;
  /** Column naming each row; must be unique. Default `hash` on jobs; `_row`, else the import's key, on imported tables. */
  key?: string;
  /** Feature columns in order (e.g. from --features FILE). */
  features?: readonly string[];
  /** A feature set of the registry (`gauge`, `aiio`, `totals`); default `gauge` on jobs. */
  preset?: string;
  /** Throughput column for the local models; `null` for none. Default `io_mibs` on jobs, none elsewhere. */
  target?: string | null;
  /** I/O time column (groups ranked by the I/O time they spend); `null` for none. Default `io_time` when present. */
  ioTime?: string | null;
}

/** A numeric column of the source with its values (NaN where NULL). */
export interface ValueColumn {
  readonly column: string;
  readonly values: Float64Array;
}

export interface FeatureTable {
  /** The table read (after `features_` resolution). */
  readonly table: string;
  readonly keyColumn: string;
  /** Key of every row, as text, in row order (rows are read ordered by the key). */
  readonly keys: string[];
  readonly features: FeatureInfo[];
  /** n × d raw feature values, row-major; NULL values are 0 (see `imputed`). */
  readonly data: Float64Array;
  readonly n: number;
  readonly d: number;
  /** How many NULL feature values were taken as 0. */
  readonly imputed: number;
  readonly target: ValueColumn | null;
  readonly ioTime: ValueColumn | null;
  /** The job's run time, when the table has one (`run_time`): the learn engine's leak guard uses it. */
  readonly runtime: ValueColumn | null;
  /**
   * Each row's application (the executable's base name), when the table names one (`exe` of the job store,
   * `darshan_app` of a TOKIO-style table, `app`): groups are described by the applications in them.
   */
  readonly apps: readonly string[] | null;
}

/** Columns that name a row's application, in the order they are looked for. */
const APP_COLUMNS = ['exe', 'darshan_app', 'app', 'application'];

/** An application's name from an executable path or command (`/bin/ior -w` → `ior`). */
export function appName(v: string | null): string {
  const first = (v ?? '').trim().split(/\s+/)[0] ?? '';
  const base = first.slice(first.lastIndexOf('/') + 1);
  return base === '' ? '(unknown)' : base;
}

/** Feature names from a features file: one per line or separated by commas or spaces; `#` starts a comment. */
export function parseFeatureList(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.replace(/#.*/, ''))
    .flatMap((l) => l.split(/[,\s]+/))
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Reads a features file (at most 1 MiB). */
export function readFeatureList(path: string): string[] {
  let text: string;
  try {
    text = readRegularFile(path, 1 << 20, 'a features file').toString('utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') throw new InputError(`${path}: no such features file`);
    if (e instanceof InputError) throw new InputError(`${path}: ${e.message}`);
    throw err;
  }
  const names = parseFeatureList(text);
  if (names.length === 0) throw new InputError(`${path}: names no feature column`);
  return names;
}

const NUMERIC = /^(DOUBLE|FLOAT|REAL|BIGINT|INTEGER|SMALLINT|TINYINT|HUGEINT|UBIGINT|UINTEGER|USMALLINT|UTINYINT|UHUGEINT|BOOLEAN|DECIMAL.*)$/;

async function columnsOf(store: Store, table: string): Promise<Map<string, string> | null> {
  const cols = await tableColumns(store, table);
  return cols.length === 0 ? null : new Map(cols.map((c) => [c.name, c.type]));
}

/** Resolves the source's table, key, features, target and I/O time, checks them, and reads the rows. */
export async function loadFeatureTable(store: Store, o: SourceOptions): Promise<FeatureTable> {
  const asked = o.table ?? 'jobs';
  let table = asked;
  let cols = await columnsOf(store, table);
  if (!cols && !asked.startsWith('features_')) {
    table = `features_${asked}`;
    cols = await columnsOf(store, table);
  }
  if (!cols) throw new InputError(`no table ${asked} in the store (nor features_${asked}); see iolens import-features`);
  const isJobs = table === 'jobs';
  const has = (c: string) => cols.has(c);
  const need = (c: string, what: string) => {
    if (!has(c)) throw new InputError(`${what} ${c} is not a column of ${table}`);
  };

  const key = o.key ?? (isJobs ? 'hash' : has('_row') ? '_row' : await importedKeyColumn(store, table));
  if (!key) throw new UsageError(`${table} has no default key column; name a unique one with --key`);
  need(key, '--key');

  let names: string[];
  if (o.features && o.preset) throw new UsageError('give --features or --preset, not both');
  if (o.features) names = [...o.features];
  else {
    const id = o.preset ?? (isJobs ? 'gauge' : undefined);
    if (!id) throw new UsageError(`name the feature columns of ${table} with --features FILE (or --preset with a feature set the table holds)`);
    const set = FEATURE_SETS_BY_ID.get(id);
    if (!set) throw new UsageError(`unknown --preset ${id} (one of ${[...FEATURE_SETS_BY_ID.keys()].join(', ')})`);
    names = set.columns.map((c) => `${set.columnPrefix}${c.name}`);
    const missing = names.filter((c) => !has(c));
    if (missing.length > 0) throw new InputError(`${table} lacks ${missing.length} column(s) of feature set ${id}, e.g. ${missing[0]}`);
  }
  const seen = new Set<string>();
  for (const f of names) {
    need(f, 'feature');
    if (seen.has(f)) throw new UsageError(`feature ${f} is named twice`);
    seen.add(f);
    if (!NUMERIC.test(cols.get(f)!)) throw new InputError(`feature ${f} is ${cols.get(f)}; clustering needs numeric columns`);
    if (f === key) throw new UsageError(`the key column ${key} cannot also be a feature`);
  }

  const numericColumn = (c: string, what: string): string => {
    need(c, what);
    if (!NUMERIC.test(cols.get(c)!)) throw new InputError(`${what} ${c} is ${cols.get(c)}, not a number`);
    if (seen.has(c)) throw new UsageError(`${what} ${c} is also a clustering feature`);
    return c;
  };
  const targetName = o.target === null ? null : o.target !== undefined ? numericColumn(o.target, '--target') : isJobs ? 'io_mibs' : null;
  const ioName = o.ioTime === null ? null : o.ioTime !== undefined ? numericColumn(o.ioTime, '--io-time') : has('io_time') && !seen.has('io_time') ? 'io_time' : null;
  const runtimeName = has('run_time') && !seen.has('run_time') && NUMERIC.test(cols.get('run_time')!) ? 'run_time' : null;

  const { rows: n, nonNull, distinct } = await keyCounts(store, table, key);
  if (n === 0) throw new InputError(`${table} has no rows`);
  if (nonNull < n) throw new InputError(`key column ${key} is NULL on ${n - nonNull} row(s) of ${table}; name a unique column with --key`);
  if (distinct < n) {
    throw new InputError(`key column ${key} repeats in ${table} (${distinct} distinct values for ${n} rows); name a unique column with --key${has('_row') && key !== '_row' ? ' (e.g. _row)' : ''}`);
  }

  const columns = await keyedDoubles(store, table, key, [...names, targetName, ioName, runtimeName]);
  const d = names.length;
  const data = new Float64Array(n * d);
  let imputed = 0;
  for (let j = 0; j < d; j++) {
    const c = columns[1 + j];
    for (let i = 0; i < n; i++) {
      const v = c[i];
      if (v === null) imputed++;
      else {
        const x = Number(v);
        if (!Number.isFinite(x)) throw new InputError(`feature ${names[j]} is not finite (${x}) on the row with key ${String(columns[0][i])}`);
        data[i * d + j] = x;
      }
    }
  }
  const appColumn = APP_COLUMNS.find((c) => has(c) && !seen.has(c) && c !== key) ?? null;
  const apps = appColumn === null ? null : (await keyedTexts(store, table, key, appColumn)).map(appName);
  const valueColumn = (name: string | null, at: number): ValueColumn | null =>
    name === null ? null : { column: name, values: Float64Array.from(columns[1 + d + at], (v) => (v === null ? NaN : Number(v))) };
  return {
    table,
    keyColumn: key,
    keys: columns[0].map((v) => String(v)),
    features: names.map(describeFeature),
    data,
    n,
    d,
    imputed,
    target: valueColumn(targetName, 0),
    ioTime: valueColumn(ioName, 1),
    runtime: valueColumn(runtimeName, 2),
    apps,
  };
}
