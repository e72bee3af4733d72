import type { DuckDBValue } from '@duckdb/node-api';
import type { ClusterNodeExplanation, ClusterNodeRows, ClusterNodeSummary, ClusterNodeView } from '../contract/index.js';
import { appendRow, ensureSpace, type Store } from '../store/db.js';
import { REPORT_COLUMNS } from '../store/schema.js';
import { appHistory, type HistoryJob } from '../store/history.js';
import { insertJsonRows } from '../store/ingest.js';
import { plain } from '../store/values.js';
import { predict } from '../learn/index.js';
import { modelTable, optionalColumns, requiredColumns, type ModelBundle } from '../models/index.js';
import { rowsTable } from './learned.js';
import type { Value } from '../render/table.js';

/**
 * What the web service reads from (and, with --write, writes to) a job store. Every query is parameterised; the
 * only identifiers put into SQL text are the sort columns (from a fixed list) and feature columns that exist in
 * the clustered table (checked against its schema).
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

/** The columns of a job list entry. */
const LIST_COLUMNS = ['hash', 'path', 'app', 'exe', 'job_id', 'uid', 'nprocs', 'start_epoch', 'run_time', 'total_bytes', 'io_time', 'io_time_cumulative', 'io_share', 'io_mibs', 'posix_perf_mibs', 'worst_level', 'problems', 'insight_codes'];

type Row = Record<string, Value>;

const json = (v: Value): unknown => {
  if (typeof v !== 'string') return null;
  try {
    return JSON.parse(v);
  } catch {
    return null;
  }
};

const median = (xs: number[]): number | null => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export class JobStore {
  /** Uploads waiting for the next commit, and whether a commit is running (DuckDB: one writer). */
  private pending: { hash: string; row: string; report: string; version: string; done: (added: boolean) => void; fail: (e: unknown) => void }[] = [];
  private committing = false;

  constructor(
    readonly store: Store,
    readonly writable: boolean,
  ) {}

  /** Runs a read query on its own connection; rows as plain objects. */
  async rows(sql: string, params: DuckDBValue[] = []): Promise<Row[]> {
    const con = await this.store.instance.connect();
    try {
      const r = await con.runAndReadAll(sql, params);
      const names = r.columnNames();
      return r.getRows().map((row) => Object.fromEntries(row.map((v, i) => [names[i], plain(v)])));
    } finally {
      con.closeSync();
    }
  }

  /**
   * Stores an uploaded job (row and report) unless its hash is there; resolves to whether the job was new. Uploads
   * that arrive while a commit runs are committed together in the next one (group commit: one transaction, one
   * staging file), so concurrent uploads do not queue behind one transaction each.
   */
  storeUpload(hash: string, row: string, report: string, version: string): Promise<boolean> {
    return new Promise<boolean>((done, fail) => {
      this.pending.push({ hash, row, report, version, done, fail });
      if (!this.committing) void this.commit();
    });
  }

  private async commit(): Promise<void> {
    this.committing = true;
    while (this.pending.length) {
      const batch = this.pending.splice(0);
      const con = this.store.con;
      try {
        const hashes = [...new Set(batch.map((b) => b.hash))];
        const marks = hashes.map(() => '?').join(',');
        const jobs = new Set((await con.runAndReadAll(`SELECT hash FROM jobs WHERE hash IN (${marks})`, hashes)).getRows().map((r) => String(r[0])));
        const reports = new Set((await con.runAndReadAll(`SELECT hash FROM reports WHERE hash IN (${marks})`, hashes)).getRows().map((r) => String(r[0])));
        const added = new Set<string>();
        const rows: string[] = [];
        const docs: (typeof batch)[number][] = [];
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
          ensureSpace(this.store.path, 2 * (rows.reduce((n, r) => n + r.length, 0) + docs.reduce((n, d) => n + d.report.length, 0)), 'the uploads');
          await con.run('BEGIN TRANSACTION');
          try {
            await insertJsonRows(this.store, 'jobs', rows);
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
        // The first upload of a new hash in the batch is the one that added it.
        const told = new Set<string>();
        for (const b of batch) {
          const isNew = added.has(b.hash) && !told.has(b.hash);
          told.add(b.hash);
          b.done(isNew);
        }
      } catch (err) {
        for (const b of batch) b.fail(err);
      }
    }
    this.committing = false;
  }

  /** Filtered, sorted page of jobs and the number of jobs that match. */
  async jobs(f: JobFilter): Promise<{ total: number; offset: number; limit: number; jobs: Row[] }> {
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
      const nodes = await this.subtree(f.run, f.node ?? 0);
      where.push(`hash IN (SELECT key FROM cluster_members WHERE run_id = ? AND node IN (${nodes.join(',')}))`);
      params.push(f.run);
    }
    const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const sort: SortColumn = f.sort && (SORT_COLUMNS as readonly string[]).includes(f.sort) ? f.sort : 'start_epoch';
    const order = f.order === 'asc' ? 'ASC' : 'DESC';
    const limit = Math.min(500, Math.max(1, f.limit ?? 50));
    const offset = Math.max(0, f.offset ?? 0);
    const [{ n }] = await this.rows(`SELECT count(*) AS n FROM jobs ${w}`, params);
    const jobs = await this.rows(
      `SELECT ${LIST_COLUMNS.join(', ')}, hash IN (SELECT hash FROM reports) AS has_report FROM jobs ${w} ORDER BY "${sort}" ${order} NULLS LAST, hash LIMIT ${limit} OFFSET ${offset}`,
      params,
    );
    return { total: Number(n), offset, limit, jobs };
  }

  /** One job's row, its stored report (or null) and its cluster memberships. */
  async job(hash: string): Promise<{ row: Row; report: unknown; clusters: Row[] } | null> {
    const rows = await this.rows('SELECT * FROM jobs WHERE hash = ?', [hash]);
    if (!rows.length) return null;
    const [rep] = await this.rows('SELECT report FROM reports WHERE hash = ?', [hash]);
    const clusters = await this.rows('SELECT run_id, cluster, node, probability, outlier_score FROM cluster_members WHERE key = ? ORDER BY run_id', [hash]);
    return { row: rows[0], report: rep ? json(rep.report) : null, clusters };
  }

  /** Every job of an application (`iolens compare`'s history), on a connection of its own. */
  async history(app: string): Promise<HistoryJob[]> {
    const con = await this.store.instance.connect();
    try {
      return await appHistory(con, app);
    } finally {
      con.closeSync();
    }
  }

  /** Clustering runs, newest first. */
  async runs(): Promise<Row[]> {
    const rows = await this.rows(
      `SELECT run_id, created_at::VARCHAR AS created_at, iolens_version, source_table, key_column, features, params, rows, clusters, noise, note FROM cluster_runs ORDER BY created_at DESC, run_id DESC`,
    );
    return rows.map((r) => ({ ...r, features: json(r.features) as Value, params: json(r.params) as Value }));
  }

  /** Node ids of a run's subtree under `node` (the node itself included). */
  async subtree(run: string, node: number): Promise<number[]> {
    const all = await this.rows('SELECT id, parent FROM clusters WHERE run_id = ?', [run]);
    const children = new Map<number, number[]>();
    for (const r of all) if (r.parent !== null) children.set(Number(r.parent), [...(children.get(Number(r.parent)) ?? []), Number(r.id)]);
    const out: number[] = [];
    const stack = [node];
    while (stack.length) {
      const n = stack.pop()!;
      out.push(n);
      stack.push(...(children.get(n) ?? []));
    }
    return out;
  }

  /** Every node of a run with its jobs, median throughput and I/O time over its subtree. */
  async tree(run: string): Promise<ClusterNodeView[]> {
    const nodes = await this.rows(
      'SELECT id, parent, depth, size, selected, label, stability, lambda_birth, target_median, summary, explanation, model FROM clusters WHERE run_id = ? ORDER BY id',
      [run],
    );
    const parent = new Map(nodes.map((n) => [Number(n.id), n.parent === null ? null : Number(n.parent)]));
    const thr = new Map<number, number[]>();
    const io = new Map<number, number>();
    const count = new Map<number, number>();
    const members = await this.rows(
      'SELECT m.node, j.io_mibs AS mibs, j.io_time FROM cluster_members m JOIN jobs j ON j.hash = m.key WHERE m.run_id = ?',
      [run],
    );
    for (const m of members) {
      for (let n: number | null | undefined = Number(m.node); n !== null && n !== undefined; n = parent.get(n)) {
        count.set(n, (count.get(n) ?? 0) + 1);
        if (typeof m.mibs === 'number' && m.mibs > 0) thr.set(n, [...(thr.get(n) ?? []), m.mibs]);
        if (typeof m.io_time === 'number') io.set(n, (io.get(n) ?? 0) + m.io_time);
      }
    }
    return nodes.map((n) => {
      const id = Number(n.id);
      const summary = json(n.summary) as ClusterNodeSummary | null;
      return {
        id,
        parent: n.parent === null ? null : Number(n.parent),
        depth: Number(n.depth),
        size: Number(n.size),
        selected: n.selected === true,
        label: n.label === null ? null : Number(n.label),
        stability: typeof n.stability === 'number' ? n.stability : null,
        lambdaBirth: typeof n.lambda_birth === 'number' ? n.lambda_birth : null,
        jobs: count.get(id) ?? 0,
        medianThroughput: median(thr.get(id) ?? []) ?? (typeof n.target_median === 'number' ? n.target_median : null),
        ioTime: io.has(id) ? io.get(id)! : (summary?.io_time?.total ?? null),
        summary,
        explanation: json(n.explanation) as ClusterNodeExplanation | null,
        model: json(n.model),
      };
    });
  }

  /**
   * A node's rows for parallel coordinates: the run's feature values of up to `cap` member jobs (an even spread in
   * key order), and with a model its predicted and measured target.
   */
  async nodeRows(run: string, node: number, cap: number, model: ModelBundle | null): Promise<ClusterNodeRows> {
    const [r] = await this.rows('SELECT source_table, key_column, features FROM cluster_runs WHERE run_id = ?', [run]);
    if (!r) return { features: [], rows: [], scatter: null, target: null };
    const table = String(r.source_table);
    const key = String(r.key_column);
    const known = new Set((await this.rows('SELECT column_name FROM information_schema.columns WHERE table_name = ?', [table])).map((c) => String(c.column_name)));
    if (!known.has(key)) return { features: [], rows: [], scatter: null, target: null };
    const features = ((json(r.features) as string[] | null) ?? []).filter((f) => typeof f === 'string' && known.has(f));
    const nodes = await this.subtree(run, node);
    const [{ n }] = await this.rows(`SELECT count(*) AS n FROM cluster_members WHERE run_id = ? AND node IN (${nodes.join(',')})`, [run]);
    const step = Math.max(1, Math.ceil(Number(n) / cap));
    const q = (c: string) => `"${c.replace(/"/g, '""')}"`;
    // An even spread of the node's members in key order, at most `cap`.
    const picked = `SELECT key FROM (SELECT key, row_number() OVER (ORDER BY key) AS rn FROM cluster_members WHERE run_id = ? AND node IN (${nodes.join(',')})) WHERE (rn - 1) % ${step} = 0 LIMIT ${cap}`;
    const data = features.length
      ? await this.rows(`SELECT CAST(${q(key)} AS VARCHAR) AS __key, ${features.map(q).join(', ')} FROM ${q(table)} WHERE CAST(${q(key)} AS VARCHAR) IN (${picked}) ORDER BY 1`, [run])
      : [];
    const rows = data.map((d) => ({ key: String(d.__key), values: features.map((f) => (typeof d[f] === 'number' ? (d[f] as number) : null)) }));
    let scatter: { key: string; predicted: number; measured: number | null; ood: boolean }[] | null = null;
    let target: string | null = null;
    if (model && table === 'jobs' && rows.length) {
      const need = [...new Set([...requiredColumns(model), ...optionalColumns(model)])];
      if (need.every((c) => known.has(c))) {
        target = model.inputs.target;
        const got = await this.rows(`SELECT hash, ${need.map(q).join(', ')} FROM jobs WHERE hash IN (${picked}) ORDER BY hash`, [run]);
        const loaded = rowsTable(model, got);
        if (loaded) {
          const p = predict(model.model, modelTable(model, loaded));
          scatter = got.map((g, i) => ({ key: String(g.hash), predicted: p.prediction[i], measured: typeof g[target!] === 'number' ? (g[target!] as number) : null, ood: p.ood[i] }));
        }
      }
    }
    return { features, rows, scatter, target };
  }
}
