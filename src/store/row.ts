import { IOLensError } from '../contract/errors.js';
import { nameText as utf8 } from '../formats/darshan/names.js';
import { FixedTable } from '../formats/darshan/index.js';
import { MODULE_TOTALS, TOTAL_MEASURES, measureColumn } from '../facts/module-measures.js';
import { extract, type JobRow } from '../pipeline/extract.js';
import { FILE_COLUMNS, JOB_COLUMNS, type ColumnSpec } from './schema.js';

/** A cell value as it crosses from a worker to the writer: TIMESTAMP columns carry microseconds since 1970. */
export type Cell = string | number | boolean | bigint | null | string[];

export interface RowOk {
  ok: true;
  path: string;
  hash: string;
  fileBytes: number;
  /** Values in JOB_COLUMNS order. */
  row: Cell[];
  /** Rows in FILE_COLUMNS order (only when asked for). */
  files: Cell[][] | null;
  /** The row as one NDJSON line (filled by `withJson`, in the worker, so the writer thread only copies text). */
  json?: string;
  filesJson?: string;
}

export interface RowError {
  ok: false;
  path: string;
  fileBytes: number;
  error: string;
}

export type RowResult = RowOk | RowError;

export interface RowOptions {
  /** Also the `files` rows (one per record of each fixed-size module). */
  files?: boolean;
  /** Run the checks (default true; `ingest --no-report` turns them off). */
  report?: boolean;
  /** Clock for `ingested_at` (tests pin it). */
  now?: () => number;
  /** Decompression budget of one log (default 1 GiB). */
  maxInflate?: number;
}



/** One line for `ingest_errors`: the library's message without the path (the table has a path column). */
export function errorLine(path: string, err: unknown): string {
  const msg = err instanceof Error ? err.message.split('\n')[0] : String(err);
  const own = err instanceof IOLensError && msg.startsWith(`${path}: `) ? msg.slice(path.length + 2) : msg;
  return own;
}

/** The pipeline's job row in `jobs` column order; timestamps (seconds) become microseconds. */
export function projectRow(row: JobRow, ingestedAtMs: number): Cell[] {
  return JOB_COLUMNS.map((c) => {
    if (c.name === 'ingested_at') return Math.round(ingestedAtMs * 1000);
    if (!(c.name in row)) throw new Error(`store: the job row has no column ${c.name}`);
    const v = row[c.name];
    if (c.type === 'TIMESTAMP' && typeof v === 'number') return Math.round(v * 1e6);
    return Array.isArray(v) ? [...v] : (v as Cell);
  });
}

/**
 * One log → one `jobs` row (and optionally its `files` rows): the projection of `extract` (the same code path as
 * `iolens report`). The same bytes always give the same row, except `ingested_at`. Never throws for a bad log: it
 * returns a RowError.
 */
export function logToRow(input: string | { path: string; bytes: Uint8Array }, opts: RowOptions = {}): RowResult {
  const path = typeof input === 'string' ? input : input.path;
  let x: ReturnType<typeof extract>;
  try {
    x = extract(input, { report: opts.report !== false, ...(opts.maxInflate !== undefined ? { maxInflate: opts.maxInflate } : {}) });
  } catch (err) {
    return { ok: false, path, fileBytes: typeof input === 'string' ? 0 : input.bytes.length, error: errorLine(path, err) };
  }
  const row = projectRow(x.row, (opts.now ?? Date.now)());
  const hash = x.row.hash as string;
  return { ok: true, path, hash, fileBytes: x.row.file_bytes as number, row, files: opts.files ? fileRows(x, hash) : null };
}

/** `files` rows: one per record of each fixed-size module, with its mount and the eight measures. */
function fileRows(x: ReturnType<typeof extract>, hash: string): Cell[][] {
  const log = x.source.log;
  const out: Cell[][] = [];
  for (const spec of MODULE_TOTALS) {
    if (!log.has(spec.module)) continue;
    const t = log.decode(spec.module)?.table;
    if (!(t instanceof FixedTable)) continue;
    const cols = TOTAL_MEASURES.map((m) => measureColumn(t, spec[m]));
    const ranks = t.ranks.col(0);
    for (let r = 0; r < t.length; r++) {
      const raw = log.names.get(t.ids[r]);
      const m = log.mountOf(raw);
      const fr: Cell[] = [hash, spec.module, t.ids[r], BigInt(ranks[r]), raw === null ? null : utf8(raw), m ? utf8(m.path) : null, m ? m.fsType : null];
      for (const col of cols) fr.push(col ? col[r] : null);
      out.push(fr);
    }
  }
  return out;
}

function pad(n: number, w: number): string {
  return String(n).padStart(w, '0');
}

/** Microseconds since 1970 → `YYYY-MM-DD HH:MM:SS.ffffff` (UTC), as DuckDB reads a TIMESTAMP. */
export function microsToTimestamp(us: number): string {
  const ms = Math.floor(us / 1000);
  const d = new Date(ms);
  if (!Number.isFinite(d.getTime())) return '';
  const frac = ((us % 1_000_000) + 1_000_000) % 1_000_000;
  const y = d.getUTCFullYear();
  if (y < 0 || y > 9999) return '';
  return `${pad(y, 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)} ${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}.${pad(Math.floor(frac), 6)}`;
}

const keyCache = new WeakMap<readonly ColumnSpec[], string[]>();

/** One row as a JSON object line, keys by column, typed for DuckDB's read_json (see db.ts `jsonColumns`). */
export function rowToJson(cols: readonly ColumnSpec[], row: readonly Cell[]): string {
  let keys = keyCache.get(cols);
  if (!keys) {
    keys = cols.map((c, i) => `${i > 0 ? ',' : '{'}${JSON.stringify(c.name)}:`);
    keyCache.set(cols, keys);
  }
  const parts: string[] = new Array(cols.length + 1);
  for (let i = 0; i < cols.length; i++) {
    const v = row[i];
    let t: string;
    if (v === null || v === undefined) t = 'null';
    else if (typeof v === 'number') {
      if (!Number.isFinite(v)) t = 'null';
      else if (cols[i].type === 'TIMESTAMP') {
        const ts = microsToTimestamp(v);
        t = ts === '' ? 'null' : `"${ts}"`;
      } else t = String(v);
    } else if (typeof v === 'bigint') t = v.toString();
    else t = JSON.stringify(v);
    parts[i] = keys[i] + t;
  }
  parts[cols.length] = '}';
  return parts.join('');
}

/** Adds the NDJSON form of a result's rows. */
export function withJson(r: RowResult): RowResult {
  if (!r.ok) return r;
  r.json = rowToJson(JOB_COLUMNS, r.row);
  if (r.files) r.filesJson = r.files.map((f) => rowToJson(FILE_COLUMNS, f)).join('\n');
  return r;
}

