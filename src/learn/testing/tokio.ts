import { parse } from 'csv-parse/sync';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED } from '../../testing/corpus.js';
import { gunzipSync } from 'node:zlib';
import type { FeatureSpec } from '../preprocess.js';
import { sortByTime } from '../split.js';
import { makeTable, type Column, type Table } from '../table.js';

/** The shared TOKIO-ABC Cori table (Cori jobs started before 2017-11-15). */
export const TOKIO_CORI = join(SHARED, 'datasets', 'tokio-abc', 'cori-summaries_2017-02-14-2017-11-14.csv.gz');

/** Throughput target: Darshan's POSIX performance estimate by the slowest rank, MiB/s. */
export const TOKIO_TARGET = 'darshan_agg_perf_by_slowest_posix';

/**
 * Reads a TOKIO-ABC summaries CSV (gzip). Its header lacks a name for the first field, pandas' row index: that
 * field becomes `_row`, the key. A column whose non-empty values all parse as numbers is numeric (empty = NaN);
 * any other is a string column (empty = null). Adds `_runtime`, _datetime_end − _datetime_start in seconds.
 */
export function readTokio(file: string): Table {
  const text = gunzipSync(readFileSync(file)).toString('utf8');
  const records = parse(text, { relax_column_count: true }) as string[][];
  const header = ['_row', ...records[0]];
  const body = records.slice(1);
  for (const r of body) if (r.length !== header.length) throw new Error(`TOKIO row with ${r.length} fields, expected ${header.length}`);
  const columns: Record<string, Column> = {};
  header.forEach((name, c) => {
    const raw = body.map((r) => r[c]);
    const numeric = raw.every((v) => v === '' || Number.isFinite(Number(v)));
    columns[name] = numeric ? Float64Array.from(raw, (v) => (v === '' ? NaN : Number(v))) : raw.map((v) => (v === '' ? null : v));
  });
  const start = columns._datetime_start as Float64Array;
  const end = columns._datetime_end as Float64Array;
  columns._runtime = Float64Array.from(start, (s, i) => end[i] - s);
  return makeTable(columns);
}

/**
 * The feature set of issue 14 for TOKIO-ABC: Darshan aggregate counters without times (no f_*_time, io_time,
 * start/end time, walltime), no GiB totals, job id or target; the application, API and file-system string columns;
 * jobsdb_concurrent_jobs and _nodes; topology_*; fs_ave_*, fs_min_*, fs_max_*, fs_frac_*; fshealth_* without
 * timestamps, lead times and OST names/ids. Every numeric feature uses sign·log10(1+|x|).
 */
export function tokioFeatures(table: Table): FeatureSpec[] {
  const names = Object.keys(table.columns);
  const specs: FeatureSpec[] = [];
  const strings = ['darshan_app', 'darshan_biggest_read_api', 'darshan_biggest_write_api', 'darshan_biggest_read_fs', 'darshan_biggest_write_fs', '_file_system'];
  for (const n of names) {
    let keep = false;
    if (n.startsWith('darshan_')) {
      keep =
        !/_time/.test(n) &&
        !['darshan_jobid', 'darshan_walltime', 'darshan_total_gibs_posix', 'darshan_app', TOKIO_TARGET].includes(n) &&
        !strings.includes(n);
    } else if (n.startsWith('fs_')) keep = /^fs_(ave|min|max|frac)_/.test(n);
    else if (n.startsWith('fshealth_')) keep = !/timestamp|_lead_secs|_name$|_id$/.test(n);
    else if (n.startsWith('topology_')) keep = true;
    else keep = n === 'jobsdb_concurrent_jobs' || n === 'jobsdb_concurrent_nodes';
    if (keep) specs.push({ name: n, kind: 'numeric', transform: 'slog' });
  }
  for (const s of strings) specs.push({ name: s, kind: 'categorical', minCount: 10 });
  return specs;
}

/**
 * The accuracy study's split (issue 14): rows ordered by _datetime_start (ties by row), the earliest 80 % to
 * train, the latest 20 % to test.
 */
export function tokioSplit(table: Table): { train: Int32Array; test: Int32Array } {
  const order = sortByTime(table, '_datetime_start', Int32Array.from({ length: table.nRows }, (_, i) => i));
  const cut = Math.round(table.nRows * 0.8);
  return { train: order.slice(0, cut), test: order.slice(cut) };
}
