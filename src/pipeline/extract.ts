import { storageTargetsCell } from './storage-cells.js';
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { LEVELS, type FeatureValues, type Level, type Report } from '../contract/index.js';
import { computePerf, type PerfEstimate } from '../formats/darshan/perf.js';
import { MAX_LOG_BYTES } from '../formats/darshan/log.js';
import { readRegularFile } from '../util/read-file.js';
import { FEATURE_SETS } from '../features/registry.js';
import { logFacts, reportOf, type DiagnoseOptions, type LogFacts } from './diagnose.js';
import { withPath } from './open.js';
import { toolVersion } from './resources.js';

/** A value of the job row. Timestamps are seconds since 1970 (the store turns them into TIMESTAMPs). */
export type RowValue = string | number | bigint | boolean | null | readonly string[];

/** One job as a flat record: the job store's `jobs` row (column name → value), computed from the report and facts. */
export type JobRow = Readonly<Record<string, RowValue>>;

export interface ExtractOptions extends DiagnoseOptions {
  /** Run the checks (default true). Without them the report has the job information only and no findings. */
  readonly report?: boolean;
  /** Compute darshan-parser's --perf estimates (default true). */
  readonly perf?: boolean;
}

export interface Extracted {
  /** The report of the log (default mode unless asked otherwise). */
  readonly report: Report;
  /** Every feature set's values, by set id, in column order. */
  readonly features: Readonly<Record<string, FeatureValues>>;
  /** The job row: a projection of the report, the facts and the features. */
  readonly row: JobRow;
  /** The opened log and its facts, for callers that need per-record data (the store's `files` table). */
  readonly source: LogFacts;
}

/** `darshan-parser --perf` fields of the per-module columns, by column suffix. */
export const PERF_COLUMNS = [
  { suffix: 'perf_mibs', field: 'aggPerfBySlowest', doc: 'agg_perf_by_slowest (MiB/s)' },
  { suffix: 'perf_time', field: 'aggTimeBySlowest', doc: 'agg_time_by_slowest (s)' },
  { suffix: 'perf_bytes', field: 'totalBytes', doc: 'total_bytes' },
  { suffix: 'slowest_rank_io_time', field: 'slowestRankIoTime', doc: 'unique files: slowest_rank_io_time (s)' },
  { suffix: 'slowest_rank_meta_time', field: 'slowestRankMetaOnlyTime', doc: 'unique files: slowest_rank_meta_only_time (s)' },
  { suffix: 'shared_time_by_slowest', field: 'sharedTimeBySlowest', doc: 'shared files: time_by_slowest (s)' },
] as const;

/** Modules whose --perf estimates get their own columns (every module's are in `perf_json`). */
export const PERF_COLUMN_MODULES = [
  { key: 'posix', module: 'POSIX' },
  { key: 'mpiio', module: 'MPI-IO' },
  { key: 'stdio', module: 'STDIO' },
] as const;

/** Application name: the base name of the executable. */
export function appName(exe: string): string {
  return basename(exe) || exe;
}

function worstLevel(levels: readonly Level[]): Level | null {
  let best = -1;
  for (const l of levels) {
    const i = LEVELS.indexOf(l);
    if (best < 0 || i < best) best = i;
  }
  return best < 0 ? null : LEVELS[best];
}

function perfCells(perf: PerfEstimate[]): Record<string, RowValue> {
  const out: Record<string, RowValue> = { perf_json: JSON.stringify(perf, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)) };
  for (const m of PERF_COLUMN_MODULES) {
    const e = perf.find((x) => x.module === m.module) as Record<string, unknown> | undefined;
    if (!e) continue;
    for (const p of PERF_COLUMNS) {
      const v = e[p.field];
      out[`${m.key}_${p.suffix}`] = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null;
    }
  }
  return out;
}

const MIB = 1024 * 1024;

/** The time model's columns: the report's `io` numbers, so that the store shows what the report shows. */
export function ioCells(io: Report['io']): Record<string, RowValue> {
  return {
    io_time: io.ioTime,
    io_time_cumulative: io.cumulativeIoTime,
    io_share: io.ioShare,
    io_mibs: io.bytes > 0 && io.ioTime > 0 ? io.bytes / MIB / io.ioTime : null,
  };
}

const errorLine = (err: unknown): string => (err instanceof Error ? err.message.split('\n')[0] : String(err));

/**
 * One log → its report, feature vectors and job row, each value computed once from the facts: what `ingest`,
 * `predict`/`explain` and the web service store or feed to models. The job row's identity columns are the report's
 * `job` fields. A damaged module is no error (the row says so in `decode_errors`); an unreadable log throws.
 */
export function extract(input: string | { readonly path: string; readonly bytes: Uint8Array }, options: ExtractOptions = {}): Extracted {
  const path = typeof input === 'string' ? input : input.path;
  let bytes: Uint8Array;
  try {
    bytes = typeof input === 'string' ? readRegularFile(input, MAX_LOG_BYTES, 'a Darshan log') : input.bytes;
  } catch (err) {
    throw withPath(path, err);
  }
  try {
    return extractFrom(path, bytes, options);
  } catch (err) {
    throw withPath(path, err);
  }
}

function extractFrom(path: string, bytes: Uint8Array, options: ExtractOptions): Extracted {
  const source = logFacts({ path, bytes }, options);
  const { facts } = source;
  const wantReport = options.report !== false;
  const analysis = ['base'];
  const analysisErrors: string[] = [];
  const report = reportOf(source, { ...options, ...(wantReport ? {} : { checks: [] }) });
  const job = report.job;

  const features: Record<string, FeatureValues> = {};
  const cells: Record<string, RowValue> = { perf_json: null };
  for (const m of PERF_COLUMN_MODULES) for (const p of PERF_COLUMNS) cells[`${m.key}_${p.suffix}`] = null;
  for (const set of FEATURE_SETS) {
    const values = set.compute(facts);
    features[set.id] = values;
    set.columns.forEach((c, i) => (cells[`${set.columnPrefix}${c.name}`] = values[i]));
  }

  if (options.perf !== false) {
    try {
      Object.assign(cells, perfCells(computePerf(source.log)));
      analysis.push('perf');
    } catch (err) {
      analysisErrors.push(`perf: ${errorLine(err)}`);
    }
  }
  const fired = report.insights;
  if (wantReport) {
    const broken = report.checks.filter((c) => c.status === 'error');
    if (broken.length > 0) analysisErrors.push(`report: ${broken.map((c) => `${c.code}: ${c.reason ?? 'error'}`).join('; ')}`);
    analysis.push('report');
  }

  const info = facts.get('log');
  const totals = facts.get('modules.totals').modules;
  const row: JobRow = {
    // the log's own bytes: a log and its gzip- or bzip2-compressed copy are one job
    hash: createHash('sha256').update(source.log.wholeBytes ?? bytes).digest('hex'),
    path,
    file_bytes: bytes.length,
    iolens_version: toolVersion(),
    job_id: job.jobId === '' ? null : BigInt(job.jobId),
    uid: job.uid === '' ? null : BigInt(job.uid),
    exe: job.exe,
    command: job.command,
    app: appName(job.exe),
    nprocs: job.processes,
    start_time: job.startTime.epochSeconds,
    end_time: job.endTime.epochSeconds,
    start_epoch: job.startTime.epochSeconds,
    end_epoch: job.endTime.epochSeconds,
    run_time: job.durationSeconds,
    ...ioCells(report.io),
    log_version: info.formatVersion,
    runtime_version: info.runtimeVersion,
    compression: info.compression,
    metadata: JSON.stringify(Object.fromEntries(info.metadata)),
    modules: job.modules,
    interfaces: [...new Set(totals.filter((m) => m.records > 0).map((m) => m.iface))],
    partial: info.partialModules.length > 0,
    partial_modules: info.partialModules,
    decode_errors: info.decodeErrors.length > 0 ? info.decodeErrors.join('; ') : null,
    fs_types: info.fsTypes,
    storage_targets: storageTargetsCell(facts, fired),
    ...cells,
    insight_codes: wantReport ? fired.map((i) => i.code) : null,
    insight_levels: wantReport ? fired.map((i) => i.level) : null,
    problems: wantReport ? [...new Set(fired.filter((i) => i.level === 'HIGH' || i.level === 'WARN').map((i) => i.problem).filter((x): x is NonNullable<typeof x> => !!x))].sort() : null,
    worst_level: wantReport ? worstLevel(fired.map((i) => i.level)) : null,
    analysis,
    analysis_errors: analysisErrors.length > 0 ? analysisErrors.join('; ') : null,
  };
  return { report, features, row, source };
}
