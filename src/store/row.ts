import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { DarshanLog, type FixedTable, type LustreTable } from '../formats/darshan/index.js';
import { MAX_LOG_BYTES } from '../formats/darshan/log.js';
import { IOLensError } from '../contract/errors.js';
import { readRegularFile } from '../util/read-file.js';
import type { Analyzers, PerfEntry } from './analysis.js';
import { aiioFeatures, gaugeFeatures, lustreStriping, posixTotals } from './features.js';
import { MEASURE_COLUMN, MODULE_TOTALS, TOTAL_MEASURES, measureColumn, sumOf } from './modules.js';
import { FILE_COLUMNS, JOB_COLUMNS, PERF_MEASURES, PERF_MODULES, type ColumnSpec } from './schema.js';

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
  files?: boolean;
  analyzers?: Analyzers;
  iolensVersion?: string;
  /** Clock for `ingested_at` (tests pin it). */
  now?: () => number;
  /** Decompression budget of one log (default 1 GiB). */
  maxInflate?: number;
}

const JOB_INDEX = new Map(JOB_COLUMNS.map((col, i) => [col.name, i]));

const utf8 = (s: string): string => Buffer.from(s, 'latin1').toString('utf8');

/** Application name: the base name of the command line's first word. */
export function appName(exe: string): string {
  const first = exe.trim().split(/\s+/)[0] ?? '';
  return basename(first) || first;
}

/** Turns an error thrown while reading a log into one line. */
export function errorLine(err: unknown): string {
  if (err instanceof IOLensError) return err.message;
  const e = err as NodeJS.ErrnoException;
  if (e && e.code === 'ENOENT') return 'no such file';
  if (e && e.code === 'EACCES') return 'permission denied';
  if (e && e.code === 'EISDIR') return 'is a directory';
  if (e && e.code) return `cannot read (${e.code})`;
  return `${e && e.message ? e.message.split('\n')[0] : String(err)}`;
}

/**
 * One log → one `jobs` row (and optionally its `files` rows). Pure apart from reading the file: the same bytes
 * always give the same row, except `ingested_at`. Never throws for a bad log: it returns a RowError.
 */
export function logToRow(input: string | { path: string; bytes: Uint8Array }, opts: RowOptions = {}): RowResult {
  const path = typeof input === 'string' ? input : input.path;
  let bytes: Uint8Array;
  try {
    bytes = typeof input === 'string' ? readRegularFile(input, MAX_LOG_BYTES, 'a Darshan log') : input.bytes;
  } catch (err) {
    return { ok: false, path, fileBytes: 0, error: errorLine(err) };
  }
  try {
    return buildRow(path, bytes, opts);
  } catch (err) {
    return { ok: false, path, fileBytes: bytes.length, error: errorLine(err) };
  }
}

function buildRow(path: string, bytes: Uint8Array, opts: RowOptions): RowOk {
  const hash = createHash('sha256').update(bytes).digest('hex');
  const log = DarshanLog.fromBytes(bytes, path, opts.maxInflate === undefined ? {} : { maxInflate: opts.maxInflate });
  const row: Cell[] = new Array(JOB_COLUMNS.length).fill(null);
  const set = (name: string, v: Cell) => {
    const i = JOB_INDEX.get(name);
    if (i === undefined) throw new Error(`store: no column ${name}`);
    row[i] = v;
  };
  const job = log.job;
  const exe = utf8(job.exe);
  const startEpoch = Number(job.startTimeSec) + Number(job.startTimeNsec) / 1e9;
  const endEpoch = Number(job.endTimeSec) + Number(job.endTimeNsec) / 1e9;
  const meta: Record<string, string> = {};
  for (const [k, v] of job.metadata) meta[utf8(k)] = utf8(v);
  set('hash', hash);
  set('path', path);
  set('file_bytes', bytes.length);
  set('ingested_at', Math.round((opts.now ?? Date.now)() * 1000));
  set('iolens_version', opts.iolensVersion ?? null);
  set('job_id', job.jobid);
  set('uid', job.uid);
  set('exe', exe);
  set('app', appName(exe));
  set('nprocs', job.nprocs);
  set('start_time', Math.round(startEpoch * 1e6));
  set('end_time', Math.round(endEpoch * 1e6));
  set('start_epoch', startEpoch);
  set('end_epoch', endEpoch);
  set('run_time', job.runTimeSeconds);
  set('log_version', log.header.versionString);
  set('runtime_version', meta.lib_ver ?? null);
  set('compression', log.compressionName);
  set('metadata', JSON.stringify(meta));

  const slots = log.slots();
  const modules = slots.filter((s) => s.region.len > 0).map((s) => s.name ?? `module-${s.id}`);
  set('modules', modules);
  const partialModules = slots.filter((s) => s.partial).map((s) => s.name ?? `module-${s.id}`);
  set('partial', partialModules.length > 0);
  set('partial_modules', partialModules);

  const errors: string[] = [];
  const interfaces = new Set<string>();
  const fileRows: Cell[][] | null = opts.files ? [] : null;
  const fsTypes = new Set<string>();
  let posix: FixedTable | null = null;
  const totalsByKey = new Map<string, number[]>();
  for (const spec of MODULE_TOTALS) {
    if (!log.has(spec.module)) continue;
    const out = log.decode<FixedTable>(spec.module);
    if (!out) continue;
    if (out.error) errors.push(`${spec.module}: ${out.error}`);
    const t = out.table;
    if (t.length > 0) interfaces.add(spec.iface);
    if (spec.module === 'POSIX') posix = t;
    const cols = TOTAL_MEASURES.map((m) => measureColumn(t, spec[m]));
    const distinct = new Set<bigint>();
    for (let r = 0; r < t.length; r++) distinct.add(t.ids[r]);
    set(`${spec.key}_records`, t.length);
    set(`${spec.key}_files`, distinct.size);
    const sums = cols.map(sumOf);
    TOTAL_MEASURES.forEach((m, i) => set(`${spec.key}_${MEASURE_COLUMN[m]}`, sums[i]));
    totalsByKey.set(spec.key, sums);
    if (spec.module === 'POSIX') {
      for (const id of distinct) {
        const m = log.mountOf(log.names.get(id));
        if (m) fsTypes.add(m.fsType);
      }
    }
    if (fileRows) {
      const ranks = t.ranks.col(0);
      for (let r = 0; r < t.length; r++) {
        const raw = log.names.get(t.ids[r]);
        const m = log.mountOf(raw);
        {
          const fr: Cell[] = [hash, spec.module, t.ids[r], BigInt(ranks[r]), raw === null ? null : utf8(raw), m ? utf8(m.path) : null, m ? m.fsType : null];
          for (const col of cols) fr.push(col ? col[r] : null);
          fileRows.push(fr);
        }
      }
    }
  }
  // Modules outside MODULE_TOTALS: note decode errors only.
  for (const s of slots) {
    if (s.region.len === 0 || !s.name || MODULE_TOTALS.some((m) => m.module === s.name)) continue;
    if (s.name === 'LUSTRE' || s.name.startsWith('DXT_') || s.name === 'HEATMAP' || s.name === 'APMPI' || s.name === 'APXC' || s.name === 'BG/Q' || s.name === 'MDHIM') {
      const out = safeDecode(log, s.name);
      if (out) errors.push(`${s.name}: ${out}`);
    }
  }
  set('interfaces', [...interfaces]);
  set('decode_errors', errors.length > 0 ? errors.join('; ') : null);
  set('fs_types', [...fsTypes].sort());
  const p = totalsByKey.get('posix') ?? [0, 0, 0, 0, 0, 0, 0, 0];
  const s = totalsByKey.get('stdio') ?? [0, 0, 0, 0, 0, 0, 0, 0];
  set('total_bytes', p[3] + p[4] + s[3] + s[4]);
  set('io_time', p[5] + p[6] + p[7] + s[5] + s[6] + s[7]);

  const analysis = ['base'];
  const analysisErrors: string[] = [];
  const an = opts.analyzers;
  if (an?.perf) {
    let perf: PerfEntry[] | null = null;
    try {
      perf = an.perf(log);
    } catch (err) {
      analysisErrors.push(`perf: ${errorLine(err)}`);
    }
    if (perf) {
      analysis.push('perf');
      set('perf_json', JSON.stringify(perf));
      for (const m of PERF_MODULES) {
        const e = perf.find((x) => x.module === m.module || x.module === m.key.toUpperCase());
        if (!e) continue;
        for (const pm of PERF_MEASURES) {
          const v = e[pm.field];
          set(`${m.key}_${pm.suffix}`, typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null);
        }
      }
    }
  }
  if (an?.report) {
    try {
      const ins = an.report(log);
      set('insight_codes', ins.map((i) => i.code));
      set('insight_levels', ins.map((i) => i.level));
      set('problems', [...new Set(ins.map((i) => i.problem).filter((x): x is string => !!x))].sort());
      set('worst_level', worstLevel(ins.map((i) => i.level)));
      analysis.push('report');
    } catch (err) {
      analysisErrors.push(`report: ${errorLine(err)}`);
    }
  }
  set('analysis', analysis);
  set('analysis_errors', analysisErrors.length > 0 ? analysisErrors.join('; ') : null);

  let lustre: LustreTable | null = null;
  if (log.has('LUSTRE')) {
    const out = log.decode<LustreTable>('LUSTRE');
    lustre = out ? out.table : null;
  }
  const tot = posixTotals(posix);
  const nprocs = Number(job.nprocs);
  const aiio = aiioFeatures(tot, nprocs, lustreStriping(lustre));
  const aiioStart = JOB_INDEX.get('aiio_nprocs')!;
  for (let i = 0; i < aiio.length; i++) row[aiioStart + i] = aiio[i];
  const gauge = gaugeFeatures(tot, nprocs, job.runTimeSeconds);
  const gaugeStart = JOB_INDEX.get('gauge_bytes_read_perc')!;
  for (let i = 0; i < gauge.length; i++) row[gaugeStart + i] = gauge[i];
  return { ok: true, path, hash, fileBytes: bytes.length, row, files: fileRows };
}

function safeDecode(log: DarshanLog, name: string): string | null {
  try {
    const out = log.decode(name);
    return out?.error ?? null;
  } catch (err) {
    return errorLine(err);
  }
}

const LEVEL_ORDER = ['critical', 'high', 'error', 'warn', 'warning', 'medium', 'low', 'ok', 'info'];

function worstLevel(levels: string[]): string | null {
  let best: string | null = null;
  let rank = Infinity;
  for (const l of levels) {
    const i = LEVEL_ORDER.indexOf(l.toLowerCase());
    const r = i < 0 ? LEVEL_ORDER.length : i;
    if (r < rank) {
      rank = r;
      best = l;
    }
  }
  return best;
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
