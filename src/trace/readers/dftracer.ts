import { basename } from 'node:path';
import { categoryOf, isStdio, layerOfName } from '../classify.js';
import { TraceInputError } from '../errors.js';
import { Category, ChunkWriter, Layer } from '../model.js';
import { forEachLine } from './lines.js';
import type { ReadResult } from './types.js';

/**
 * DFTracer reader (`.pfw`, `.pfw.gz`), all three generations:
 * - gen 1 (DLIO-Profiler era): every value a JSON string, `args.hostname`/`args.fname` inline, `[` first line;
 * - gen 2: numbers, strings hashed through `FH`/`HH`/`SH` metadata events (`ph` "M"), `[` … `]` wrapper;
 * - gen 3: NDJSON without wrapper, integer `ph` (1 complete, 2 counter, 3 aggregated, 4 metadata), integer `type`
 *   layer, hex-string hashes, aggregated events with `args.dft_cnt`.
 * Times are seconds since the Unix epoch (`ts`/`dur` are microseconds). Offsets of plain read/write calls are derived
 * from the file-descriptor position (open → 0, lseek → its return value, each read/write advances it).
 */

export interface DftracerFileStats {
  path: string;
  /** Non-empty JSON lines (events of every kind, metadata included). */
  jsonLines: number;
  /** Complete (`X`) and aggregated events turned into I/O-table events (after expanding `dft_cnt`). */
  events: number;
  /** Metadata (`M`) events. */
  metadata: number;
  /** Counter (`C`/2) events, skipped. */
  counters: number;
  /** Tracer lifecycle events (`start`, `end`; `cat` dftracer), not part of the table. */
  lifecycle: number;
}

interface FileState {
  files: Map<string, string>;
  hosts: Map<string, string>;
  strings: Map<string, string>;
  procIds: Map<string, number>;
  app: string | undefined;
  fdPos: Map<string, number>;
}

const LIBC_IO = 3;
const TYPE_LAYER: Record<number, Layer> = { 5: Layer.HDF5 };

function num(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : NaN;
  }
  return NaN;
}

function key(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' ? v : String(v);
}

function appFromFileName(path: string): string {
  const b = basename(path).replace(/\.pfw(\.gz)?$/, '');
  const m = /^([^-.]+)/.exec(b);
  return m ? m[1] : b;
}

function layerOf(cat: string, type: number, name: string): Layer {
  if (type === LIBC_IO) return isStdio(name) ? Layer.STDIO : Layer.POSIX;
  if (type === 10) return name.startsWith('MPI_File') || name.startsWith('PMPI_File') ? Layer.MPIIO : Layer.OTHER;
  if (type in TYPE_LAYER) return TYPE_LAYER[type];
  if (type > 0) return Layer.OTHER;
  switch (cat) {
    case 'POSIX':
    case 'posix':
      return isStdio(name) ? Layer.STDIO : Layer.POSIX;
    case 'STDIO':
    case 'stdio':
      return Layer.STDIO;
    case 'MPI':
    case 'MPIIO':
    case 'MPI-IO':
    case 'mpi':
      return name.startsWith('MPI_File') || name.startsWith('PMPI_File') ? Layer.MPIIO : Layer.OTHER;
    case 'HDF5':
    case 'hdf5':
      return Layer.HDF5;
    default:
      return cat === '' ? layerOfName(name) : Layer.OTHER;
  }
}

/** Reads one DFTracer file into `out`; returns its statistics. */
export async function readDftracerFile(path: string, out: ChunkWriter): Promise<DftracerFileStats> {
  const dicts = out.dicts;
  const st: FileState = {
    files: new Map(),
    hosts: new Map(),
    strings: new Map(),
    procIds: new Map(),
    app: undefined,
    fdPos: new Map(),
  };
  const stats: DftracerFileStats = { path, jsonLines: 0, events: 0, metadata: 0, counters: 0, lifecycle: 0 };
  const fallbackApp = appFromFileName(path);

  const onLine = (raw: string, lineNo: number): void => {
    let line = raw.trim();
    if (line === '' || line === '[' || line === ']') return;
    if (line.charCodeAt(line.length - 1) === 44 /* , */) line = line.slice(0, -1);
    if (line.charCodeAt(0) === 91 /* [ */) line = line.slice(1).trim();
    if (line === '') return;
    let ev: Record<string, unknown>;
    try {
      ev = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new TraceInputError(`${path}:${lineNo}: malformed JSON line`);
    }
    if (ev === null || typeof ev !== 'object' || Array.isArray(ev)) {
      throw new TraceInputError(`${path}:${lineNo}: expected a JSON object per line`);
    }
    stats.jsonLines++;
    const ph = ev.ph;
    const args = (ev.args && typeof ev.args === 'object' ? ev.args : {}) as Record<string, unknown>;
    const name = typeof ev.name === 'string' ? ev.name : String(ev.name ?? '');
    if (ph === 'M' || ph === 4) {
      stats.metadata++;
      const v = key(args.value);
      const s = typeof args.name === 'string' ? args.name : undefined;
      if (v !== undefined && s !== undefined) {
        if (name === 'FH') st.files.set(v, s);
        else if (name === 'HH') st.hosts.set(v, s);
        else if (name === 'SH') st.strings.set(v, s);
      }
      return;
    }
    if (ph === 'C' || ph === 2) {
      stats.counters++;
      return;
    }
    if (!(ph === 'X' || ph === 1 || ph === 3 || ph === 'X ' || ph === undefined)) return;
    const cat = typeof ev.cat === 'string' ? ev.cat : '';
    if (cat === 'dftracer' || ev.type === 1) {
      // tracer lifecycle (`start`/`end`), not a traced call
      stats.lifecycle++;
      if (name === 'start') {
        const exec = st.strings.get(key(args.exec_hash) ?? '');
        const cmd = st.strings.get(key(args.cmd_hash) ?? '');
        if (exec && exec !== 'DEFAULT') st.app = basename(exec.split(' ')[0]);
        else if (cmd) st.app = basename(cmd.split(' ')[0]);
      }
      return;
    }
    const ts = num(ev.ts);
    const dur = num(ev.dur);
    if (!Number.isFinite(ts)) throw new TraceInputError(`${path}:${lineNo}: event without a numeric "ts"`);
    const pid = key(ev.pid) ?? '0';
    const hh = key(args.hhash);
    const host =
      (typeof args.hostname === 'string' ? args.hostname : undefined) ?? (hh !== undefined ? st.hosts.get(hh) : undefined) ?? 'unknown';
    const procKey = `${host}\u0000${pid}`;
    let proc = st.procIds.get(procKey);
    if (proc === undefined) {
      proc = dicts.proc(`${host}:${pid}`, host, st.app ?? fallbackApp);
      st.procIds.set(procKey, proc);
    }
    const fh = key(args.fhash);
    let fname: string | undefined = typeof args.fname === 'string' ? args.fname : undefined;
    if (fname === undefined && fh !== undefined) fname = st.files.get(fh) ?? `<fhash:${fh}>`;
    const file = fname === undefined ? -1 : dicts.files.id(fname);
    const func = dicts.funcs.id(name);
    const type = typeof ev.type === 'number' ? ev.type : 0;
    const layer = layerOf(cat, type, name);
    const category = layer === Layer.OTHER && cat !== '' && type === 0 && !name.startsWith('MPI_') ? Category.OTHER : categoryOf(name);

    const cnt = ph === 3 ? Math.max(1, num(args.dft_cnt) || 1) : 1;
    // bytes moved
    let size = -1;
    if (category === Category.READ || category === Category.WRITE) {
      const ret = cnt > 1 && args.ret_sum !== undefined ? num(args.ret_sum) / cnt : num(args.ret);
      const item = num(args.size);
      // a failed call (ret < 0) moved nothing
      if (Number.isFinite(ret)) size = Math.max(0, (name === 'fread' || name === 'fwrite') && item > 0 ? ret * item : ret);
      else {
        const c = cnt > 1 && args.count_sum !== undefined ? num(args.count_sum) / cnt : num(args.count);
        if (Number.isFinite(c) && c >= 0) size = (name === 'fread' || name === 'fwrite') && item > 0 ? c * item : c;
      }
    }
    // file offset
    let offset = -1;
    const fdk = args.fd !== undefined ? `d${key(args.fd)}` : fh !== undefined && layer === Layer.STDIO ? `h${fh}` : undefined;
    const base = name.endsWith('64') ? name.slice(0, -2) : name;
    if (base === 'open' || base === 'openat' || base === 'creat') {
      const ret = num(args.ret);
      if (ret >= 0) st.fdPos.set(`d${ret}`, 0);
    } else if (base === 'fopen' || base === 'fdopen') {
      if (fh !== undefined) st.fdPos.set(`h${fh}`, 0);
    } else if (base === 'lseek') {
      const ret = num(args.ret);
      if (fdk && ret >= 0) st.fdPos.set(fdk, ret);
    } else if (base === 'pread' || base === 'pwrite') {
      const o = num(args.offset);
      if (o >= 0) offset = o;
    } else if (base === 'close' || base === 'fclose') {
      if (fdk) st.fdPos.delete(fdk);
    }
    if ((category === Category.READ || category === Category.WRITE) && offset < 0 && fdk !== undefined) {
      const pos = st.fdPos.get(fdk);
      if (pos !== undefined) {
        offset = pos;
        if (size > 0) st.fdPos.set(fdk, pos + size * cnt);
      }
    }
    const start = ts / 1e6;
    const total = Number.isFinite(dur) && dur > 0 ? dur / 1e6 : 0;
    if (cnt === 1) {
      out.push(proc, file, func, layer, category, offset, size, start, start + total);
    } else {
      const each = total / cnt;
      for (let i = 0; i < cnt; i++) {
        const s = start + i * each;
        out.push(proc, file, func, layer, category, offset >= 0 && size > 0 ? offset + i * size : offset, size, s, s + each);
      }
    }
    stats.events += cnt;
  };
  await forEachLine(path, onLine);
  return stats;
}

/** Reads DFTracer files one after the other into `out`. */
export async function readDftracer(paths: readonly string[], out: ChunkWriter): Promise<ReadResult> {
  const perFile: DftracerFileStats[] = [];
  for (const p of paths) perFile.push(await readDftracerFile(p, out));
  out.flush();
  return {
    format: 'dftracer',
    events: perFile.reduce((a, s) => a + s.events, 0),
    sources: perFile.length,
    warnings: [],
    details: { files: perFile },
  };
}
