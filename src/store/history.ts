import type { DuckDBConnection } from '@duckdb/node-api';
import { InputError } from '../contract/index.js';
import { plain } from './values.js';

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

function toJob(r: unknown[]): HistoryJob {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(plain(v)));
  return {
    hash: String(r[0]),
    path: r[1] === null ? null : String(r[1]),
    app: r[2] === null ? null : String(r[2]),
    startEpoch: num(r[3]),
    nprocs: num(r[4]),
    runTime: num(r[5]),
    ioTime: num(r[6]),
    ioMibs: num(r[7]),
    hasReport: r[8] === true,
  };
}

/** The job whose hash is `hash` or starts with it (at least 8 hex digits, one match), else an InputError. */
export async function jobByHash(con: DuckDBConnection, hash: string): Promise<HistoryJob> {
  if (!/^[0-9a-f]{8,64}$/i.test(hash)) throw new InputError(`${hash}: not a job hash (8 to 64 hex digits)`);
  const rows = (await con.runAndReadAll(`SELECT ${COLUMNS} FROM jobs WHERE starts_with(hash, ?) ORDER BY hash LIMIT 2`, [hash.toLowerCase()])).getRows();
  if (rows.length === 0) throw new InputError(`no job ${hash} in the store`);
  if (rows.length > 1) throw new InputError(`${hash} names several jobs: give more digits`);
  return toJob(rows[0]);
}

/** Every job of application `app` (the `app` column), oldest first. */
export async function appHistory(con: DuckDBConnection, app: string): Promise<HistoryJob[]> {
  const rows = (await con.runAndReadAll(`SELECT ${COLUMNS} FROM jobs WHERE app = ? ORDER BY start_epoch NULLS LAST, hash`, [app])).getRows();
  return rows.map(toJob);
}
