import type { DuckDBConnection } from '@duckdb/node-api';
import { markdownCell, rowsToObjects, tableCsv, tableMarkdown, tableText, type Value } from '../render/table.js';
import { plain } from './values.js';
import { connectionOf, sqlString, type Store } from './db.js';
import { escapeTerminal } from '../text/escape.js';
import { formatBytes, formatSeconds } from '../text/format.js';
import { safeJson } from '../render/json.js';

/** How a numeric column reads for people (text and Markdown); JSON and CSV keep the raw numbers. */
export type ColumnUnit = 'bytes' | 'seconds' | 'mibs';

/** One table of the facility summary. */
export interface Section {
  readonly id: string;
  readonly title: string;
  readonly columns: string[];
  readonly rows: Value[][];
  readonly note?: string;
  readonly units?: Readonly<Record<string, ColumnUnit>>;
}

export interface Summary {
  readonly overview: Record<string, Value>;
  readonly sections: Section[];
}

/** Units of the overview's measures. */
const OVERVIEW_UNITS: Readonly<Record<string, ColumnUnit>> = { total_bytes: 'bytes', io_time_s: 'seconds', io_time_cumulative_s: 'seconds' };

function human(v: Value, unit: ColumnUnit | undefined): Value {
  if (typeof v !== 'number' || unit === undefined) return v;
  if (unit === 'bytes') return formatBytes(v);
  if (unit === 'seconds') return formatSeconds(v);
  return `${formatBytes(v * 1048576)}/s`;
}

/** A section with its unit columns in human units (for text and Markdown). */
function humanRows(x: Section): Value[][] {
  if (!x.units) return x.rows;
  const units = x.columns.map((c) => x.units![c]);
  return x.rows.map((r) => r.map((v, i) => human(v, units[i])));
}

async function rows(con: DuckDBConnection, sql: string): Promise<{ columns: string[]; rows: Value[][] }> {
  const r = await con.runAndReadAll(sql);
  return { columns: r.columnNames(), rows: r.getRows().map((row) => row.map(plain)) };
}

/**
 * The facility view of a store, like Drishti's table over 112K logs: jobs per insight code, level, problem and
 * interface; the distribution of throughput (bytes per second of the slowest rank's I/O time, the time model's
 * `io_mibs`); top applications by I/O time. Times are the time model's: `io_time_s` sums each job's slowest-rank
 * I/O time (what the jobs waited), `io_time_cumulative_s` the time summed over ranks. `top` bounds the per-code and
 * per-app tables.
 */
export async function buildSummary(source: Store | DuckDBConnection, top = 20): Promise<Summary> {
  const con = connectionOf(source);
  const ov = await rows(
    con,
    `SELECT count(*) AS jobs, count(DISTINCT app) AS apps, count(DISTINCT uid) AS users,
            sum(total_bytes) AS total_bytes, sum(io_time) AS io_time_s, sum(io_time_cumulative) AS io_time_cumulative_s,
            strftime(min(start_time), '%Y-%m-%d') AS first_job, strftime(max(start_time), '%Y-%m-%d') AS last_job,
            count(*) FILTER (WHERE insight_codes IS NOT NULL) AS jobs_with_report,
            count(*) FILTER (WHERE io_mibs IS NOT NULL) AS jobs_with_throughput,
            count(*) FILTER (WHERE decode_errors IS NOT NULL) AS jobs_with_decode_errors,
            (SELECT count(*) FROM ingest_errors) AS ingest_errors
     FROM jobs`,
  );
  const overview = rowsToObjects(ov.columns, ov.rows)[0];
  const jobs = Number(overview.jobs) || 0;
  const pct = (n: string) => (jobs > 0 ? `round(100.0 * ${n} / ${jobs}, 1)` : 'NULL');
  const sections: Section[] = [];
  const withReport = Number(overview.jobs_with_report) || 0;
  const noReport = withReport === 0 ? 'no row has report insights yet (the report builder is not in this build, or the logs were ingested before it)' : undefined;

  const codes = await rows(
    con,
    `SELECT code, level, count(DISTINCT hash) AS jobs, ${pct('count(DISTINCT hash)')} AS pct_jobs
     FROM insights GROUP BY code, level ORDER BY jobs DESC, code, level LIMIT ${top}`,
  );
  sections.push({ id: 'insights', title: 'Jobs per insight code', ...codes, note: noReport });
  const levels = await rows(
    con,
    `SELECT coalesce(worst_level, '(none)') AS worst_level, count(*) AS jobs, ${pct('count(*)')} AS pct_jobs
     FROM jobs WHERE insight_codes IS NOT NULL GROUP BY 1 ORDER BY jobs DESC, 1`,
  );
  sections.push({ id: 'levels', title: 'Jobs per worst insight level', ...levels, note: noReport });
  // A problem counts only where a finding raised it (HIGH or WARN): an OK "writes are sequential" is no problem.
  const problems = await rows(
    con,
    `SELECT problem, count(DISTINCT hash) AS jobs, ${pct('count(DISTINCT hash)')} AS pct_jobs,
            count(DISTINCT hash) FILTER (WHERE level = 'HIGH') AS jobs_high
     FROM insights WHERE level IN ('HIGH', 'WARN') AND problem IS NOT NULL GROUP BY problem ORDER BY jobs DESC, problem`,
  );
  sections.push({ id: 'problems', title: 'Jobs per problem (HIGH or WARN findings)', ...problems, note: noReport });
  const ifaces = await rows(
    con,
    `SELECT interface, count(*) AS jobs, ${pct('count(*)')} AS pct_jobs
     FROM (SELECT unnest(interfaces) AS interface FROM jobs) GROUP BY interface ORDER BY jobs DESC, interface`,
  );
  sections.push({ id: 'interfaces', title: 'Jobs per I/O interface', ...ifaces });
  const thr = await rows(
    con,
    `WITH t AS (SELECT io_mibs AS v FROM jobs WHERE io_mibs IS NOT NULL)
     SELECT b.bucket AS throughput, count(t.v) AS jobs FROM (VALUES
       (0, '< 1 MiB/s', -1e300, 1), (1, '1-10 MiB/s', 1, 10), (2, '10-100 MiB/s', 10, 100), (3, '100 MiB/s-1 GiB/s', 100, 1024),
       (4, '1-10 GiB/s', 1024, 10240), (5, '>= 10 GiB/s', 10240, 1e300)) AS b(i, bucket, lo, hi)
     LEFT JOIN t ON t.v >= b.lo AND t.v < b.hi GROUP BY b.i, b.bucket ORDER BY b.i`,
  );
  const q = await rows(
    con,
    `SELECT count(*) AS jobs, min(v) AS min, quantile_cont(v, 0.1) AS p10, quantile_cont(v, 0.25) AS p25, median(v) AS p50,
            quantile_cont(v, 0.75) AS p75, quantile_cont(v, 0.9) AS p90, max(v) AS max
     FROM (SELECT io_mibs AS v FROM jobs WHERE io_mibs IS NOT NULL)`,
  );
  sections.push({ id: 'throughput', title: 'Throughput (bytes per second of the slowest rank\'s I/O time), jobs that moved data', ...thr });
  sections.push({ id: 'throughput_quantiles', title: 'Throughput quantiles (MiB/s)', ...q, units: { min: 'mibs', p10: 'mibs', p25: 'mibs', p50: 'mibs', p75: 'mibs', p90: 'mibs', max: 'mibs' } });
  const apps = await rows(
    con,
    `SELECT app, count(*) AS jobs, sum(io_time_cumulative) AS io_time_cumulative_s, sum(io_time) AS io_time_s, sum(total_bytes) AS bytes,
            median(io_mibs) AS median_mibs
     FROM jobs GROUP BY app ORDER BY io_time_cumulative_s DESC NULLS LAST, jobs DESC, app LIMIT ${top}`,
  );
  sections.push({ id: 'apps', title: 'Top applications by I/O time (summed over ranks; io_time_s: each job\'s slowest rank)', ...apps, units: { io_time_cumulative_s: 'seconds', io_time_s: 'seconds', bytes: 'bytes', median_mibs: 'mibs' } });
  sections.push(await targetSection(con, top));
  sections.push(await clusterSection(con, top));
  return { overview, sections };
}

/**
 * Storage targets over time across jobs (issue 52): per file system, OST and hour of the jobs' start, the jobs that
 * had files on it, how many of them D21 named it slow in, the job-seconds they waited for it (what their slowest rank
 * would not have waited had it run like their median OST), and its median file bandwidth. An OST slow in many jobs in
 * the same hours is the facility's problem: rows with a slow job, ranked by job-seconds lost. Server-side metrics
 * loaded with `ingest --fs-metrics` per target (`fs_job_metrics`, an OST named `…OST000e` or `14`) are shown beside
 * it: each metric's mean over those jobs' windows.
 */
export async function targetSection(con: DuckDBConnection, top: number): Promise<Section> {
  const t = await rows(
    con,
    `WITH m AS (
       SELECT hash, coalesce(TRY_CAST(target AS BIGINT), TRY_CAST('0x' || regexp_extract(target, 'OST([0-9a-fA-F]+)', 1) AS BIGINT)) AS ost, metric, mean
       FROM fs_job_metrics WHERE target IS NOT NULL),
     g AS (
       SELECT t.fs, t.ost, strftime(date_trunc('hour', t.start_time), '%Y-%m-%d %H:00') AS hour, count(DISTINCT t.hash) AS jobs,
              count(DISTINCT t.hash) FILTER (WHERE t.slow) AS slow_jobs, sum(t.waited_s) AS lost_s, median(t.median_file_mibs) AS median_mibs,
              list(DISTINCT t.hash) AS hashes
       FROM targets t GROUP BY ALL)
     SELECT g.fs, g.ost, g.hour, g.jobs, g.slow_jobs, g.lost_s, g.median_mibs,
            (SELECT string_agg(metric || '=' || round(mean, 3), ', ' ORDER BY metric) FROM (
               SELECT m.metric, avg(m.mean) AS mean FROM m WHERE m.ost = g.ost AND list_contains(g.hashes, m.hash) GROUP BY m.metric)) AS server_metrics
     FROM g WHERE g.slow_jobs > 0 ORDER BY g.lost_s DESC, g.fs, g.ost, g.hour LIMIT ${top}`,
  );
  const any = await rows(con, 'SELECT count(*) FROM targets');
  const none = Number(any.rows[0]?.[0] ?? 0) === 0;
  return {
    id: 'targets',
    title: 'Slow storage targets over time (per file system, OST and hour; ranked by job-seconds lost)',
    ...t,
    ...(none ? { note: 'no job with a LUSTRE module in the store (or ingested before storage targets were recorded)' } : t.rows.length === 0 ? { note: 'no OST was slow in any job' } : {}),
    units: { lost_s: 'seconds', median_mibs: 'mibs' },
  };
}

/**
 * The largest groups of the latest clustering run (`iolens cluster`; the highest run number): jobs, share, I/O
 * time, median target and the one-split rule that sets each group apart from its sibling, in words.
 */
export async function clusterSection(con: DuckDBConnection, top: number): Promise<Section> {
  const latest = await rows(
    con,
    `SELECT run_id, source_table, rows, clusters, noise FROM cluster_runs
     ORDER BY TRY_CAST(regexp_extract(run_id, '^run-([0-9]+)$', 1) AS BIGINT) DESC NULLS LAST, run_id DESC LIMIT 1`,
  );
  const columns = ['cluster', 'node', 'jobs', 'pct_jobs', 'io_time_s', 'target_median', 'rule'];
  if (latest.rows.length === 0) return { id: 'clusters', title: 'Largest groups of the latest clustering run', columns, rows: [], note: 'no clustering run yet (iolens cluster)' };
  const [runId, table, total, clusters, noise] = latest.rows[0];
  const groups = await rows(
    con,
    `SELECT label AS cluster, id AS node, size AS jobs, round(100.0 * size / ${Number(total) || 1}, 1) AS pct_jobs,
            TRY_CAST(json_extract(summary, '$.io_time.total') AS DOUBLE) AS io_time_s,
            target_median, json_extract_string(explanation, '$.rule.text') AS rule
     FROM clusters WHERE run_id = ${sqlString(String(runId))} AND selected ORDER BY size DESC, id LIMIT ${top}`,
  );
  return {
    id: 'clusters',
    title: `Largest groups of the latest clustering run (${runId} of ${table}: ${clusters} clusters, ${noise} of ${total} rows noise)`,
    ...groups,
    units: { io_time_s: 'seconds' },
  };
}

export type SummaryFormat = 'text' | 'json' | 'csv' | 'md';

/** Renders a summary. CSV: one table per section separated by a blank line (or only `section` when given). */
export function renderSummary(s: Summary, format: SummaryFormat, only?: string): string {
  const secs = only ? s.sections.filter((x) => x.id === only) : s.sections;
  if (format === 'json') {
    const o: Record<string, unknown> = { overview: s.overview };
    for (const x of secs) o[x.id] = { title: x.title, rows: rowsToObjects(x.columns, x.rows), ...(x.note ? { note: x.note } : {}) };
    return safeJson(o, 1);
  }
  if (format === 'csv') {
    const parts: string[] = [];
    if (!only) parts.push(tableCsv(Object.keys(s.overview), [Object.values(s.overview)]));
    for (const x of secs) parts.push(tableCsv(x.columns, x.rows));
    return parts.join('\r\n');
  }
  if (format === 'md') {
    const out: string[] = ['# IOLens facility summary', ''];
    out.push(tableMarkdown(['measure', 'value'], Object.entries(s.overview).map(([k, v]) => [k, human(v, OVERVIEW_UNITS[k])])));
    for (const x of secs) {
      out.push(`## ${markdownCell(x.title)}`, '');
      if (x.note) out.push(`_${markdownCell(x.note)}_`, '');
      out.push(x.rows.length > 0 ? tableMarkdown(x.columns, humanRows(x)) : '(no rows)\n');
    }
    return out.join('\n');
  }
  const out: string[] = ['IOLens facility summary', ''];
  out.push(tableText(['measure', 'value'], Object.entries(s.overview).map(([k, v]) => [k, human(v, OVERVIEW_UNITS[k])])));
  for (const x of secs) {
    out.push(escapeTerminal(x.title));
    if (x.note) out.push(`  ${escapeTerminal(x.note)}`);
    out.push(x.rows.length > 0 ? tableText(x.columns, humanRows(x)) : '  (no rows)\n');
  }
  return out.join('\n');
}

