import {
  DuckDBConnection,
  DuckDBInstance,
  DuckDBTimestampValue,
  LIST,
  VARCHAR,
  type DuckDBAppender,
} from '@duckdb/node-api';
import { existsSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { BusyError, InputError, NoSpaceError, UsageError } from '../contract/errors.js';
import { sizeText } from '../util/limits.js';
import type { Cell } from './row.js';
import { CHECK_COLUMNS, MIGRATIONS, SCHEMA_VERSION, STORE_TABLES, createStatements, type ColumnSpec } from './schema.js';
import { checkCatalog } from '../pipeline/catalog.js';

/** The default database file of the store commands. */
export const DEFAULT_DB = 'iolens.duckdb';

/** An open job store. */
export interface Store {
  readonly path: string;
  readonly instance: DuckDBInstance;
  readonly con: DuckDBConnection;
  /** DuckDB's memory limit this store was opened with (bytes), or null for DuckDB's default. */
  readonly memoryLimit: number | null;
  close(): void;
}

/** A store's connection: from an open Store, or a connection given as it is (the library's older signatures). */
export function connectionOf(source: Store | DuckDBConnection): DuckDBConnection {
  return source instanceof DuckDBConnection ? source : source.con;
}

/** Turns DuckDB's open errors into one line the user can act on. */
export function openError(path: string, err: unknown): Error {
  const msg = err instanceof Error ? err.message : String(err);
  const lock = /Conflicting lock is held in (.*?) \(PID (\d+)\)/.exec(msg);
  if (lock) {
    return new BusyError(
      `database ${path} is in use by another process (PID ${lock[2]}); DuckDB allows one writer at a time — wait for it to finish, or give each task its own --db and combine them with iolens merge`,
    );
  }
  if (/Could not set lock/.test(msg)) return new BusyError(`database ${path} is locked by another process; wait for it to finish or use another --db`);
  if (/not a valid DuckDB database file|Unable to open database|The file is not a valid/.test(msg)) {
    return new InputError(`${path} is not a DuckDB database (or was written by an incompatible DuckDB version)`);
  }
  if (/No such file or directory|Cannot open file/.test(msg)) return new InputError(`cannot open database ${path}: ${msg.split('\n')[0]}`);
  return new InputError(`cannot open database ${path}: ${msg.split('\n')[0]}`);
}

/**
 * A read-only store's DuckDB settings. Read-only opens run user SQL (`query`, `--where`, the web service's
 * queries): besides refusing writes to the database, DuckDB is kept from everything outside it — no file read or
 * written by SQL (`COPY … TO`, `read_blob`, `read_csv`, `EXPORT DATABASE`, `ATTACH`), no extension installed or
 * loaded (no network) — and its configuration is locked so SQL cannot turn that back on. `external`: for `export`,
 * which writes Parquet files itself (its SQL is IOLens's own).
 */
function readOnlyConfig(external: boolean): Record<string, string> {
  return external ? { access_mode: 'READ_ONLY' } : { access_mode: 'READ_ONLY', enable_external_access: 'false', autoinstall_known_extensions: 'false', autoload_known_extensions: 'false', lock_configuration: 'true' };
}

/** Refuses SQL that is not exactly one statement (a `--where` that smuggles in a second one). */
export async function oneStatement(con: DuckDBConnection, sql: string, what: string): Promise<void> {
  let n: number;
  try {
    n = (await con.extractStatements(sql)).count;
  } catch (err) {
    throw new InputError(`${what}: ${(err as Error).message.split('\n')[0]}`);
  }
  if (n !== 1) throw new InputError(`${what}: one expression, not several statements`);
}

/** Free space a store keeps on its device beyond what a write needs (DuckDB's WAL, checkpoint and temporary files). */
export const MIN_FREE_BYTES = 64 * 2 ** 20;

/** The spare space kept: MIN_FREE_BYTES, or IOLENS_MIN_FREE_BYTES (tests make every write refused with it). */
function spare(): number {
  const v = Number(process.env.IOLENS_MIN_FREE_BYTES);
  return Number.isFinite(v) && v >= 0 ? v : MIN_FREE_BYTES;
}

/**
 * Refuses a write that the store's device has no room for, before DuckDB starts it: DuckDB aborts the whole process
 * (SIGABRT, a C++ stack trace) when a disk fills in the middle of a commit. `need`: the bytes about to be written (an
 * estimate; the rows' JSON is a fair upper bound). One error line naming the folder and what is free. `store` false:
 * a file of another kind (an upload's body), which needs its own bytes and no spare.
 */
export function ensureSpace(path: string, need: number, what: string, store = true): void {
  let free: number;
  try {
    const st = statfsSync(dirname(resolve(path)));
    free = Number(st.bavail) * Number(st.bsize);
  } catch {
    return; // (a file system that cannot say: nothing to check against)
  }
  const keep = store ? spare() : 0;
  if (free < need + keep) {
    throw new NoSpaceError(
      store
        ? `no room to write ${what}: ${dirname(resolve(path))} has ${sizeText(free)} free, and writing to the store needs ${sizeText(need + keep)} (it keeps ${sizeText(keep)} spare: DuckDB aborts when a disk fills mid-write)`
        : `no room to write ${what}: ${dirname(resolve(path))} has ${sizeText(free)} free, and it needs ${sizeText(need)}`,
    );
  }
}

/** How long a store open waits for DuckDB's file lock by default (ms): `IOLENS_STORE_WAIT` seconds, else 30 s. */
export function storeWaitMs(): number {
  const v = Number(process.env.IOLENS_STORE_WAIT);
  return process.env.IOLENS_STORE_WAIT !== undefined && Number.isFinite(v) && v >= 0 ? v * 1000 : 30_000;
}

/** The longest this process waited for a store's file lock, and how many opens had to wait (ms). */
export const lockWaits = { maxMs: 0, waited: 0, opens: 0 };

/** Stores this process already brought to SCHEMA_VERSION with a fresh check catalogue: later writable opens of a store at that version skip it. */
const prepared = new Set<string>();

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The file a writer creates while it waits for the store's lock: readers stop taking new opens meanwhile. */
function wantedFile(full: string): string {
  return `${full}.writer-waiting`;
}

/** Whether a process lives (for the lock files left by a killed process). */
function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The PID a lock file names, when that process lives (and is not this one); else null. */
function holder(file: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(file, 'utf8').trim());
  } catch {
    return null;
  }
  return pid !== process.pid && alive(pid) ? pid : null;
}

/** Creates a lock file naming this process; false when another live process holds it (a dead one's is taken over). */
function takeFile(file: string): boolean {
  for (let i = 0; i < 2; i++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return false;
      if (holder(file) !== null) return false;
      rmSync(file, { force: true });
    }
  }
  return false;
}

/** Removes a lock file if this process made it. */
function dropFile(file: string): void {
  try {
    if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
  } catch {
    // (gone already)
  }
}

/** Whether another live process is waiting to write the store (readers then hold back: the writer gets its turn). */
export function writerWaiting(path: string): boolean {
  const f = wantedFile(resolve(path));
  return existsSync(f) && holder(f) !== null;
}

/** Readers hold back this long at most for a waiting writer, then open anyway (a writer may wait on someone else). */
const YIELD_MS = 2_000;

/** How a store is opened. */
export interface StoreOpenOptions {
  readonly readOnly?: boolean;
  readonly create?: boolean;
  readonly external?: boolean;
  /** How long to wait for another process's lock (ms; default `storeWaitMs()`). */
  readonly waitMs?: number;
  /**
   * DuckDB's memory limit in bytes (whole MiB). Its default, 80 % of the machine, lets every page a long writer
   * touches stay cached; an ingest caps it.
   */
  readonly memoryLimit?: number;
}

/**
 * Opens (creating if needed) a store and brings its schema to SCHEMA_VERSION. `readOnly` opens an existing
 * database for queries; it fails clearly when the file is missing.
 *
 * DuckDB lets one process hold a file read-write, or any number read-only, never both. An open that finds the file
 * locked by another process retries with a growing pause (5 ms … 250 ms) for at most `waitMs` (default
 * `storeWaitMs()`), then fails with one line. A writer marks that it waits (`FILE.writer-waiting`) so that readers
 * that open and close the store per request (the web service) hold back and let it in; readers honour the mark for
 * at most 2 s.
 */
export async function openStore(path: string, opts: StoreOpenOptions = {}): Promise<Store> {
  const full = resolve(path);
  if (opts.readOnly && !existsSync(full)) throw new InputError(`no database at ${path} (run iolens ingest first, or pass --db)`);
  let instance: DuckDBInstance | undefined;
  if (!opts.readOnly) ensureSpace(full, 0, path);
  const t0 = Date.now();
  const deadline = t0 + (opts.waitMs ?? storeWaitMs());
  const wanted = !opts.readOnly && takeFile(wantedFile(full));
  // (the wait: until the attempt that opened began — DuckDB's own open time is not waiting)
  let tried = t0;
  try {
    let pause = 5;
    for (;;) {
      if (opts.readOnly) {
        const until = Math.min(deadline, Date.now() + YIELD_MS);
        while (Date.now() < until && writerWaiting(full)) await sleep(10);
      }
      try {
        tried = Date.now();
        instance = await DuckDBInstance.create(full, { ...(opts.readOnly ? readOnlyConfig(!!opts.external) : {}), ...(opts.memoryLimit ? { memory_limit: `${Math.ceil(opts.memoryLimit / 2 ** 20)}MiB` } : {}) });
        break;
      } catch (err) {
        const e = openError(path, err);
        const left = deadline - Date.now();
        if (!(e instanceof BusyError) || left <= 0) {
          if (e instanceof BusyError && Date.now() - t0 >= 1000) e.message += ` (waited ${((Date.now() - t0) / 1000).toFixed(1)} s; IOLENS_STORE_WAIT sets how long)`;
          throw e;
        }
        await sleep(Math.min(left, pause * (0.5 + Math.random())));
        pause = Math.min(250, pause * 2);
      }
    }
  } finally {
    if (wanted) dropFile(wantedFile(full));
  }
  const waited = tried - t0;
  lockWaits.opens++;
  if (waited > 0) lockWaits.waited++;
  lockWaits.maxMs = Math.max(lockWaits.maxMs, waited);
  const inst = instance;
  const con = await inst.connect();
  const store: Store = {
    path: full,
    instance: inst,
    con,
    memoryLimit: opts.memoryLimit ?? null,
    close() {
      con.closeSync();
      inst.closeSync();
    },
  };
  try {
    if (opts.readOnly) await checkVersion(store);
    else if (prepared.has(full) && (await schemaVersion(con)) === SCHEMA_VERSION) {
      // (ingest opens the store for each batch: the schema and catalogue were made by this process's first open)
    } else {
      await ensureSchema(store);
      await refreshCatalog(store);
      prepared.add(full);
    }
  } catch (err) {
    store.close();
    throw err;
  }
  return store;
}

/** Runs `fn` on the store opened for as long as it runs (`openStore`'s options), then closes it. */
export async function withStore<T>(path: string, opts: StoreOpenOptions, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(path, opts);
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

/**
 * Makes this process the store's one long writer (an ingest, which opens the store only to commit each batch): a
 * second one is refused at once while this one lives. The file `FILE.writer` names the holder; a killed holder's file
 * is taken over. Returns the release.
 */
export function writerSession(path: string): () => void {
  const full = resolve(path);
  const file = `${full}.writer`;
  if (!takeFile(file)) {
    const pid = holder(file);
    // (a folder where the file cannot be made: no session to keep, DuckDB's own lock still holds)
    if (pid === null) return () => undefined;
    throw new BusyError(`database ${path} is in use by another process (PID ${pid}); DuckDB allows one writer at a time — wait for it to finish, or give each task its own --db and combine them with iolens merge`);
  }
  return () => dropFile(file);
}

/** The schema version stamped in a database (0 when it has no IOLens tables); a foreign `iolens_meta` is refused. */
export async function schemaVersion(con: DuckDBConnection, catalog?: string, name = 'the database'): Promise<number> {
  const prefix = catalog ? `"${catalog}".` : '';
  const cols = await con.runAndReadAll(
    `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'iolens_meta' AND table_catalog = ${catalog ? '?' : 'current_database()'} ORDER BY ordinal_position`,
    catalog ? [catalog] : [],
  );
  const shape = cols.getRows().map((r) => `${String(r[0])} ${String(r[1])}`);
  if (shape.length === 0) return 0;
  if (shape.join(', ') !== 'key VARCHAR, value VARCHAR') throw new InputError(`${name} is not an IOLens job store (its iolens_meta table is not IOLens's)`);
  const r = await con.runAndReadAll(`SELECT value FROM ${prefix}iolens_meta WHERE key = 'schema_version'`);
  const rows = r.getRows();
  if (rows.length === 0) return 0;
  const v = Number(rows[0][0]);
  if (!Number.isSafeInteger(v) || v < 1) throw new InputError(`${name} is not an IOLens job store (its schema version is not a number)`);
  return v;
}

/** Every table of today's schema holds the columns IOLens writes and reads: a store whose tables another program reshaped is refused. */
export async function checkTables(con: DuckDBConnection, name: string, catalog?: string): Promise<void> {
  const r = await con.runAndReadAll(
    `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'main' AND table_catalog = ${catalog ? '?' : 'current_database()'}`,
    catalog ? [catalog] : [],
  );
  const have = new Map<string, Set<string>>();
  for (const [t, c] of r.getRows()) {
    const k = String(t);
    if (!have.has(k)) have.set(k, new Set());
    have.get(k)!.add(String(c));
  }
  for (const [table, cols] of Object.entries(STORE_TABLES)) {
    const got = have.get(table);
    const missing = got ? cols.filter((c) => !got.has(c.name)) : cols;
    if (missing.length) throw new InputError(`${name} is not an IOLens job store of schema ${SCHEMA_VERSION} (its table ${table} ${got ? `lacks ${missing.slice(0, 3).map((c) => c.name).join(', ')}` : 'is missing'})`);
  }
}

async function checkVersion(store: Store): Promise<void> {
  const v = await schemaVersion(store.con, undefined, store.path);
  if (v === SCHEMA_VERSION) await checkTables(store.con, store.path);
  if (v === 0) throw new InputError(`${store.path} is not an IOLens job store (no iolens_meta table)`);
  if (v > SCHEMA_VERSION) throw new UsageError(`${store.path} has store schema ${v}, newer than this IOLens understands (${SCHEMA_VERSION}); upgrade IOLens`);
  if (v < SCHEMA_VERSION) throw new UsageError(`${store.path} has store schema ${v}; run any iolens ingest on it (or iolens merge) to migrate it to ${SCHEMA_VERSION}`);
}

/** Writes this IOLens's check catalogue into `checks` (what the `insights` view joins to name problems). */
async function refreshCatalog(store: Store): Promise<void> {
  const rows = checkCatalog();
  await store.con.run('BEGIN TRANSACTION');
  try {
    await store.con.run('DELETE FROM checks');
    const app = await store.con.createAppender('checks');
    for (const r of rows) appendRow(app, CHECK_COLUMNS, [r.code, r.problem, r.title, r.defaultLevel]);
    app.closeSync();
    await store.con.run('COMMIT');
  } catch (err) {
    await store.con.run('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/**
 * Creates the tables of a new store, or migrates an older one: each migration in order, each in its own transaction
 * with the version it reaches stamped. A database from a newer IOLens is refused.
 */
export async function ensureSchema(
  store: Store,
  migrations: readonly ((sql: (s: string) => Promise<void>) => Promise<void>)[] = MIGRATIONS,
  target = SCHEMA_VERSION,
): Promise<{ from: number; to: number }> {
  const con = store.con;
  const from = await schemaVersion(con, undefined, store.path);
  if (from > target) throw new UsageError(`${store.path} has store schema ${from}, newer than this IOLens understands (${target}); upgrade IOLens`);
  if (from === target) {
    if (target === SCHEMA_VERSION) await checkTables(con, store.path);
    return { from, to: target };
  }
  // The store's signature is its iolens_meta stamp: a database without one is created here only when it is empty,
  // never mixed into another application's tables.
  if (from === 0) {
    const own = (await con.runAndReadAll("SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY table_name LIMIT 4")).getRows().map((r) => String(r[0]));
    if (own.length) throw new InputError(`${store.path} is a database IOLens did not create (it holds ${own.slice(0, 3).join(', ')}${own.length > 3 ? ', …' : ''}): not writing to it; give a new file or an IOLens store`);
  }
  const sql = async (s: string) => {
    await con.run(s);
  };
  // One transaction per step, each stamping the version it reaches: DuckDB refuses to commit an ALTER TABLE of a
  // table a statement before it in the same transaction updated (migration 4 → 5 updates jobs, 5 → 6 alters it), and
  // every stamped version is a consistent store.
  const step = async (body: () => Promise<void>, version: number) => {
    await con.run('BEGIN TRANSACTION');
    try {
      await body();
      await con.run(`INSERT OR REPLACE INTO iolens_meta VALUES ('schema_version', '${version}')`);
      await con.run('COMMIT');
    } catch (err) {
      await con.run('ROLLBACK').catch(() => undefined);
      throw err;
    }
  };
  if (from === 0) {
    await step(async () => {
      for (const s of createStatements()) await con.run(s);
    }, target);
  } else {
    for (let v = from; v < target; v++) {
      const m = migrations[v - 1];
      if (!m) throw new UsageError(`no migration from store schema ${v} to ${v + 1}`);
      await step(() => m(sql), v + 1);
    }
  }
  return { from, to: target };
}

const STRING_LIST = LIST(VARCHAR);

/** Appends one row to an appender, converting cells by declared column type. */
export function appendRow(ap: DuckDBAppender, cols: readonly ColumnSpec[], row: readonly Cell[]): void {
  for (let i = 0; i < cols.length; i++) {
    const v = row[i];
    if (v === null || v === undefined || (typeof v === 'number' && !Number.isFinite(v))) {
      ap.appendNull();
      continue;
    }
    switch (cols[i].type) {
      case 'VARCHAR':
        ap.appendVarchar(String(v));
        break;
      case 'BIGINT':
        ap.appendBigInt(typeof v === 'bigint' ? v : BigInt(Math.trunc(Number(v))));
        break;
      case 'UBIGINT':
        ap.appendUBigInt(typeof v === 'bigint' ? v : BigInt(Math.trunc(Number(v))));
        break;
      case 'INTEGER':
        ap.appendInteger(Number(v));
        break;
      case 'DOUBLE':
        ap.appendDouble(Number(v));
        break;
      case 'BOOLEAN':
        ap.appendBoolean(Boolean(v));
        break;
      case 'TIMESTAMP':
        ap.appendTimestamp(new DuckDBTimestampValue(BigInt(Math.round(Number(v)))));
        break;
      case 'VARCHAR[]':
        ap.appendList(v as string[], STRING_LIST);
        break;
    }
  }
  ap.endRow();
}

/** The `columns` argument of read_json for a table: `{'name': 'TYPE', …}` in table order. */
export function jsonColumns(cols: readonly ColumnSpec[]): string {
  return `{${cols.map((c) => `${sqlString(c.name)}: ${sqlString(c.type)}`).join(', ')}}`;
}

/** Quotes a string as an SQL literal. */
export function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}
