import { distFile } from '../util/package-root.js';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { appendRow, ensureSpace, jsonColumns, lockWaits, openStore, sqlString, withStore, writerSession, type Store } from './db.js';
import { Progress, type ProgressMode } from './progress.js';
import { logToRow, withJson, type Cell, type RowResult } from './row.js';
import { ERROR_COLUMNS, FILE_COLUMNS, JOB_COLUMNS, SOURCE_COLUMNS } from './schema.js';
import { expandInputs, shardOf, type Candidate } from './walk.js';
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
  cand: Candidate;
  size: number;
  mtime: number;
}

/** Ingests logs into a store. Safe to kill at any point: each batch commits atomically with its `sources` rows. */
export async function ingest(opts: IngestOptions): Promise<IngestStats> {
  const t0 = Date.now();
  let cands = expandInputs(opts.inputs, { allFiles: opts.allFiles });
  if (opts.shard) {
    const { index, count } = opts.shard;
    cands = cands.filter((c) => shardOf(c.key, count) === index);
  }
  const release = writerSession(opts.db);
  try {
    return await run(opts.db, cands, opts, t0);
  } finally {
    release();
  }
}

async function loadKnown(store: Store): Promise<{ sources: Map<string, { size: number; mtime: number }>; hashes: Set<string> }> {
  const sources = new Map<string, { size: number; mtime: number }>();
  const r = await store.con.runAndReadAll('SELECT path, file_bytes, mtime_ms FROM sources');
  for (const [p, s, m] of r.getRows()) sources.set(String(p), { size: Number(s), mtime: Number(m) });
  const hashes = new Set<string>();
  const h = await store.con.runAndReadAll('SELECT hash FROM jobs');
  for (const [x] of h.getRows()) hashes.add(String(x));
  return { sources, hashes };
}

/**
 * The store is open only while it is read at the start and while each batch commits (one short transaction, then
 * closed): between batches readers — `iolens serve`, `query` — open it. The writer session keeps other ingests out.
 */
async function run(db: string, cands: Candidate[], opts: IngestOptions, t0: number): Promise<IngestStats> {
  const waits0 = lockWaits.maxMs;
  lockWaits.maxMs = 0;
  const staging = `${resolve(db)}.ingest-tmp`;
  rmSync(staging, { recursive: true, force: true });
  const { sources, hashes } = await withStore(db, {}, loadKnown);
  let todo: Pending[] = [];
  const stale: string[] = [];
  let skipped = 0;
  for (const cand of cands) {
    let size = 0;
    let mtime = 0;
    try {
      const st = statSync(cand.path);
      size = st.size;
      mtime = st.mtimeMs;
    } catch {
      // Vanished since the walk: let the reader report it.
    }
    const known = sources.get(cand.path);
    if (known && known.size === size && known.mtime === mtime) {
      skipped++;
      continue;
    }
    if (known) stale.push(cand.path);
    todo.push({ cand, size, mtime });
  }
  if (stale.length > 0) {
    // Changed since last seen: forget the old outcome (committed alone; a kill here just means it is retried).
    await withStore(db, {}, async (store) => {
      await store.con.run('BEGIN TRANSACTION');
      for (let i = 0; i < stale.length; i += 500) {
        const list = stale.slice(i, i + 500).map(sqlString).join(',');
        await store.con.run(`DELETE FROM sources WHERE path IN (${list})`);
        await store.con.run(`DELETE FROM ingest_errors WHERE path IN (${list})`);
      }
      await store.con.run('COMMIT');
    });
  }

  const stats: IngestStats = { candidates: cands.length, skipped, inserted: 0, duplicates: 0, errors: 0, bytes: 0, seconds: 0 };
  const progress = new Progress(todo.length, opts.progress === true ? 'bar' : opts.progress || 'off', process.stderr, opts.progressEverySeconds ?? 10);
  const batchRows = opts.batchRows ?? 2000;
  const info = new Map<string, Pending>();
  for (const p of todo) info.set(p.cand.path, p);

  let buffer: RowResult[] = [];
  let lastCommit = Date.now();
  let done = 0;
  const flush = async () => {
    if (buffer.length === 0) return;
    const batch = buffer;
    buffer = [];
    let held = 0;
    await withStore(db, {}, async (store) => {
      held = Date.now();
      await commitBatch(store, batch, info, hashes, stats, !!opts.files);
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

  // Paths the walk could not take (FIFOs, dangling links, unreadable directories …) are recorded with their reason.
  const unreadable = todo.filter((p) => p.cand.error !== undefined);
  if (unreadable.length > 0) {
    todo = todo.filter((p) => p.cand.error === undefined);
    await accept(unreadable.map((p): RowResult => ({ ok: false, path: p.cand.path, fileBytes: 0, error: p.cand.error! })));
  }
  const nWorkers = Math.min(opts.jobs ?? availableParallelism(), Math.max(1, Math.ceil(todo.length / 64)));
  try {
    if (nWorkers <= 0 || todo.length < 64) {
      for (const p of todo) {
        if (opts.signal?.aborted) break;
        await accept([withJson(logToRow(p.cand.path, { files: opts.files, report: opts.report !== false, ...(opts.maxInflate !== undefined ? { maxInflate: opts.maxInflate } : {}) }))]);
      }
    } else {
      await runWorkers(todo, nWorkers, opts, accept);
    }
    await flush();
  } finally {
    // The staging folder holds only batches in flight: never leave it (or its files) behind.
    rmSync(staging, { recursive: true, force: true });
    stats.lockWaitMs = lockWaits.maxMs;
    lockWaits.maxMs = Math.max(waits0, lockWaits.maxMs);
  }
  progress.update(done, stats.bytes, true);
  progress.finish();
  stats.seconds = (Date.now() - t0) / 1000;
  if (opts.signal?.aborted && done < todo.length + unreadable.length) stats.interrupted = true;
  return stats;
}

/**
 * Feeds paths to worker threads in batches (at most 32, smaller for small archives so progress moves smoothly), two
 * outstanding per worker; results arrive in any order.
 */
async function runWorkers(todo: Pending[], n: number, opts: IngestOptions, accept: (r: RowResult[]) => Promise<void>): Promise<void> {
  const chunk = Math.max(1, Math.min(32, Math.ceil(todo.length / (n * 64))));
  const tasks: IngestTask[] = [];
  for (let i = 0; i < todo.length; i += chunk) tasks.push({ paths: todo.slice(i, i + chunk).map((p) => p.cand.path) });
  const data: IngestWorkerData = { files: !!opts.files, report: opts.report !== false, ...(opts.maxInflate !== undefined ? { maxInflate: opts.maxInflate } : {}) };
  await runTasks<IngestTask, RowResult[]>({
    script: distFile('store/worker.js'),
    workerData: data,
    threads: n,
    tasks,
    inFlight: 2,
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
async function commitBatch(
  store: Store,
  batch: RowResult[],
  info: Map<string, Pending>,
  hashes: Set<string>,
  stats: IngestStats,
  withFiles: boolean,
): Promise<void> {
  const con = store.con;
  // Jobs another writer added since this ingest read the store (an upload to \`iolens serve --write\`, a merge): the
  // store is open for writing now, so what it holds cannot change until the commit.
  const seen = [...new Set(batch.flatMap((r) => (r.ok && !hashes.has(r.hash) ? [r.hash] : [])))];
  for (let i = 0; i < seen.length; i += 1000) {
    const part = seen.slice(i, i + 1000);
    const r = await con.runAndReadAll(`SELECT hash FROM jobs WHERE hash IN (${part.map(() => '?').join(',')})`, part);
    for (const [h] of r.getRows()) hashes.add(String(h));
  }
  const jobLines: string[] = [];
  const fileLines: string[] = [];
  const newHashes: string[] = [];
  let inserted = 0;
  let duplicates = 0;
  let errors = 0;
  const srcRows: Cell[][] = [];
  const errRows: Cell[][] = [];
  for (const r of batch) {
    const p = info.get(r.path);
    const size = p?.size ?? r.fileBytes;
    const mtime = p?.mtime ?? 0;
    if (r.ok) {
      const dup = hashes.has(r.hash) || newHashes.includes(r.hash);
      if (!dup) {
        newHashes.push(r.hash);
        jobLines.push(r.json!);
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
  // (room for the rows first: a disk that fills mid-commit aborts DuckDB; the rows' JSON bounds what they take)
  ensureSpace(store.path, 2 * [...jobLines, ...fileLines].reduce((n, l) => n + l.length, 0) + 256 * srcRows.length, 'the next batch of jobs');
  await con.run('BEGIN TRANSACTION');
  try {
    await insertJsonRows(store, 'jobs', jobLines);
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
    for (const h of newHashes) hashes.add(h);
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
  const dir = stagingDir(store);
  const file = join(dir, `${table}-${process.pid}-${batchSeq++}.ndjson`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, lines.join('\n') + '\n');
  try {
    await store.con.run(`INSERT INTO ${table} BY NAME SELECT * FROM read_json(${sqlString(file)}, format = 'newline_delimited', columns = ${table === 'jobs' ? JOBS_JSON : FILES_JSON}, maximum_object_size = 268435456)`);
  } finally {
    rmSync(file, { force: true });
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
