import { InputError } from '../../contract/errors.js';
import { oneStatement, sqlString, type Store } from '../db.js';
import { ident } from './read.js';

/**
 * Any table of a store as a source of rows (`jobs`, an imported feature table, a view): its columns, its recorded
 * key, and its values read column by column, for clustering and the learned models. Identifiers put into SQL text
 * are quoted; callers pass names they checked against `tableColumns`.
 */

/** A column's name and DuckDB type. */
export interface TableColumn {
  readonly name: string;
  readonly type: string;
}

/** The columns of table `name` (schema main) in table order; empty when there is no such table. */
export async function tableColumns(store: Store, name: string): Promise<TableColumn[]> {
  const r = await store.con.runAndReadAll(
    `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'main' AND table_name = ${sqlString(name)} ORDER BY ordinal_position`,
  );
  return r.getRows().map(([n, t]) => ({ name: String(n), type: String(t) }));
}

/** Names of the store's tables and views (schema main), sorted. */
export async function tableNames(store: Store): Promise<string[]> {
  const r = await store.con.runAndReadAll(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY table_name`);
  return r.getRows().map((x) => String(x[0]));
}

/** The key column `import-features` recorded for an imported table (`features_<name>`), or null. */
export async function importedKeyColumn(store: Store, table: string): Promise<string | null> {
  if (!table.startsWith('features_')) return null;
  try {
    const r = await store.con.runAndReadAll(`SELECT value FROM iolens_meta WHERE key = ${sqlString(`features:${table.slice('features_'.length)}`)}`);
    const rows = r.getRows();
    if (rows.length === 0) return null;
    const meta = JSON.parse(String(rows[0][0])) as { key?: unknown };
    return typeof meta.key === 'string' ? meta.key : null;
  } catch {
    return null;
  }
}

/** Rows of a table, and how many of them have a non-NULL and a distinct value in column `key`. */
export async function keyCounts(store: Store, table: string, key: string): Promise<{ rows: number; nonNull: number; distinct: number }> {
  const k = ident(key);
  const [rows, nonNull, distinct] = (await store.con.runAndReadAll(`SELECT count(*), count(${k}), count(DISTINCT ${k}) FROM ${ident(table)}`)).getRows()[0].map(Number);
  return { rows, nonNull, distinct };
}

/**
 * Every row of a table ordered by `key`: the key as text, then each of `doubles` cast to DOUBLE (a null name gives a
 * column of NULLs). Column-major: result[0] the keys, result[1 + i] the i-th column's values (null for NULL).
 */
export async function keyedDoubles(store: Store, table: string, key: string, doubles: readonly (string | null)[]): Promise<unknown[][]> {
  const k = ident(key);
  const select = [`CAST(${k} AS VARCHAR)`, ...doubles.map((c) => (c ? `CAST(${ident(c)} AS DOUBLE)` : 'NULL::DOUBLE'))].join(', ');
  const result = await store.con.runAndReadAll(`SELECT ${select} FROM ${ident(table)} ORDER BY ${k}`);
  return result.getColumns();
}

/** One column as text (NULL as null), in the order of `key`: the rows' labels (an application name). */
export async function keyedTexts(store: Store, table: string, key: string, column: string): Promise<(string | null)[]> {
  const result = await store.con.runAndReadAll(`SELECT CAST(${ident(column)} AS VARCHAR) FROM ${ident(table)} ORDER BY ${ident(key)}`);
  return result.getColumns()[0].map((v) => (v === null || v === undefined ? null : String(v)));
}

/**
 * How a column is read: `double` (a number, NULL as NaN), `epoch` (a time as seconds since 1970, NULL as NaN), `list`
 * (a list as comma-separated text), `text` (as it is, or cast to text).
 */
export type ColumnRead = 'double' | 'epoch' | 'list' | 'text';

function readExpr(name: string, read: ColumnRead, type: string): string {
  const q = ident(name);
  // NULL becomes NaN in SQL: numeric vectors then carry no validity mask and are copied in bulk.
  if (read === 'double') return `COALESCE(CAST(${q} AS DOUBLE), 'NaN'::DOUBLE)`;
  if (read === 'epoch') return `COALESCE(CAST(epoch_us(CAST(${q} AS TIMESTAMP)) AS DOUBLE) / CAST(1000000 AS DOUBLE), 'NaN'::DOUBLE)`;
  if (read === 'list') return `array_to_string(${q}, ',')`;
  return type === 'VARCHAR' ? q : `CAST(${q} AS VARCHAR)`;
}

/** What a result vector offers: items one by one; a DOUBLE vector also its Float64Array and validity mask. */
interface Vector {
  getItem(r: number): unknown;
  readonly items?: unknown;
  readonly validity?: { readonly data?: unknown };
}

/**
 * Reads columns of a table, ordered by `orderBy` when given, ties (a key that repeats: TOKIO's `_jobid`) broken by
 * the columns read, in order, so rows come in one order whatever order they were stored in (else in the table's own
 * row order, which for `jobs` is the order an ingest's workers happened to finish in), optionally where `where` holds — a condition the user
 * typed (`--where`): in brackets, and checked to be one expression before it runs; on a read-only store it reads
 * the store and nothing else. `double` and `epoch` columns come back as Float64Array (NaN for NULL), the others as
 * text (null for NULL).
 */
export async function readColumns(
  store: Store,
  table: string,
  cols: readonly { readonly name: string; readonly type: string; readonly read: ColumnRead }[],
  where?: string,
  orderBy?: string,
): Promise<(Float64Array | (string | null)[])[]> {
  const from = `FROM ${ident(table)}${where ? ` WHERE (${where})` : ''}`;
  if (where) await oneStatement(store.con, `SELECT count(*) ${from}`, `--where ${where}`);
  let total: number;
  let result;
  try {
    total = Number((await store.con.runAndReadAll(`SELECT count(*) ${from}`)).getRows()[0][0]);
    result = await store.con.run(`SELECT ${cols.map((c) => readExpr(c.name, c.read, c.type)).join(', ')} ${from}${orderBy ? ` ORDER BY ${[ident(orderBy), ...cols.map((_, i) => String(i + 1))].join(', ')}` : ''}`);
  } catch (err) {
    throw new InputError(`cannot read ${table}${where ? ` where ${where}` : ''}: ${(err as Error).message.split('\n')[0]}`);
  }
  // Chunk by chunk, straight from DuckDB's vectors into the columns (no value object per numeric cell).
  const numeric = (c: { read: ColumnRead }) => c.read === 'double' || c.read === 'epoch';
  const num = cols.map((c) => (numeric(c) ? new Float64Array(total) : null));
  const str = cols.map((c) => (numeric(c) ? null : new Array<string | null>(total).fill(null)));
  let off = 0;
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const n = chunk.rowCount;
    if (off + n > total) throw new InputError(`${table} changed while it was read`);
    for (let i = 0; i < cols.length; i++) {
      const v = chunk.getColumnVector(i) as unknown as Vector;
      const dn = num[i];
      const ds = str[i];
      if (dn) {
        // A DOUBLE vector without NULLs holds its values in a Float64Array: copied whole. Otherwise item by item.
        if (v.items instanceof Float64Array && v.items.length === n && !v.validity?.data) dn.set(v.items, off);
        else for (let r = 0; r < n; r++) dn[off + r] = (v.getItem(r) as number | null) ?? NaN;
      } else if (ds) {
        for (let r = 0; r < n; r++) {
          const x = v.getItem(r);
          ds[off + r] = x === null ? null : String(x);
        }
      }
    }
    off += n;
  }
  if (off !== total) throw new InputError(`${table} changed while it was read`);
  return cols.map((_, i) => (num[i] ?? str[i])!);
}

/** An example of `iolens query`'s SQL (its help names it). */
export const QUERY_EXAMPLE = 'SELECT app, count(*) FROM jobs GROUP BY app';

/**
 * Runs SQL a user typed (`iolens query`) and returns its columns and rows as DuckDB gives them. Open the store
 * read-only for it: DuckDB then refuses writes and everything outside the database (openStore's read-only settings).
 */
export async function userQuery(store: Store, sql: string): Promise<{ columns: string[]; rows: unknown[][] }> {
  const r = await store.con.runAndReadAll(sql);
  return { columns: r.columnNames(), rows: r.getRows() };
}

/** Files an ingest part or store has seen (its `sources` rows: ingested, duplicate or error). */
export async function sourceCount(store: Store): Promise<number> {
  return Number((await store.con.runAndReadAll('SELECT count(*) FROM sources')).getRows()[0][0]);
}
