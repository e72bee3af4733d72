import { InputError } from '../contract/errors.js';
import { makeTable, type Column } from '../learn/index.js';
import { oneStatement, openStore, sqlString } from '../store/db.js';
import { kindOfType, NUMERIC_TYPE as NUMERIC, TIME_TYPE as TIME, type ColumnKind, type LoadedTable } from './log-rows.js';

/**
 * Feature tables for the learned models from a job store table (`jobs`, an imported feature table, any table or
 * view), read-only. Each column is read through an SQL expression that converts it exactly as `log-rows.ts`
 * converts the same column of a log's job row, so a log and its ingested row give the same numbers.
 */

/** A column of a store table: its name, DuckDB type and how it is read. */
export interface StoreColumn {
  readonly name: string;
  readonly type: string;
  readonly kind: ColumnKind;
}

/** What a result vector offers: items one by one; a DOUBLE vector also its Float64Array and validity mask. */
interface Vector {
  getItem(r: number): unknown;
  readonly items?: unknown;
  readonly validity?: { readonly data?: unknown };
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The SQL expression that reads a column the way `convertCell` converts a log's value. */
function selectExpr(c: StoreColumn): string {
  const q = quoteIdent(c.name);
  // NULL becomes NaN in SQL: numeric vectors then carry no validity mask and are copied in bulk.
  if (NUMERIC.test(c.type)) return `COALESCE(CAST(${q} AS DOUBLE), 'NaN'::DOUBLE)`;
  if (TIME.test(c.type)) return `COALESCE(CAST(epoch_us(CAST(${q} AS TIMESTAMP)) AS DOUBLE) / CAST(1000000 AS DOUBLE), 'NaN'::DOUBLE)`;
  if (c.type.endsWith('[]')) return `array_to_string(${q}, ',')`;
  if (c.type === 'VARCHAR') return q;
  return `CAST(${q} AS VARCHAR)`;
}

type Con = Awaited<ReturnType<typeof openStore>>['con'];

async function describe(con: Con, name: string): Promise<StoreColumn[]> {
  const r = await con.runAndReadAll(
    `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ${sqlString(name)} AND table_schema = 'main' ORDER BY ordinal_position`,
  );
  return r.getRows().map(([n, t]) => ({ name: String(n), type: String(t), kind: kindOfType(String(t)) }));
}

/**
 * The table `name` of a store, or `features_<name>` (what `import-features --table NAME` made), with its columns.
 * Fails with one line naming the tables there are.
 */
export async function storeTableColumns(con: Con, name: string): Promise<{ name: string; columns: StoreColumn[] }> {
  for (const candidate of [name, `features_${name}`]) {
    const cols = await describe(con, candidate);
    if (cols.length > 0) return { name: candidate, columns: cols };
  }
  const r = await con.runAndReadAll(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY table_name`);
  const names = r.getRows().map((x) => String(x[0]));
  throw new InputError(`no table ${name} in the store (tables: ${names.join(', ')})`);
}

/** The key column `import-features` recorded for an imported table, or null. */
async function importedKey(con: Con, table: string): Promise<string | null> {
  if (!table.startsWith('features_')) return null;
  try {
    const r = await con.runAndReadAll(`SELECT value FROM iolens_meta WHERE key = ${sqlString(`features:${table.slice('features_'.length)}`)}`);
    const rows = r.getRows();
    if (rows.length === 0) return null;
    const meta = JSON.parse(String(rows[0][0])) as { key?: unknown };
    return typeof meta.key === 'string' ? meta.key : null;
  } catch {
    return null;
  }
}

export interface StoreRead extends LoadedTable {
  /** Every column of the table (name, DuckDB type, kind), in table order. */
  readonly columns: readonly StoreColumn[];
  /** The natural key: `hash` on `jobs`, the key `import-features` used on an imported table, else null. */
  readonly defaultKey: string | null;
}

/**
 * Reads columns of a store table (all of them when `wanted` is omitted), read-only. Names not in the table fail
 * with one line. Rows come in the table's own order.
 */
export async function readStoreTable(db: string, tableName: string, wanted?: readonly string[], optional: readonly string[] = [], where?: string): Promise<StoreRead> {
  const store = await openStore(db, { readOnly: true });
  try {
    const { name, columns } = await storeTableColumns(store.con, tableName);
    const byName = new Map(columns.map((c) => [c.name, c]));
    const defaultKey = name === 'jobs' ? 'hash' : await importedKey(store.con, name);
    const extra = [...optional, ...(defaultKey && wanted && wanted.length ? [defaultKey] : [])].filter((o) => byName.has(o));
    const names = wanted ? [...new Set([...wanted, ...extra])] : columns.map((c) => c.name);
    const missing = names.filter((n) => !byName.has(n));
    if (missing.length) {
      throw new InputError(`table ${name} has no column${missing.length > 1 ? 's' : ''} ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ''}`);
    }
    const cols = names.map((n) => byName.get(n) as StoreColumn);
    const out: Record<string, Column> = {};
    const kinds: Record<string, ColumnKind> = {};
    if (cols.length > 0) {
      // A condition is one expression: in brackets, and the query checked to be one statement before it runs.
      const from = `FROM ${quoteIdent(name)}${where ? ` WHERE (${where})` : ''}`;
      if (where) await oneStatement(store.con, `SELECT count(*) ${from}`, `--where ${where}`);
      let total: number;
      let result;
      try {
        total = Number((await store.con.runAndReadAll(`SELECT count(*) ${from}`)).getRows()[0][0]);
        result = await store.con.run(`SELECT ${cols.map(selectExpr).join(', ')} ${from}`);
      } catch (err) {
        throw new InputError(`cannot read ${name}${where ? ` where ${where}` : ''}: ${(err as Error).message.split('\n')[0]}`);
      }
      // Chunk by chunk, straight from DuckDB's vectors into the columns (no value object per numeric cell).
      const num = cols.map((c) => (c.kind === 'numeric' ? new Float64Array(total) : null));
      const str = cols.map((c) => (c.kind === 'numeric' ? null : new Array<string | null>(total).fill(null)));
      let off = 0;
      for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
        const n = chunk.rowCount;
        if (off + n > total) throw new InputError(`${name} changed while it was read`);
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
      if (off !== total) throw new InputError(`${name} changed while it was read`);
      cols.forEach((c, i) => {
        kinds[c.name] = c.kind;
        out[c.name] = (num[i] ?? str[i]) as Column;
      });
    }
    return { name, table: makeTable(out), kinds, columns, defaultKey };
  } finally {
    store.close();
  }
}

