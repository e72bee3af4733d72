import { AIIO_FEATURES, GAUGE_FEATURES } from './features.js';
import { MEASURE_COLUMN, MODULE_TOTALS, TOTAL_MEASURES } from './modules.js';

/**
 * The job store's schema: every table and column, with its type and meaning. docs/store.md is written from this
 * list (and a test checks the two agree). Bump SCHEMA_VERSION and add a migration whenever a table changes.
 */
export const SCHEMA_VERSION = 1;

export type ColumnType = 'VARCHAR' | 'BIGINT' | 'UBIGINT' | 'INTEGER' | 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMP' | 'VARCHAR[]';

export interface ColumnSpec {
  readonly name: string;
  readonly type: ColumnType;
  readonly doc: string;
}

const c = (name: string, type: ColumnType, doc: string): ColumnSpec => ({ name, type, doc });

/** Modules whose `darshan-parser --perf` estimates get their own columns (all modules are in `perf_json`). */
export const PERF_MODULES = [
  { key: 'posix', module: 'POSIX' },
  { key: 'mpiio', module: 'MPI-IO' },
  { key: 'stdio', module: 'STDIO' },
] as const;

export const PERF_MEASURES = [
  { suffix: 'perf_mibs', field: 'aggPerfBySlowest', doc: 'agg_perf_by_slowest (MiB/s)' },
  { suffix: 'perf_time', field: 'aggTimeBySlowest', doc: 'agg_time_by_slowest (s)' },
  { suffix: 'perf_bytes', field: 'totalBytes', doc: 'total_bytes' },
  { suffix: 'slowest_rank_io_time', field: 'slowestRankIoTime', doc: 'unique files: slowest_rank_io_time (s)' },
  { suffix: 'slowest_rank_meta_time', field: 'slowestRankMetaOnlyTime', doc: 'unique files: slowest_rank_meta_only_time (s)' },
  { suffix: 'shared_time_by_slowest', field: 'sharedTimeBySlowest', doc: 'shared files: time_by_slowest (s)' },
] as const;

const MEASURE_DOC: Record<string, string> = {
  opens: 'opens', reads: 'read operations', writes: 'write operations', bytesRead: 'bytes read', bytesWritten: 'bytes written',
  readTime: 'cumulative read time over ranks (s)', writeTime: 'cumulative write time over ranks (s)', metaTime: 'cumulative metadata time over ranks (s)',
};

/** Columns of `jobs`, in table order. */
export const JOB_COLUMNS: readonly ColumnSpec[] = [
  c('hash', 'VARCHAR', 'SHA-256 of the log file bytes (hex); the primary key: one row per distinct log'),
  c('path', 'VARCHAR', 'path of the first file ingested with this content'),
  c('file_bytes', 'BIGINT', 'size of the log file'),
  c('ingested_at', 'TIMESTAMP', 'when the row was written (UTC)'),
  c('iolens_version', 'VARCHAR', 'IOLens version that computed the row'),
  c('job_id', 'BIGINT', "scheduler job id recorded by Darshan"),
  c('uid', 'BIGINT', 'user id'),
  c('exe', 'VARCHAR', 'command line (UTF-8; Darshan may truncate or anonymise it)'),
  c('app', 'VARCHAR', 'application name: base name of the first word of exe'),
  c('nprocs', 'BIGINT', 'number of MPI processes (1 for non-MPI)'),
  c('start_time', 'TIMESTAMP', 'job start (UTC)'),
  c('end_time', 'TIMESTAMP', 'job end (UTC)'),
  c('start_epoch', 'DOUBLE', 'job start, seconds since 1970 (with nanoseconds)'),
  c('end_epoch', 'DOUBLE', 'job end, seconds since 1970'),
  c('run_time', 'DOUBLE', "run time in seconds, as darshan-parser's `run time`"),
  c('log_version', 'VARCHAR', 'log format version, e.g. 3.41'),
  c('runtime_version', 'VARCHAR', 'Darshan runtime library version (metadata lib_ver), when recorded'),
  c('compression', 'VARCHAR', 'log compression (ZLIB, BZIP2, NONE)'),
  c('metadata', 'VARCHAR', 'job metadata key=value pairs as a JSON object'),
  c('modules', 'VARCHAR[]', 'modules with data in the log'),
  c('interfaces', 'VARCHAR[]', 'I/O interfaces used: POSIX, MPI-IO, STDIO, HDF5, PnetCDF, DFS, DAOS'),
  c('partial', 'BOOLEAN', 'true when any module ran out of memory (partial records)'),
  c('partial_modules', 'VARCHAR[]', 'modules flagged partial'),
  c('decode_errors', 'VARCHAR', 'modules that could not be decoded (module: message; …), NULL when all decoded'),
  c('fs_types', 'VARCHAR[]', 'file-system types of the mounts POSIX files live on'),
  c('total_bytes', 'DOUBLE', 'bytes moved at the lowest layer: POSIX + STDIO bytes read and written'),
  c('io_time', 'DOUBLE', 'cumulative POSIX + STDIO read, write and metadata time over ranks (s)'),
  ...MODULE_TOTALS.flatMap((m) => [
    c(`${m.key}_records`, 'BIGINT', `${m.module} records (file × rank)`),
    c(`${m.key}_files`, 'BIGINT', `${m.module} distinct record ids`),
    ...TOTAL_MEASURES.map((x) => c(`${m.key}_${MEASURE_COLUMN[x]}`, 'DOUBLE', `${m.module} ${MEASURE_DOC[x]}`)),
  ]),
  ...PERF_MODULES.flatMap((m) => PERF_MEASURES.map((p) => c(`${m.key}_${p.suffix}`, 'DOUBLE', `${m.module} ${p.doc}, as darshan-parser --perf; NULL until computed`))),
  c('perf_json', 'VARCHAR', 'every module\'s --perf estimates as JSON; NULL until computed'),
  c('insight_codes', 'VARCHAR[]', "codes of the default-mode report's insights; NULL until the report is computed"),
  c('insight_levels', 'VARCHAR[]', 'level of each insight, aligned with insight_codes'),
  c('problems', 'VARCHAR[]', 'distinct problem tags of the insights'),
  c('worst_level', 'VARCHAR', 'most severe insight level'),
  c('analysis', 'VARCHAR[]', 'what was computed for this row: base, perf, report'),
  c('analysis_errors', 'VARCHAR', 'perf or report analysis that failed on this log (one line each), NULL when none'),
  ...AIIO_FEATURES.map((f) => c(`aiio_${f.name}`, 'DOUBLE', f.raw ? `${f.source} (job total, raw)` : `log10(${f.source} + 1)`)),
  ...GAUGE_FEATURES.map((f) => c(`gauge_${f.name}`, 'DOUBLE', f.doc)),
];

/** Columns of `files` (one row per record per fixed-size module; written with `ingest --files`). */
export const FILE_COLUMNS: readonly ColumnSpec[] = [
  c('hash', 'VARCHAR', 'the job (jobs.hash)'),
  c('module', 'VARCHAR', 'Darshan module'),
  c('record_id', 'UBIGINT', 'Darshan record id (hash of the name)'),
  c('rank', 'BIGINT', 'rank, -1 for a record shared by all ranks'),
  c('name', 'VARCHAR', 'file name (UTF-8), NULL when the log lacks it'),
  c('mount', 'VARCHAR', 'mount point the file lives under'),
  c('fs_type', 'VARCHAR', 'file-system type of that mount'),
  ...TOTAL_MEASURES.map((x) => c(MEASURE_COLUMN[x], 'DOUBLE', MEASURE_DOC[x])),
];

export const ERROR_COLUMNS: readonly ColumnSpec[] = [
  c('path', 'VARCHAR', 'file that could not be ingested (primary key)'),
  c('error', 'VARCHAR', 'one-line reason'),
  c('file_bytes', 'BIGINT', 'size when tried'),
  c('mtime_ms', 'DOUBLE', 'modification time when tried'),
  c('at', 'TIMESTAMP', 'when'),
];

export const SOURCE_COLUMNS: readonly ColumnSpec[] = [
  c('path', 'VARCHAR', 'file seen by an ingest (primary key)'),
  c('file_bytes', 'BIGINT', 'size when seen'),
  c('mtime_ms', 'DOUBLE', 'modification time when seen'),
  c('hash', 'VARCHAR', 'content hash (jobs.hash), NULL when the file failed'),
  c('status', 'VARCHAR', 'ingested | duplicate | error'),
];

function ddl(table: string, cols: readonly ColumnSpec[], pk?: string): string {
  const body = cols.map((col) => `  "${col.name}" ${col.type}${col.name === pk ? ' PRIMARY KEY' : ''}`).join(',\n');
  return `CREATE TABLE IF NOT EXISTS ${table} (\n${body}\n)`;
}

/** Statements that create schema version SCHEMA_VERSION from nothing. */
export function createStatements(): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS iolens_meta (key VARCHAR PRIMARY KEY, value VARCHAR)`,
    ddl('jobs', JOB_COLUMNS, 'hash'),
    ddl('files', FILE_COLUMNS),
    ddl('ingest_errors', ERROR_COLUMNS, 'path'),
    ddl('sources', SOURCE_COLUMNS, 'path'),
    `CREATE TABLE IF NOT EXISTS sacct (job_id BIGINT, job_id_raw VARCHAR, nodes BIGINT, partition VARCHAR, "user" VARCHAR, account VARCHAR, state VARCHAR, elapsed_s DOUBLE, start_time TIMESTAMP, end_time TIMESTAMP, ncpus BIGINT, exit_code VARCHAR, raw VARCHAR)`,
    `CREATE TABLE IF NOT EXISTS fs_job_metrics (hash VARCHAR, metric VARCHAR, target VARCHAR, samples BIGINT, mean DOUBLE, p95 DOUBLE)`,
    `CREATE OR REPLACE VIEW insights AS SELECT hash, app, unnest(insight_codes) AS code, unnest(insight_levels) AS level FROM jobs WHERE insight_codes IS NOT NULL`,
  ];
}

/**
 * Migrations: MIGRATIONS[v] turns schema v into v + 1. Version 1 is the first released schema, so the list is
 * empty; the machinery (run in order, in one transaction, then the version stamped) is exercised by the tests.
 */
export const MIGRATIONS: readonly ((sql: (s: string) => Promise<void>) => Promise<void>)[] = [];
