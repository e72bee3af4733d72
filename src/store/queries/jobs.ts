import type { DuckDBValue } from '@duckdb/node-api';
import type { Report } from '../../contract/index.js';
import { appendRow, ensureSpace, type Store } from '../db.js';
import { insertJsonRows } from '../ingest.js';
import { REPORT_COLUMNS } from '../schema.js';
import { clusterSubtree, IN_NODES, nodeList } from './clusters.js';
import { readRows, type Row } from './read.js';
import { reportByHash } from './reports.js';

/**
 * The jobs of a store as the web service and the MCP server read them: a filtered, sorted page, one job with its
 * stored report and cluster memberships, and the uploads the service keeps. Every statement is parameterised; the
 * only identifier put into SQL text is the sort column, from a fixed list.
 */

/** Columns a job list may be sorted by. */
export const SORT_COLUMNS = ['start_epoch', 'run_time', 'nprocs', 'total_bytes', 'io_time', 'io_time_cumulative', 'io_share', 'io_mibs', 'posix_perf_mibs', 'app', 'worst_level', 'job_id', 'file_bytes'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

export interface JobFilter {
  /** Substring of the executable, path, application or job id (case-insensitive). */
  readonly q?: string;
  readonly app?: string;
  /** A problem tag the job has (HIGH or WARN). */
  readonly problem?: string;
  readonly level?: string;
  /** Jobs of a clustering run's node (and its descendants). */
  readonly run?: string;
  readonly node?: number;
  readonly sort?: SortColumn;
  readonly order?: 'asc' | 'desc';
  readonly limit?: number;
  readonly offset?: number;
}

/** A page of jobs and the number of jobs that match the filter. */
export interface JobsPage {
  readonly total: number;
  readonly offset: number;
  readonly limit: number;
  readonly jobs: Row[];
}

/** One job: its row, its stored report (upgraded; null when the store keeps none) and its cluster memberships. */
export interface StoredJob {
  readonly row: Row;
  readonly report: Report | null;
  readonly clusters: Row[];
}

/** The columns of a job list entry. */
const LIST_COLUMNS = ['hash', 'path', 'app', 'exe', 'job_id', 'uid', 'nprocs', 'start_epoch', 'run_time', 'total_bytes', 'io_time', 'io_time_cumulative', 'io_share', 'io_mibs', 'posix_perf_mibs', 'worst_level', 'problems', 'insight_codes'];

/** Filtered, sorted page of jobs (at most 500) and the number of jobs that match. */
export async function jobsPage(store: Store, f: JobFilter): Promise<JobsPage> {
  const where: string[] = [];
  const params: DuckDBValue[] = [];
  if (f.q) {
    where.push(`(exe ILIKE ? OR path ILIKE ? OR app ILIKE ? OR CAST(job_id AS VARCHAR) = ?)`);
    const like = `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    params.push(like, like, like, f.q);
  }
  if (f.app) {
    where.push('app = ?');
    params.push(f.app);
  }
  if (f.problem) {
    where.push('list_contains(problems, ?)');
    params.push(f.problem);
  }
  if (f.level) {
    where.push('worst_level = ?');
    params.push(f.level);
  }
  if (f.run !== undefined) {
    const nodes = await clusterSubtree(store, f.run, f.node ?? 0);
    where.push(`hash IN (SELECT key FROM cluster_members WHERE run_id = ? AND ${IN_NODES})`);
    params.push(f.run, nodeList(nodes));
  }
  const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const sort: SortColumn = f.sort && (SORT_COLUMNS as readonly string[]).includes(f.sort) ? f.sort : 'start_epoch';
  const order = f.order === 'asc' ? 'ASC' : 'DESC';
  const limit = Math.min(500, Math.max(1, f.limit ?? 50));
  const offset = Math.max(0, f.offset ?? 0);
  const [{ n }] = await readRows(store, `SELECT count(*) AS n FROM jobs ${w}`, params);
  const jobs = await readRows(
    store,
    `SELECT ${LIST_COLUMNS.join(', ')}, hash IN (SELECT hash FROM reports) AS has_report FROM jobs ${w} ORDER BY "${sort}" ${order} NULLS LAST, hash LIMIT ${limit} OFFSET ${offset}`,
    params,
  );
  return { total: Number(n), offset, limit, jobs };
}

/** Job `hash` (the whole 64-digit hash): its row, stored report through the upgrader, and clusters; null when absent. */
export async function jobWithReport(store: Store, hash: string): Promise<StoredJob | null> {
  const rows = await readRows(store, 'SELECT * FROM jobs WHERE hash = ?', [hash]);
  if (!rows.length) return null;
  const report = await reportByHash(store, hash);
  const clusters = await readRows(store, 'SELECT run_id, cluster, node, probability, outlier_score FROM cluster_members WHERE key = ? ORDER BY run_id', [hash]);
  return { row: rows[0], report, clusters };
}

/** An upload to keep: the job's row (NDJSON line of `jobs`) and its report JSON. */
export interface UploadRecord {
  readonly hash: string;
  readonly row: string;
  readonly report: string;
  readonly version: string;
}

/**
 * Keeps a batch of uploads in one transaction: the job row of each hash the store lacks, and the report of each hash
 * without one. Returns the hashes whose job row this batch added. The caller serialises batches (one writer).
 */
export async function storeUploads(store: Store, batch: readonly UploadRecord[]): Promise<Set<string>> {
  const con = store.con;
  const hashes = [...new Set(batch.map((b) => b.hash))];
  const added = new Set<string>();
  if (!hashes.length) return added;
  const marks = hashes.map(() => '?').join(',');
  const jobs = new Set((await con.runAndReadAll(`SELECT hash FROM jobs WHERE hash IN (${marks})`, hashes)).getRows().map((r) => String(r[0])));
  const reports = new Set((await con.runAndReadAll(`SELECT hash FROM reports WHERE hash IN (${marks})`, hashes)).getRows().map((r) => String(r[0])));
  const rows: string[] = [];
  const docs: UploadRecord[] = [];
  for (const b of batch) {
    if (!jobs.has(b.hash) && !added.has(b.hash)) {
      added.add(b.hash);
      rows.push(b.row);
    }
    if (!reports.has(b.hash)) {
      reports.add(b.hash);
      docs.push(b);
    }
  }
  if (rows.length || docs.length) {
    ensureSpace(store.path, 2 * (rows.reduce((n, r) => n + r.length, 0) + docs.reduce((n, d) => n + d.report.length, 0)), 'the uploads');
    await con.run('BEGIN TRANSACTION');
    try {
      await insertJsonRows(store, 'jobs', rows);
      if (docs.length) {
        const app = await con.createAppender('reports');
        for (const d of docs) appendRow(app, REPORT_COLUMNS, [d.hash, Date.now() * 1000, d.version, d.report]);
        app.closeSync();
      }
      await con.run('COMMIT');
    } catch (err) {
      await con.run('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }
  return added;
}
