import { UsageError } from '../contract/errors.js';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { connectionOf, sqlString, type Store } from './db.js';

/** Tables (and the `insights` view) `iolens export` writes: those that exist and, for optional ones, have rows. */
const TABLES = ['jobs', 'insights', 'files', 'ingest_errors', 'sacct', 'fs_job_metrics', 'cluster_runs', 'clusters', 'cluster_members'];

/**
 * Writes each store table as `<dir>/<table>.parquet` (zstd), readable by pandas (`pd.read_parquet`) and Spark —
 * the insights too (one row per finding: hash, app, code, level, problem) and the clustering runs. List columns stay
 * lists; TIMESTAMP columns become Parquet timestamps. Tables loaded by import-features
 * (`features_*`) are exported too.
 */
export async function exportParquet(source: Store | DuckDBConnection, dir: string, opts: { force?: boolean } = {}): Promise<{ table: string; rows: number; file: string }[]> {
  const con = connectionOf(source);
  mkdirSync(dir, { recursive: true });
  const r = await con.runAndReadAll(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' AND (table_type = 'BASE TABLE' OR table_name = 'insights') ORDER BY table_name`);
  const present = new Set(r.getRows().map((x) => String(x[0])));
  const tables = [...TABLES.filter((t) => present.has(t)), ...[...present].filter((t) => t.startsWith('features_')).sort()];
  const out: { table: string; rows: number; file: string }[] = [];
  const plan: { table: string; rows: number; file: string }[] = [];
  for (const t of tables) {
    const n = Number((await con.runAndReadAll(`SELECT count(*) FROM "${t}"`)).getRows()[0][0]);
    if (n === 0 && t !== 'jobs' && t !== 'insights' && t !== 'ingest_errors') continue;
    plan.push({ table: t, rows: n, file: resolve(join(dir, `${t}.parquet`)) });
  }
  // Never overwrite the user's files unless asked to.
  const existing = plan.filter((p) => existsSync(p.file)).map((p) => p.file);
  if (existing.length && !opts.force) throw new UsageError(`export: ${existing.join(', ')} already exist${existing.length === 1 ? 's' : ''}; not overwriting (use --force)`);
  for (const { table: t, rows: n, file } of plan) {
    await con.run(`COPY "${t}" TO ${sqlString(file)} (FORMAT parquet, COMPRESSION zstd)`);
    out.push({ table: t, rows: n, file });
  }
  return out;
}
