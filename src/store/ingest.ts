import { distFile } from '../util/package-root.js';
import { fsPath } from '../util/byte-path.js';
import { closeSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { availableParallelism, tmpdir } from 'node:os';
import { appendRow, ensureSpace, jsonColumns, lockWaits, openStore, sqlString, withStore, writerSession, type Store } from './db.js';
import { Progress, type ProgressMode } from './progress.js';
import { logToRow, withJson, type Cell, type RowResult } from './row.js';
import { ERROR_COLUMNS, FILE_COLUMNS, JOB_COLUMNS, SOURCE_COLUMNS } from './schema.js';
import { shardOf, walkInputs } from './walk.js';
import type { IngestTask, IngestWorkerData } from './worker.js';
import { runTasks } from '../util/tasks.js';

export interface IngestOptions {
  db: string;
  inputs: readonly string[];
  /** Also fill the `files` table. */
  files?: boolean;
  allFiles?: boolean;
  shard?: { index: number; count: number };
  /** Worker threads (0 = decode on the main thread). Default: available cores. */
  jobs?: number;
  /** Rows per transaction. */
  batchRows?: number;
  /** `bar` (a terminal), `lines` (a batch job: a line every 10 s), `off` (default); `true` means `bar`. */
  progress?: boolean | ProgressMode;
  /** Seconds between two progress lines in `lines` mode (default 10). */
  progressEverySeconds?: number;
  /** Stops the ingest cleanly: no new log is started, the logs in progress are committed, temporary files removed. */
  signal?: AbortSignal;
  /** Run the checks and store the insight columns (default true). */
  report?: boolean;
  /** Decompression budget of one log (default 1 GiB). */
  maxInflate?: number;
  /** DuckDB's buffer pool in MiB, before the room for the key indexes (default INGEST_POOL_MIB). */
  poolMib?: number;
  /** Called after each committed batch (tests use it to observe commits). */
  onCommit?: (stats: IngestStats) => void;
  /** Called for each file that could not be read as a log, once its error row is committed. */
  onError?: (path: string, error: string) => void;
}

export interface IngestStats {
  /** Files found by the walk (after sharding). */
  candidates: number;
  /** Skipped because an earlier ingest already handled the same path with the same size and time. */
  skipped: number;
  /** New `jobs` rows. */
  inserted: number;
  /** Readable logs whose content was already in the store. */
  duplicates: number;
  /** Files that landed in `ingest_errors`. */
  errors: number;
  /** Bytes read by this run. */
  bytes: number;
  seconds: number;
  /** The run was stopped through `signal`: the logs not reached are left for the next ingest. */
  interrupted?: boolean;
  /** The longest this run waited for the store's file lock (ms): readers had it open when a batch was ready. */
  lockWaitMs?: number;
  /** The longest this run held the store open for writing (ms): one batch's commit, and DuckDB's checkpoint at close. */
  lockHeldMs?: number;
}

interface Pending {
  path: string;
  size: number;
  mtime: number;
  /** Why the walk could not take the path (it is recorded as an error, not read). */
  error?: string;
}

/**
 * DuckDB's memory during an ingest. Its default limit (80 % of the machine) lets the buffer pool keep every page the
 * ingest writes, about 4 KB per log. Capped, written pages are evicted: what stays is a fixed pool for the batch in
 * hand (DuckDB's JSON reader alone reserves 32 MiB a thread) and the key indexes of `jobs` and `sources`, which DuckDB holds in
 * memory whole (ART indexes are not evicted: about 115 bytes a key for a content hash, measured with DuckDB 1.5).
 */
export const INGEST_POOL_MIB = 256;
/** Index memory allowed per row of `sources` (each log has one, and at most one `jobs` key). */
export const INGEST_INDEX_BYTES_PER_LOG = 320;

/** The memory limit of an ingest into a store that will hold `logs` rows of `sources`, in bytes (whole MiB). */
export function ingestMemoryLimit(logs: number, poolMib = INGEST_POOL_MIB): number {
  return (poolMib + Math.ceil((INGEST_INDEX_BYTES_PER_LOG * logs) / 2 ** 20)) * 2 ** 20;
}

/**
 * Ingests logs into a store. Safe to kill at any point: each batch commits atomically with its `sources` rows.
 * Memory does not grow with the archive: the walk goes to a spill file, which the store's own tables filter
 * (files already seen) and the ingest then reads back a batch at a time; duplicates are found by the `jobs` key.
 */
export async function ingest(opts: IngestOptions): Promise<IngestStats> {
  const t0 = Date.now();
  const spillDir = mkdtempSync(join(tmpdir(), 'iolens-ingest-'));
  try {
    // The whole walk comes first (an argument that names nothing fails before the database is created or opened).
    const walk = spillWalk(opts, join(spillDir, 'walk.ndjson'));
    const release = writerSession(opts.db);
    try {
      return await run(opts.db, walk, join(spillDir, 'todo.ndjson'), opts, t0);
    } finally {
      release();
    }
  } finally {
    rmSync(spillDir, { recursive: true, force: true });
  }
}

/** The walk, with each candidate's size and time, written as NDJSON lines `{i, p, s, m, e}` (`m` as text: exact). */
function spillWalk(opts: IngestOptions, file: string): { file: string; candidates: number } {
  const fd = openSync(file, 'w');
  let candidates = 0;
  let chunk = '';
  try {
    for (const cand of walkInputs(opts.inputs, { allFiles: opts.allFiles })) {
      if (opts.shard && shardOf(cand.key, opts.shard.count) !== opts.shard.index) continue;
      let size = 0;
      let mtime = 0;
      try {
        const st = statSync(fsPath(cand.path));
        size = st.size;
        mtime = st.mtimeMs;
      } catch {
        // Vanished since the walk: let the reader report it.
      }
      chunk += JSON.stringify({ i: candidates++, p: cand.path, s: size, m: String(mtime), e: cand.error ?? null }) + '\n';
      if (chunk.length > 1 << 20) {
        writeSync(fd, chunk);
        chunk = '';
      }
    }
    if (chunk.length > 0) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  return { file, candidates };
}

/** The lines of an NDJSON file, parsed, read a megabyte at a time. */
function* readLines<T>(file: string): Generator<T> {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(1 << 20);
    let rest = '';
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      const text = rest + buf.toString('utf8', 0, n);
      const lines = text.split('\n');
      rest = lines.pop()!;
      for (const line of lines) if (line.length > 0) yield JSON.parse(line) as T;
    }
    if (rest.length > 0) yield JSON.parse(rest) as T;
  } finally {
    closeSync(fd);
  }
}

/** What is left to do after the walk was checked against the store. */
interface Plan {
  skipped: number;
  /** Candidates to read or record (the walk's errors first, in the to-do file). */
  total: number;
  /** Of them, paths the walk could not take. */
  unreadable: number;
  /** DuckDB's memory limit for the run (bytes). */
  limit: number;
}

/**
 * The walk against the files already seen, in the database: skipped (same size and time), changed (forgotten here,
 * then read again), the rest written to `todoFile` (the walk's errors first, then in walk order).
 */
async function plan(store: Store, walkFile: string, todoFile: string, poolMib: number | undefined): Promise<Plan> {
  const cands = `read_json(${sqlString(walkFile)}, format = 'newline_delimited', columns = {i: 'BIGINT', p: 'VARCHAR', s: 'BIGINT', m: 'VARCHAR', e: 'VARCHAR'})`;
  const same = 's.path = c.p AND s.file_bytes = c.s AND s.mtime_ms = CAST(c.m AS DOUBLE)';
  const con = store.con;
  const count = async (sql: string) => Number((await con.runAndReadAll(sql)).getRows()[0][0]);
  // Seen before (by path): unchanged (skipped) or changed (forgotten here, then read again).
  const [skipped, changed] = (await con.runAndReadAll(`SELECT count(*) FILTER (WHERE ${same}), count(*) FILTER (WHERE NOT (${same})) FROM ${cands} c JOIN sources s ON s.path = c.p`)).getRows()[0].map(Number);
  const staleSql = `SELECT c.p FROM ${cands} c JOIN sources s ON s.path = c.p WHERE NOT (${same})`;
  if (changed > 0) {
    // Changed since last seen: forget the old outcome (committed alone; a kill here just means it is retried).
    await con.run('BEGIN TRANSACTION');
    try {
      await con.run(`DELETE FROM ingest_errors WHERE path IN (${staleSql})`);
      await con.run(`DELETE FROM sources WHERE path IN (${staleSql})`);
      await con.run('COMMIT');
    } catch (err) {
      await con.run('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }
  await con.run(
    `COPY (SELECT c.p AS path, c.s AS size, c.m AS mtime, c.e AS error FROM ${cands} c WHERE NOT EXISTS (SELECT 1 FROM sources s WHERE ${same}) ORDER BY c.e IS NULL, c.i) TO ${sqlString(todoFile)} (FORMAT json)`,
  );
  const counts = (await con.runAndReadAll(`SELECT count(*), count(error) FROM read_json(${sqlString(todoFile)}, format = 'newline_delimited', columns = {path: 'VARCHAR', size: 'BIGINT', mtime: 'VARCHAR', error: 'VARCHAR'})`)).getRows()[0];
  const total = Number(counts[0]);
  // Room for the key indexes the run ends with (the pool itself stays as it is).
  const known = await count('SELECT count(*) FROM sources');
  return { skipped, total, unreadable: Number(counts[1]), limit: ingestMemoryLimit(known + total, poolMib) };
}

/**
 * The store is open only while the walk is checked against it at the start and while each batch commits (one short
 * transaction, then closed): between batches readers — `iolens serve`, `query` — open it. The writer session keeps
 * other ingests out.
 */
async function run(db: string, walk: { file: string; candidates: number }, todoFile: string, opts: IngestOptions, t0: number): Promise<IngestStats> {
  const waits0 = lockWaits.maxMs;
  lockWaits.maxMs = 0;
  const staging = `${resolve(db)}.ingest-tmp`;
  rmSync(staging, { recursive: true, force: true });
  const { skipped, total, unreadable, limit } = await withStore(db, { memoryLimit: (opts.poolMib ?? INGEST_POOL_MIB) * 2 ** 20 }, (store) => plan(store, walk.file, todoFile, opts.poolMib));
  const readable = total - unreadable;
  const todo = (function* (): Generator<Pending> {
    for (const t of readLines<{ path: string; size: number; mtime: string; error?: string | null }>(todoFile)) {
      yield { path: t.path, size: Number(t.size), mtime: Number(t.mtime), ...(t.error != null ? { error: t.error } : {}) };
    }
  })();

  const stats: IngestStats = { candidates: walk.candidates, skipped, inserted: 0, duplicates: 0, errors: 0, bytes: 0, seconds: 0 };
  const progress = new Progress(total, opts.progress === true ? 'bar' : opts.progress || 'off', process.stderr, opts.progressEverySeconds ?? 10);
  const batchRows = opts.batchRows ?? 2000;
  // Size and time of the logs handed out and not yet committed (bounded by the work in flight).
  const info = new Map<string, Pending>();

  let buffer: RowResult[] = [];
  let lastCommit = Date.now();
  let done = 0;
  const flush = async () => {
    if (buffer.length === 0) return;
    const batch = buffer;
    buffer = [];
    let held = 0;
    await withStore(db, { memoryLimit: limit }, async (store) => {
      held = Date.now();
      await commitBatch(store, batch, info, stats, !!opts.files);
    });
    stats.lockHeldMs = Math.max(stats.lockHeldMs ?? 0, Date.now() - held);
    if (opts.onError) for (const r of batch) if (!r.ok) opts.onError(r.path, r.error ?? 'unreadable');
    lastCommit = Date.now();
    opts.onCommit?.({ ...stats, seconds: (Date.now() - t0) / 1000 });
  };
  const accept = async (results: RowResult[]) => {
    for (const r of results) {
      buffer.push(r);
      done++;
      stats.bytes += r.fileBytes;
    }
    progress.update(done, stats.bytes);
    if (buffer.length >= batchRows || Date.now() - lastCommit > 2000) await flush();
  };

  try {
    // Paths the walk could not take (FIFOs, dangling links, unreadable directories …) are recorded with their reason.
    let errs: RowResult[] = [];
    for (let k = 0; k < unreadable; k++) {
      const p = todo.next().value as Pending;
      info.set(p.path, p);
      errs.push({ ok: false, path: p.path, fileBytes: 0, error: p.error! });
      if (errs.length >= batchRows || k === unreadable - 1) {
        await accept(errs);
        errs = [];
      }
    }
    const row = { files: opts.files, report: opts.report !== false, ...(opts.maxInflate !== undefined ? { maxInflate: opts.maxInflate } : {}) };
    const nWorkers = Math.min(opts.jobs ?? availableParallelism(), Math.max(1, Math.ceil(readable / 64)));
    if (nWorkers <= 0 || readable < 64) {
      for (const p of todo) {
        if (opts.signal?.aborted) break;
        info.set(p.path, p);
        await accept([withJson(logToRow(p.path, row))]);
      }
    } else {
      await runWorkers(todo, readable, info, nWorkers, opts, accept);
    }
    await flush();
  } finally {
    todo.return(undefined);
    // The staging folder holds only batches in flight: never leave it (or its files) behind.
    rmSync(staging, { recursive: true, force: true });
    stats.lockWaitMs = lockWaits.maxMs;
    lockWaits.maxMs = Math.max(waits0, lockWaits.maxMs);
  }
  progress.update(done, stats.bytes, true);
  progress.finish();
  stats.seconds = (Date.now() - t0) / 1000;
  if (opts.signal?.aborted && done < total) stats.interrupted = true;
  return stats;
}

/**
 * Feeds paths to worker threads in batches (at most 32, smaller for small archives so progress moves smoothly), two
 * outstanding per worker; results arrive in any order. The paths are read from the to-do file as workers are free,
 * and no more are handed out while 16 results a worker wait for the writer: the work in memory stays bounded.
 */
async function runWorkers(todo: Iterator<Pending>, count: number, info: Map<string, Pending>, n: number, opts: IngestOptions, accept: (r: RowResult[]) => Promise<void>): Promise<void> {
  const chunk = Math.max(1, Math.min(32, Math.ceil(count / (n * 64))));
  const tasks = (function* (): Generator<IngestTask> {
    for (;;) {
      const paths: string[] = [];
      while (paths.length < chunk) {
        const r = todo.next();
        if (r.done) break;
        info.set(r.value.path, r.value);
        paths.push(r.value.path);
      }
      if (paths.length === 0) return;
      yield { paths };
    }
  })();
  const data: IngestWorkerData = { files: !!opts.files, report: opts.report !== false, ...(opts.maxInflate !== undefined ? { maxInflate: opts.maxInflate } : {}) };
  await runTasks<IngestTask, RowResult[]>({
    script: distFile('store/worker.js'),
    workerData: data,
    threads: n,
    tasks,
    inFlight: 2,
    maxQueued: 16 * n,
    // Results are handled one batch at a time, so commits never interleave.
    onResult: (results) => accept(results),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
}

let batchSeq = 0;

/** Staging folder for the NDJSON batches handed to DuckDB (emptied at the start of each ingest). */
function stagingDir(store: Store): string {
  return `${store.path}.ingest-tmp`;
}

const JOBS_JSON = jsonColumns(JOB_COLUMNS);
const FILES_JSON = jsonColumns(FILE_COLUMNS);

/**
 * Writes one batch in one transaction: new jobs (and files) rows through DuckDB's JSON reader from a staging file
 * (the rows were serialised on the worker threads), sources and errors through appenders.
 */
async function commitBatch(store: Store, batch: RowResult[], info: Map<string, Pending>, stats: IngestStats, withFiles: boolean): Promise<void> {
  const con = store.con;
  // The first row of each content in the batch is offered to `jobs`; the table's key tells which were new (also
  // against jobs another writer added since this ingest began: an upload to `iolens serve --write`, a merge).
  const offered = new Set<string>();
  const jobLines: string[] = [];
  let bytes = 256 * batch.length;
  for (const r of batch) {
    if (!r.ok || offered.has(r.hash)) continue;
    offered.add(r.hash);
    jobLines.push(r.json!);
    bytes += 2 * (r.json!.length + (withFiles && r.filesJson ? r.filesJson.length : 0));
  }
  // (room for the rows first: a disk that fills mid-commit aborts DuckDB; the rows' JSON bounds what they take)
  ensureSpace(store.path, bytes, 'the next batch of jobs');
  await con.run('BEGIN TRANSACTION');
  try {
    const added = await insertNewJobs(store, jobLines);
    const fileLines: string[] = [];
    const srcRows: Cell[][] = [];
    const errRows: Cell[][] = [];
    let inserted = 0;
    let duplicates = 0;
    let errors = 0;
    for (const r of batch) {
      const p = info.get(r.path);
      const size = p?.size ?? r.fileBytes;
      const mtime = p?.mtime ?? 0;
      if (r.ok) {
        // New: the first of its content in the batch, and not in the store before.
        const dup = !added.delete(r.hash);
        if (!dup) {
          if (withFiles && r.filesJson) fileLines.push(r.filesJson);
          inserted++;
        } else duplicates++;
        srcRows.push([r.path, size, mtime, r.hash, dup ? 'duplicate' : 'ingested']);
      } else {
        errRows.push([r.path, r.error, size, mtime, Date.now() * 1000]);
        srcRows.push([r.path, size, mtime, null, 'error']);
        errors++;
      }
    }
    await insertJsonRows(store, 'files', fileLines);
    const srcs = await con.createAppender('sources');
    for (const row of srcRows) appendRow(srcs, SOURCE_COLUMNS, row);
    srcs.closeSync();
    if (errRows.length > 0) {
      const errs = await con.createAppender('ingest_errors');
      for (const row of errRows) appendRow(errs, ERROR_COLUMNS, row);
      errs.closeSync();
    }
    await con.run('COMMIT');
    for (const r of batch) info.delete(r.path);
    stats.inserted += inserted;
    stats.duplicates += duplicates;
    stats.errors += errors;
  } catch (err) {
    await con.run('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** The query that lists the files an ingest skipped (`iolens query` prints it; named in ingest's messages). */
export const INGEST_ERRORS_QUERY = 'SELECT path, error FROM ingest_errors';

/**
 * Inserts rows given as NDJSON lines (`withJson`: one object per line, typed by the table's columns) through
 * DuckDB's JSON reader, inside the caller's transaction: the one write path of `jobs` and `files` rows, used by
 * ingest and by the web service's uploads.
 */
export async function insertJsonRows(store: Store, table: 'jobs' | 'files', lines: readonly string[]): Promise<void> {
  if (lines.length === 0) return;
  await withStaged(store, table, lines, (from) => store.con.run(`INSERT INTO ${table} BY NAME SELECT * FROM ${from}`));
}

/**
 * `insertJsonRows` for `jobs` rows of distinct hashes, leaving out those whose hash the store already holds (its
 * key finds them: no list of the store's hashes is kept in memory). Returns the hashes inserted.
 */
async function insertNewJobs(store: Store, lines: readonly string[]): Promise<Set<string>> {
  const added = new Set<string>();
  if (lines.length === 0) return added;
  await withStaged(store, 'jobs', lines, async (from) => {
    const r = await store.con.runAndReadAll(`INSERT OR IGNORE INTO jobs BY NAME SELECT * FROM ${from} RETURNING hash`);
    for (const [h] of r.getRows()) added.add(String(h));
  });
  return added;
}

/** DuckDB's JSON reader holds two buffers of its largest object: the default object bound, 16 MiB, or more for a huge row. */
const JSON_OBJECT_MIN = 16 * 2 ** 20;

/**
 * Writes NDJSON lines to a staging file and runs `use` on DuckDB's reader of it; the file is removed after. The
 * reader's object bound follows the batch's longest line (a fixed 256 MiB bound would make it reserve 512 MiB
 * whatever the rows); a row too large for the store's memory limit raises the limit for that statement only.
 */
async function withStaged(store: Store, table: 'jobs' | 'files', lines: readonly string[], use: (from: string) => Promise<unknown>): Promise<void> {
  const dir = stagingDir(store);
  const file = join(dir, `${table}-${process.pid}-${batchSeq++}.ndjson`);
  mkdirSync(dir, { recursive: true });
  const text = lines.join('\n') + '\n';
  writeFileSync(file, text);
  let longest = 0;
  for (const l of lines) longest = Math.max(longest, l.length);
  // (UTF-16 length to UTF-8 bytes: at most three bytes a unit)
  let objectSize = JSON_OBJECT_MIN;
  while (objectSize < 3 * longest + 2) objectSize *= 2;
  const con = store.con;
  const limit = store.memoryLimit;
  const need = 4 * objectSize + 256 * 2 ** 20;
  let restore: string | undefined;
  try {
    if (limit !== null && need > limit) {
      restore = `${limit / 2 ** 20}MiB`;
      await con.run(`SET memory_limit = '${need / 2 ** 20}MiB'`);
    }
    await use(`read_json(${sqlString(file)}, format = 'newline_delimited', columns = ${table === 'jobs' ? JOBS_JSON : FILES_JSON}, maximum_object_size = ${objectSize})`);
  } finally {
    rmSync(file, { force: true });
    if (restore !== undefined) await con.run(`SET memory_limit = ${sqlString(restore)}`);
  }
}

/**
 * Rewrites the paths a store holds under the folder `from` to the same places under `to`, for a folder of logs moved
 * whole (the sample store is built in a staging folder, then renamed): the jobs' paths, and those of the files seen
 * and skipped. Returns how many jobs moved.
 */
export async function relocatePaths(path: string, from: string, to: string): Promise<number> {
  const store = await openStore(path);
  try {
    const prefix = `${from.replace(/\/+$/, '')}/`;
    const target = `${to.replace(/\/+$/, '')}/`;
    let moved = 0;
    await store.con.run('BEGIN TRANSACTION');
    try {
      for (const table of ['jobs', 'sources', 'ingest_errors']) {
        const r = await store.con.run(`UPDATE ${table} SET path = $target || substr(path, $skip) WHERE starts_with(path, $prefix)`, { target, skip: prefix.length + 1, prefix });
        if (table === 'jobs') moved = Number(r.rowsChanged);
      }
      await store.con.run('COMMIT');
    } catch (err) {
      await store.con.run('ROLLBACK').catch(() => undefined);
      throw err;
    }
    return moved;
  } finally {
    store.close();
  }
}
