import { readFileSync } from 'node:fs';
import { InputError } from '../contract/errors.js';
import { appendRow, openStore } from './db.js';
import type { Cell } from './row.js';
import type { ColumnSpec } from './schema.js';

/**
 * Slurm accounting (`sacct --parsable2 --format=...`, `|`-separated with a header line) → table `sacct`, one row per
 * job allocation (job steps such as `123.batch` or `123.0` are skipped). Rows are keyed by the numeric job id Darshan
 * records (SLURM_JOB_ID): JobIDRaw when present, else JobID without array or het-job suffixes.
 */
export const SACCT_COLUMNS: readonly ColumnSpec[] = [
  { name: 'job_id', type: 'BIGINT', doc: 'numeric job id (JobIDRaw, else JobID): joins jobs.job_id' },
  { name: 'job_id_raw', type: 'VARCHAR', doc: 'JobID as printed (array jobs: 123_4)' },
  { name: 'nodes', type: 'BIGINT', doc: 'NNodes' },
  { name: 'partition', type: 'VARCHAR', doc: 'Partition' },
  { name: 'user', type: 'VARCHAR', doc: 'User' },
  { name: 'account', type: 'VARCHAR', doc: 'Account' },
  { name: 'state', type: 'VARCHAR', doc: 'State (first word: COMPLETED, FAILED, CANCELLED, TIMEOUT, …)' },
  { name: 'elapsed_s', type: 'DOUBLE', doc: 'Elapsed (or ElapsedRaw) in seconds' },
  { name: 'start_time', type: 'TIMESTAMP', doc: 'Start, as printed (cluster local time, no zone)' },
  { name: 'end_time', type: 'TIMESTAMP', doc: 'End, as printed' },
  { name: 'ncpus', type: 'BIGINT', doc: 'NCPUS or AllocCPUS' },
  { name: 'exit_code', type: 'VARCHAR', doc: 'ExitCode' },
  { name: 'raw', type: 'VARCHAR', doc: 'every field of the line as a JSON object' },
];

/** `[D-]HH:MM:SS`, `MM:SS(.sss)` or plain seconds → seconds. */
export function parseElapsed(s: string): number | null {
  const t = s.trim();
  if (t === '' || /^(unknown|invalid|none)$/i.test(t)) return null;
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t);
  const m = /^(?:(\d+)-)?(?:(\d+):)?(\d+):(\d+(?:\.\d+)?)$/.exec(t);
  if (!m) return null;
  return Number(m[1] ?? 0) * 86400 + Number(m[2] ?? 0) * 3600 + Number(m[3]) * 60 + Number(m[4]);
}

/** `2024-01-02T03:04:05` → microseconds since 1970 (read as UTC; Slurm prints local time without a zone). */
function parseTime(s: string): number | null {
  const t = s.trim();
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test(t)) return null;
  const ms = Date.parse(`${t}Z`);
  return Number.isFinite(ms) ? ms * 1000 : null;
}

function numericJobId(raw: string): number | null {
  const m = /^(\d+)(?:[_+][\d[\]\-,]+)?$/.exec(raw.trim());
  return m ? Number(m[1]) : null;
}

/** Parses sacct --parsable2 text. Throws an InputError when the header lacks a JobID column. */
export function parseSacct(text: string, source = 'sacct'): Cell[][] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length === 0) return [];
  const header = lines[0].split('|').map((h) => h.trim());
  const idx = (names: string[]) => {
    for (const n of names) {
      const i = header.findIndex((h) => h.toLowerCase() === n.toLowerCase());
      if (i >= 0) return i;
    }
    return -1;
  };
  const iJob = idx(['JobID']);
  const iRaw = idx(['JobIDRaw']);
  if (iJob < 0 && iRaw < 0) throw new InputError(`${source}: no JobID column in the header (expected sacct --parsable2 output with a header line)`);
  const col = {
    nodes: idx(['NNodes', 'AllocNodes']),
    partition: idx(['Partition']),
    user: idx(['User']),
    account: idx(['Account']),
    state: idx(['State']),
    elapsedRaw: idx(['ElapsedRaw']),
    elapsed: idx(['Elapsed']),
    start: idx(['Start']),
    end: idx(['End']),
    ncpus: idx(['NCPUS', 'AllocCPUS']),
    exit: idx(['ExitCode']),
  };
  const rows: Cell[][] = [];
  for (let li = 1; li < lines.length; li++) {
    const f = lines[li].split('|');
    const get = (i: number) => (i >= 0 && i < f.length ? f[i].trim() : '');
    const shown = iJob >= 0 ? get(iJob) : get(iRaw);
    if (shown.includes('.')) continue; // a job step
    const rawId = iRaw >= 0 ? get(iRaw) : shown;
    if (rawId.includes('.')) continue;
    const id = numericJobId(rawId) ?? numericJobId(shown);
    if (id === null) continue;
    const obj: Record<string, string> = {};
    header.forEach((h, i) => (obj[h] = f[i] ?? ''));
    const num = (i: number) => {
      const v = get(i);
      if (!/^\d+$/.test(v)) return null;
      return BigInt(v);
    };
    const elapsed = col.elapsedRaw >= 0 ? parseElapsed(get(col.elapsedRaw)) : col.elapsed >= 0 ? parseElapsed(get(col.elapsed)) : null;
    rows.push([
      BigInt(id),
      shown,
      num(col.nodes),
      get(col.partition) || null,
      get(col.user) || null,
      get(col.account) || null,
      get(col.state).split(/\s+/)[0] || null,
      elapsed,
      col.start >= 0 ? parseTime(get(col.start)) : null,
      col.end >= 0 ? parseTime(get(col.end)) : null,
      num(col.ncpus),
      get(col.exit) || null,
      JSON.stringify(obj),
    ]);
  }
  return rows;
}

/** Loads a sacct file into the store, replacing earlier rows with the same job ids. */
export async function loadSacct(db: string, file: string): Promise<{ rows: number; matched: number }> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const rows = parseSacct(text, file);
  const store = await openStore(db);
  try {
    const con = store.con;
    await con.run('BEGIN TRANSACTION');
    try {
      for (let i = 0; i < rows.length; i += 1000) {
        const ids = rows.slice(i, i + 1000).map((r) => String(r[0])).join(',');
        await con.run(`DELETE FROM sacct WHERE job_id IN (${ids})`);
      }
      const ap = await con.createAppender('sacct');
      for (const r of rows) appendRow(ap, SACCT_COLUMNS, r);
      ap.closeSync();
      await con.run('COMMIT');
    } catch (err) {
      await con.run('ROLLBACK').catch(() => undefined);
      throw err;
    }
    const m = await con.runAndReadAll(`SELECT count(DISTINCT s.job_id) FROM sacct s JOIN jobs j ON j.job_id = s.job_id`);
    return { rows: rows.length, matched: Number(m.getRows()[0][0]) };
  } finally {
    store.close();
  }
}

