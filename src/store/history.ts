import { InputError } from '../contract/index.js';
import type { Store } from './db.js';
import { readRows, type Row } from './queries/read.js';

/** One job of an application's history, as the store holds it. */
export interface HistoryJob {
  readonly hash: string;
  readonly path: string | null;
  readonly app: string | null;
  readonly startEpoch: number | null;
  readonly nprocs: number | null;
  readonly runTime: number | null;
  /** I/O time on the slowest rank, seconds (the time model's). */
  readonly ioTime: number | null;
  readonly ioMibs: number | null;
  /** Whether the store keeps the job's report (`reports`: uploads the web service kept). */
  readonly hasReport: boolean;
}

const COLUMNS = 'hash, path, app, start_epoch, nprocs, run_time, io_time, io_mibs, hash IN (SELECT hash FROM reports) AS has_report';

function toJob(r: Row): HistoryJob {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    hash: String(r.hash),
    path: r.path === null ? null : String(r.path),
    app: r.app === null ? null : String(r.app),
    startEpoch: num(r.start_epoch),
    nprocs: num(r.nprocs),
    runTime: num(r.run_time),
    ioTime: num(r.io_time),
    ioMibs: num(r.io_mibs),
    hasReport: r.has_report === true,
  };
}

/** The job whose hash is `hash` or starts with it (at least 8 hex digits, one match), else an InputError. */
export async function jobByHash(store: Store, hash: string): Promise<HistoryJob> {
  if (!/^[0-9a-f]{8,64}$/i.test(hash)) throw new InputError(`${hash}: not a job hash (8 to 64 hex digits)`);
  const rows = await readRows(store, `SELECT ${COLUMNS} FROM jobs WHERE starts_with(hash, ?) ORDER BY hash LIMIT 2`, [hash.toLowerCase()]);
  if (rows.length === 0) throw new InputError(`no job ${hash} in the store`);
  if (rows.length > 1) throw new InputError(`${hash} names several jobs: give more digits`);
  return toJob(rows[0]);
}

/** Every job of application `app` (the `app` column), oldest first. */
export async function appHistory(store: Store, app: string): Promise<HistoryJob[]> {
  const rows = await readRows(store, `SELECT ${COLUMNS} FROM jobs WHERE app = ? ORDER BY start_epoch NULLS LAST, hash`, [app]);
  return rows.map(toJob);
}
