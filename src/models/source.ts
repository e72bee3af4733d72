import { InputError } from '../contract/errors.js';
import { makeTable, type Column } from '../learn/index.js';
import { openStore, type Store } from '../store/db.js';
import { importedKeyColumn, readColumns, tableColumns, tableNames, type ColumnRead } from '../store/queries/tables.js';
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

/** How the store reads a column so that it converts as `convertCell` converts a log's value. */
function readOf(c: StoreColumn): ColumnRead {
  if (NUMERIC.test(c.type)) return 'double';
  if (TIME.test(c.type)) return 'epoch';
  if (c.type.endsWith('[]')) return 'list';
  return 'text';
}

async function describe(store: Store, name: string): Promise<StoreColumn[]> {
  return (await tableColumns(store, name)).map(({ name: n, type }) => ({ name: n, type, kind: kindOfType(type) }));
}

/**
 * The table `name` of a store, or `features_<name>` (what `import-features --table NAME` made), with its columns.
 * Fails with one line naming the tables there are.
 */
export async function storeTableColumns(store: Store, name: string): Promise<{ name: string; columns: StoreColumn[] }> {
  for (const candidate of [name, `features_${name}`]) {
    const cols = await describe(store, candidate);
    if (cols.length > 0) return { name: candidate, columns: cols };
  }
  const names = await tableNames(store);
  throw new InputError(`no table ${name} in the store (tables: ${names.join(', ')})`);
}

export interface StoreRead extends LoadedTable {
  /** Every column of the table (name, DuckDB type, kind), in table order. */
  readonly columns: readonly StoreColumn[];
  /** The natural key: `hash` on `jobs`, the key `import-features` used on an imported table, else null. */
  readonly defaultKey: string | null;
}

/**
 * Reads columns of a store table (all of them when `wanted` is omitted), read-only. Names not in the table fail
 * with one line, unless `missingOk` (a model's inputs on another machine's table: the caller takes them as missing
 * values). Rows come in the order of the table's natural key when it has one (so a model trained on the same rows is
 * the same model however an ingest happened to order them), else in the table's own order.
 */
export async function readStoreTable(db: string, tableName: string, wanted?: readonly string[], optional: readonly string[] = [], where?: string, missingOk = false): Promise<StoreRead> {
  const store = await openStore(db, { readOnly: true });
  try {
    const { name, columns } = await storeTableColumns(store, tableName);
    const byName = new Map(columns.map((c) => [c.name, c]));
    const defaultKey = name === 'jobs' ? 'hash' : await importedKeyColumn(store, name);
    const extra = [...optional, ...(defaultKey && wanted && wanted.length ? [defaultKey] : [])].filter((o) => byName.has(o));
    const asked = wanted ? [...new Set([...wanted, ...extra])] : columns.map((c) => c.name);
    const missing = asked.filter((n) => !byName.has(n));
    const names = missingOk ? asked.filter((n) => byName.has(n)) : asked;
    if (missing.length && !missingOk) {
      throw new InputError(`table ${name} has no column${missing.length > 1 ? 's' : ''} ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ''}`);
    }
    const cols = names.map((n) => byName.get(n) as StoreColumn);
    const out: Record<string, Column> = {};
    const kinds: Record<string, ColumnKind> = {};
    if (cols.length > 0) {
      const values = await readColumns(store, name, cols.map((c) => ({ name: c.name, type: c.type, read: readOf(c) })), where, defaultKey && byName.has(defaultKey) ? defaultKey : undefined);
      cols.forEach((c, i) => {
        kinds[c.name] = c.kind;
        out[c.name] = values[i] as Column;
      });
    }
    return { name, table: makeTable(out), kinds, columns, defaultKey };
  } finally {
    store.close();
  }
}

