import type { FeatureType } from '../contract/features.js';
import { FEATURE_SETS } from '../features/registry.js';
import { MEASURE_COLUMN, MEASURE_DOC, TOTAL_MEASURES } from '../facts/module-measures.js';
import { PERF_COLUMN_MODULES, PERF_COLUMNS } from '../pipeline/extract.js';

/**
 * The job store's schema: every table and column, with its type and meaning. docs/store.md is written from this
 * list (and a test checks the two agree). Bump SCHEMA_VERSION and add a migration whenever a table changes.
 */
export const SCHEMA_VERSION = 6;

export type ColumnType = 'VARCHAR' | 'BIGINT' | 'UBIGINT' | 'INTEGER' | 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMP' | 'VARCHAR[]';

export interface ColumnSpec {
  readonly name: string;
  readonly type: ColumnType;
  readonly doc: string;
}

const c = (name: string, type: ColumnType, doc: string): ColumnSpec => ({ name, type, doc });

const FEATURE_TYPE: Record<FeatureType, ColumnType> = { double: 'DOUBLE', bigint: 'BIGINT', varchar: 'VARCHAR', boolean: 'BOOLEAN' };

/**
 * Columns of `jobs`, in table order. A row is the pipeline's job row (`extract`, src/pipeline/extract.ts): the
 * identity columns are the report's `job` fields, the totals and ML columns come from the feature-set registry.
 */
export const JOB_COLUMNS: readonly ColumnSpec[] = [
  c('hash', 'VARCHAR', 'SHA-256 of the log file bytes (hex); the primary key: one row per distinct log'),
  c('path', 'VARCHAR', 'path of the first file ingested with this content'),
  c('file_bytes', 'BIGINT', 'size of the log file'),
  c('ingested_at', 'TIMESTAMP', 'when the row was written (UTC)'),
  c('iolens_version', 'VARCHAR', 'IOLens version that computed the row'),
  c('job_id', 'BIGINT', "scheduler job id recorded by Darshan"),
  c('uid', 'BIGINT', 'user id'),
  c('exe', 'VARCHAR', "executable: the command line's first word (the report's job.exe)"),
  c('command', 'VARCHAR', 'whole command line (UTF-8; Darshan may truncate or anonymise it)'),
  c('app', 'VARCHAR', 'application name: base name of exe'),
  c('nprocs', 'BIGINT', 'number of MPI processes (1 for non-MPI)'),
  c('start_time', 'TIMESTAMP', 'job start (UTC)'),
  c('end_time', 'TIMESTAMP', 'job end (UTC)'),
  c('start_epoch', 'DOUBLE', 'job start, seconds since 1970 (with nanoseconds)'),
  c('end_epoch', 'DOUBLE', 'job end, seconds since 1970'),
  c('run_time', 'DOUBLE', "run time in seconds, as darshan-parser's `run time`"),
  c('io_time', 'DOUBLE', "I/O time of the slowest rank in seconds: the wall time the job waited in I/O (the time model's, as the report's io.ioTime)"),
  c('io_time_cumulative', 'DOUBLE', 'I/O time summed over ranks in seconds (the report\'s io.cumulativeIoTime)'),
  c('io_share', 'DOUBLE', 'io_time / run_time, at most 1 (the report\'s io.ioShare); NULL when the run time is unknown'),
  c('io_mibs', 'DOUBLE', 'throughput (MiB/s): bytes moved at the lowest layers (POSIX + STDIO) per second of io_time; NULL without bytes or I/O time. The default learned target'),
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
  c('storage_targets', 'VARCHAR', "per Lustre OST the job's files live on, as a JSON array (the view `targets` has one row each): fs (mount), ost, files, bytes, seconds (data time summed over ranks), slowest_s (on the slowest rank), mibs, median_file_mibs, slow (named by D21), waited_s (the seconds the job waited for it); NULL without a LUSTRE module"),
  ...featureColumns('totals'),
  ...PERF_COLUMN_MODULES.flatMap((m) => PERF_COLUMNS.map((p) => c(`${m.key}_${p.suffix}`, 'DOUBLE', `${m.module} ${p.doc}, as darshan-parser --perf; NULL until computed`))),
  c('perf_json', 'VARCHAR', 'every module\'s --perf estimates as JSON; NULL until computed'),
  c('insight_codes', 'VARCHAR[]', "codes of the default-mode report's insights; NULL until the report is computed"),
  c('insight_levels', 'VARCHAR[]', 'level of each insight, aligned with insight_codes'),
  c('problems', 'VARCHAR[]', 'distinct problem tags of the HIGH and WARN insights (the problems present)'),
  c('worst_level', 'VARCHAR', 'most severe insight level'),
  c('analysis', 'VARCHAR[]', 'what was computed for this row: base, perf, report'),
  c('analysis_errors', 'VARCHAR', 'perf or report analysis that failed on this log (one line each), NULL when none'),
  ...FEATURE_SETS.filter((f) => f.id !== 'totals').flatMap((f) => featureColumns(f.id)),
];

/** The job-store columns of one feature set (its prefix + column names). */
function featureColumns(id: string): ColumnSpec[] {
  const set = FEATURE_SETS.find((f) => f.id === id);
  if (!set) throw new Error(`no feature set ${id}`);
  return set.columns.map((col) => c(`${set.columnPrefix}${col.name}`, FEATURE_TYPE[col.type], col.doc));
}

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

/**
 * Clustering runs (`iolens cluster`, Gauge): every run is kept under its own id and never replaces another. A run
 * clustered the rows of one table (`jobs`, or a table loaded with import-features) keyed by one column.
 */
export const CLUSTER_RUN_COLUMNS: readonly ColumnSpec[] = [
  c('run_id', 'VARCHAR', 'the run (primary key): `run-N`, numbered in creation order'),
  c('created_at', 'TIMESTAMP', 'when the run was made (UTC)'),
  c('iolens_version', 'VARCHAR', 'IOLens version that made it'),
  c('source_table', 'VARCHAR', 'table whose rows were clustered (jobs, or an imported feature table)'),
  c('key_column', 'VARCHAR', 'column naming each row (hash on jobs)'),
  c('features', 'VARCHAR', 'the feature columns, as a JSON array, in the order used'),
  c('params', 'VARCHAR', 'the parameters as JSON: min_cluster_size, min_samples, selection, epsilon, preparation (log, scaling, PCA), target'),
  c('rows', 'BIGINT', 'rows clustered'),
  c('clusters', 'BIGINT', 'clusters selected (the flat clustering)'),
  c('noise', 'BIGINT', 'rows left as noise (cluster −1)'),
  c('note', 'VARCHAR', 'free text given with --note, or NULL'),
];

/** Every node of a run's condensed tree (selected or not): the hierarchy to browse. */
export const CLUSTER_COLUMNS: readonly ColumnSpec[] = [
  c('run_id', 'VARCHAR', 'the run (cluster_runs.run_id)'),
  c('id', 'INTEGER', 'node id in the condensed tree (0 = root)'),
  c('parent', 'INTEGER', 'parent node id, NULL for the root'),
  c('depth', 'INTEGER', 'distance from the root'),
  c('size', 'BIGINT', 'rows in the node (descendants included)'),
  c('lambda_birth', 'DOUBLE', 'λ (1 / distance) at which the node appears'),
  c('lambda_death', 'DOUBLE', 'λ at which it splits or vanishes; NULL for infinity (identical rows)'),
  c('stability', 'DOUBLE', 'excess-of-mass stability; NULL for infinity'),
  c('selected', 'BOOLEAN', 'whether the node is a cluster of the flat clustering'),
  c('label', 'INTEGER', 'the flat cluster label of a selected node (cluster_members.cluster), else NULL'),
  c('target_median', 'DOUBLE', "median of the run's target (e.g. throughput) over the node's rows, NULL without a target"),
  c('summary', 'VARCHAR', "per-feature median, quartiles and IQR over the node's rows, as JSON"),
  c('model', 'VARCHAR', "the node's local throughput model, as JSON (cross-validated error factor next to the global model's), NULL when the node is too small"),
  c('explanation', 'VARCHAR', 'mean |SHAP| and sign per feature, and the one-split rule that separates the node from its sibling (in words), as JSON; NULL when not computed'),
];

/** Which cluster each row of a run belongs to. */
export const CLUSTER_MEMBER_COLUMNS: readonly ColumnSpec[] = [
  c('run_id', 'VARCHAR', 'the run'),
  c('key', 'VARCHAR', "the row's key (value of cluster_runs.key_column, as text)"),
  c('cluster', 'INTEGER', 'flat cluster label, −1 for noise'),
  c('node', 'INTEGER', 'the condensed-tree node the row leaves from (its deepest node)'),
  c('probability', 'DOUBLE', 'membership strength in its cluster (0–1)'),
  c('outlier_score', 'DOUBLE', 'GLOSH outlier score (0–1)'),
];

/** The check catalogue (refreshed by every writer): what each stored insight code is about. */
export const CHECK_COLUMNS: readonly ColumnSpec[] = [
  c('code', 'VARCHAR', 'check code (primary key)'),
  c('problem', 'VARCHAR', 'the problem tag of its findings, NULL for untagged observations'),
  c('title', 'VARCHAR', 'what the check reports'),
  c('default_level', 'VARCHAR', 'its default level'),
];

/** One row per stored insight, with the problem its check names. */
const INSIGHTS_VIEW = `CREATE OR REPLACE VIEW insights AS SELECT i.hash, i.app, i.code, i.level, c.problem FROM (SELECT hash, app, unnest(insight_codes) AS code, unnest(insight_levels) AS level FROM jobs WHERE insight_codes IS NOT NULL) i LEFT JOIN checks c USING (code)`;

/** One row per job and Lustre OST (`jobs.storage_targets` unnested): targets over time across jobs (`summary`'s targets). */
export const TARGETS_VIEW = `CREATE OR REPLACE VIEW targets AS SELECT hash, app, job_id, start_time, end_time, unnest(from_json(storage_targets, '[{"fs":"VARCHAR","ost":"BIGINT","files":"BIGINT","bytes":"DOUBLE","seconds":"DOUBLE","slowest_s":"DOUBLE","mibs":"DOUBLE","median_file_mibs":"DOUBLE","slow":"BOOLEAN","waited_s":"DOUBLE"}]'), recursive := true) FROM jobs WHERE storage_targets IS NOT NULL`;

/**
 * Report documents kept with their job (`iolens serve` stores the report of every upload it is asked to keep): the
 * web pages read a job's plots and findings from here. Jobs ingested without a report have no row.
 */
export const REPORT_COLUMNS: readonly ColumnSpec[] = [
  c('hash', 'VARCHAR', 'the job (jobs.hash); the primary key'),
  c('created_at', 'TIMESTAMP', 'when the report was stored (UTC)'),
  c('iolens_version', 'VARCHAR', 'IOLens version that computed it'),
  c('report', 'VARCHAR', 'the report JSON with its charts section, as `iolens report --json --charts` printed it (in the report schema of the IOLens that stored it: every read upgrades it)'),
];

function ddl(table: string, cols: readonly ColumnSpec[], pk?: string): string {
  const body = cols.map((col) => `  "${col.name}" ${col.type}${col.name === pk ? ' PRIMARY KEY' : ''}`).join(',\n');
  return `CREATE TABLE IF NOT EXISTS ${table} (\n${body}\n)`;
}

/** The tables of schema SCHEMA_VERSION that IOLens writes with their columns (what a store must hold to be opened as one). */
export const STORE_TABLES: Readonly<Record<string, readonly ColumnSpec[]>> = {
  jobs: JOB_COLUMNS,
  files: FILE_COLUMNS,
  ingest_errors: ERROR_COLUMNS,
  sources: SOURCE_COLUMNS,
  cluster_runs: CLUSTER_RUN_COLUMNS,
  clusters: CLUSTER_COLUMNS,
  cluster_members: CLUSTER_MEMBER_COLUMNS,
  checks: CHECK_COLUMNS,
  reports: REPORT_COLUMNS,
};

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
    ddl('cluster_runs', CLUSTER_RUN_COLUMNS, 'run_id'),
    ddl('clusters', CLUSTER_COLUMNS),
    ddl('cluster_members', CLUSTER_MEMBER_COLUMNS),
    ddl('checks', CHECK_COLUMNS, 'code'),
    ddl('reports', REPORT_COLUMNS, 'hash'),
    INSIGHTS_VIEW,
    TARGETS_VIEW,
  ];
}

/**
 * Migrations: MIGRATIONS[v - 1] turns schema v into v + 1; they run in order, each in its own transaction that
 * stamps the version it reaches.
 *
 * - 5 → 6: `jobs.storage_targets` (per-OST bytes, time and bandwidth of each job, issue 52) and the view `targets`
 *   over it. Rows written before get NULL (their logs must be ingested again to fill it).
 * - 4 → 5: the time model's columns. `io_time` becomes the slowest rank's I/O time at the layer the application
 *   called (it was the POSIX + STDIO time summed over ranks, which the per-module columns still hold); the new
 *   `io_time_cumulative`, `io_share` and `io_mibs` join it. Rows written before get NULL in all four (their logs
 *   must be ingested into a new store to fill them); nothing else changes.
 * - 3 → 4: the table `reports` (report documents of jobs, written by `iolens serve --write`; empty).
 * - 2 → 3: the clustering tables `cluster_runs`, `clusters`, `cluster_members` (empty); the check catalogue
 *   `checks`, and the `insights` view names each insight's problem.
 * - 1 → 2: `jobs.exe` becomes the executable (the command line's first word, as the report's `job.exe`) and the
 *   whole command line moves to the new column `command`. Rows written before keep their `problems` as computed
 *   then (all insights' tags; from 2 on, HIGH and WARN only).
 */
export const MIGRATIONS: readonly ((sql: (s: string) => Promise<void>) => Promise<void>)[] = [
  async (sql) => {
    await sql('ALTER TABLE jobs ADD COLUMN command VARCHAR');
    await sql(`UPDATE jobs SET command = exe, exe = coalesce(regexp_split_to_array(trim(exe), '\\s+')[1], '')`);
  },
  async (sql) => {
    await sql(ddl('cluster_runs', CLUSTER_RUN_COLUMNS, 'run_id'));
    await sql(ddl('clusters', CLUSTER_COLUMNS));
    await sql(ddl('cluster_members', CLUSTER_MEMBER_COLUMNS));
    await sql(ddl('checks', CHECK_COLUMNS, 'code'));
    await sql(INSIGHTS_VIEW);
  },
  async (sql) => {
    await sql(ddl('reports', REPORT_COLUMNS, 'hash'));
  },
  async (sql) => {
    for (const col of ['io_time_cumulative', 'io_share', 'io_mibs']) await sql(`ALTER TABLE jobs ADD COLUMN IF NOT EXISTS ${col} DOUBLE`);
    await sql('UPDATE jobs SET io_time = NULL WHERE io_time_cumulative IS NULL');
  },
  async (sql) => {
    await sql('ALTER TABLE jobs ADD COLUMN IF NOT EXISTS storage_targets VARCHAR');
    await sql(TARGETS_VIEW);
  },
];
