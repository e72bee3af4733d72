import type { DuckDBValue } from '@duckdb/node-api';
import type { Value } from '../../render/table.js';
import type { Store } from '../db.js';
import { plain } from '../values.js';

/** A result row as plain data: column name → JSON-able value. */
export type Row = Record<string, Value>;

/**
 * Runs one read statement on a connection of its own (so that concurrent readers, e.g. the web service's requests,
 * do not share one) and returns its rows as plain objects. For the store's own statements only.
 */
export async function readRows(store: Store, sql: string, params: DuckDBValue[] = []): Promise<Row[]> {
  const con = await store.instance.connect();
  try {
    const r = await con.runAndReadAll(sql, params);
    const names = r.columnNames();
    return r.getRows().map((row) => Object.fromEntries(row.map((v, i) => [names[i], plain(v)])));
  } finally {
    con.closeSync();
  }
}

/** Parses a JSON text column; null for NULL or text that is not JSON. */
export function jsonCell(v: Value): unknown {
  if (typeof v !== 'string') return null;
  try {
    return JSON.parse(v);
  } catch {
    return null;
  }
}

/** A quoted SQL identifier. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
