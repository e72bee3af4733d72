import { basename } from 'node:path';
import { categoryOf, isStdio, layerOfName } from '../classify.js';
import { TraceInputError } from '../errors.js';
import { Category, ChunkWriter, Layer } from '../model.js';
import { DfRecord, DfScanner, fillFromObject } from './dftracer-scan.js';
import { forEachLineBytes, type LineRun } from './lines.js';
import { LimitError } from '../../../contract/errors.js';
import { DEFAULT_MAX_EXPANDED_CALLS, DEFAULT_MAX_LINE_BYTES, type ReadLimits } from '../../../util/limits.js';
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

const LIBC_IO = 3;
const TYPE_LAYER: Record<number, Layer> = { 5: Layer.HDF5 };

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

/** A file position (a box, so that the next call on the same descriptor moves it without another lookup). */
interface Position {
  at: number;
}

/** How a call moves the file position: none, open (fd → 0), fopen (stream → 0), lseek, pread/pwrite, close. */
const enum PosOp {
  NONE,
  OPEN,
  FOPEN,
  LSEEK,
  PRW,
  CLOSE,
}

/** Everything derived from (name, cat, type) alone, computed once per distinct triple. */
interface FuncInfo {
  name: string;
  cat: string;
  type: number;
  func: number;
  layer: Layer;
  category: Category;
  posOp: PosOp;
  /** fread/fwrite: sizes are items × item size */
  items: boolean;
}

function funcInfo(name: string, cat: string, type: number, func: number): FuncInfo {
  const layer = layerOf(cat, type, name);
  const category = layer === Layer.OTHER && cat !== '' && type === 0 && !name.startsWith('MPI_') ? Category.OTHER : categoryOf(name);
  const base = name.endsWith('64') ? name.slice(0, -2) : name;
  let posOp = PosOp.NONE;
  if (base === 'open' || base === 'openat' || base === 'creat') posOp = PosOp.OPEN;
  else if (base === 'fopen' || base === 'fdopen') posOp = PosOp.FOPEN;
  else if (base === 'lseek') posOp = PosOp.LSEEK;
  else if (base === 'pread' || base === 'pwrite') posOp = PosOp.PRW;
  else if (base === 'close' || base === 'fclose') posOp = PosOp.CLOSE;
  return { name, cat, type, func, layer, category, posOp, items: name === 'fread' || name === 'fwrite' };
}

export interface DftracerReadOptions {
  /** Use the byte scanner for common lines (default true); false sends every line through JSON.parse. */
  scanner?: boolean;
  /** Budgets: the longest line, and the calls aggregated events of one file may expand to. */
  limits?: ReadLimits;
  /** Gunzip beside the reading thread (`LineReadOptions.gunzipAside`): for a reader alone on a machine with cores to spare. */
  gunzipAside?: boolean;
}

/** Reads one DFTracer file into `out`; returns its statistics. */
export async function readDftracerFile(path: string, out: ChunkWriter, opts: DftracerReadOptions = {}): Promise<DftracerFileStats> {
  const dicts = out.dicts;
  const files = new Map<string, string>();
  const hosts = new Map<string, string>();
  const strings = new Map<string, string>();
  const procIds = new Map<string, number>();
  let app: string | undefined;
  /** positions of descriptors (`args.fd`, as text) and of stdio streams (by file hash) */
  const fdPos = new Map<string | undefined, Position>();
  const streamPos = new Map<string | undefined, Position>();
  /** file id per file hash (cleared when an FH record arrives) */
  const fileByHash = new Map<string, number>();
  const funcs = new Map<string, FuncInfo | FuncInfo[]>();
  // Consecutive events mostly repeat the previous event's host hash, file hash, function and descriptor: the last
  // lookup of each is kept (and forgotten whenever what it read from changes).
  let lastHh: string | undefined;
  let lastHhHost = '';
  let lastFh: string | undefined;
  let lastFhFile = -1;
  let lastInfo: FuncInfo | undefined;
  let lastPosMap: Map<string | undefined, Position> | null = null;
  let lastPosKey: string | undefined;
  let lastPos: Position | undefined;
  /** Sets (or, with `at` undefined, deletes) a position, forgetting the kept lookup. */
  const setPos = (map: Map<string | undefined, Position>, key: string | undefined, at: number | undefined): void => {
    lastPosMap = null;
    if (at === undefined) map.delete(key);
    else map.set(key, { at });
  };
  let lastHost: string | undefined;
  let lastPid: string | undefined;
  let lastProc = -1;
  const stats: DftracerFileStats = { path, jsonLines: 0, events: 0, metadata: 0, counters: 0, lifecycle: 0 };
  const fallbackApp = appFromFileName(path);
  const rec = new DfRecord();
  const scanner = opts.scanner === false ? null : new DfScanner();
  /** calls aggregated events may still expand to (each is one table event) */
  const maxExpanded = opts.limits?.maxExpandedCalls ?? DEFAULT_MAX_EXPANDED_CALLS;
  let expanded = 0;

  const handle = (r: DfRecord, lineNo: number): void => {
    stats.jsonLines++;
    const ph = r.ph;
    const name = r.name;
    if (ph === 'M' || ph === 4) {
      stats.metadata++;
      const v = r.value;
      const s = r.argName;
      if (v !== undefined && s !== undefined) {
        if (name === 'FH') {
          files.set(v, s);
          fileByHash.clear();
          lastFh = undefined;
        } else if (name === 'HH') {
          hosts.set(v, s);
          lastHh = undefined;
        } else if (name === 'SH') strings.set(v, s);
      }
      return;
    }
    if (ph === 'C' || ph === 2) {
      stats.counters++;
      return;
    }
    if (!(ph === 'X' || ph === 1 || ph === 3 || ph === 'X ' || ph === undefined)) return;
    const cat = r.cat;
    if (cat === 'dftracer' || r.type === 1) {
      // tracer lifecycle (`start`/`end`), not a traced call
      stats.lifecycle++;
      if (name === 'start') {
        const exec = strings.get(r.execHash ?? '');
        const cmd = strings.get(r.cmdHash ?? '');
        if (exec && exec !== 'DEFAULT') app = basename(exec.split(' ')[0]);
        else if (cmd) app = basename(cmd.split(' ')[0]);
      }
      return;
    }
    const ts = r.ts;
    const dur = r.dur;
    if (!Number.isFinite(ts)) throw new TraceInputError(`${path}:${lineNo}: event without a numeric "ts"`);
    const pid = r.pid ?? '0';
    const hh = r.hhash;
    let host: string;
    if (r.hostname !== undefined) host = r.hostname;
    else if (hh === undefined) host = 'unknown';
    else {
      if (hh !== lastHh) {
        lastHhHost = hosts.get(hh) ?? 'unknown';
        lastHh = hh;
      }
      host = lastHhHost;
    }
    let proc: number;
    if (host === lastHost && pid === lastPid) proc = lastProc;
    else {
      const procKey = `${host}\u0000${pid}`;
      let p = procIds.get(procKey);
      if (p === undefined) {
        p = dicts.proc(`${host}:${pid}`, host, app ?? fallbackApp);
        procIds.set(procKey, p);
      }
      proc = lastProc = p;
      lastHost = host;
      lastPid = pid;
    }
    const fh = r.fhash;
    let file: number;
    if (r.fname !== undefined) file = dicts.files.id(r.fname);
    else if (fh !== undefined) {
      if (fh !== lastFh) {
        let f = fileByHash.get(fh);
        if (f === undefined) {
          f = dicts.files.id(files.get(fh) ?? `<fhash:${fh}>`);
          fileByHash.set(fh, f);
        }
        lastFh = fh;
        lastFhFile = f;
      }
      file = lastFhFile;
    } else file = -1;
    const type = r.type;
    let info = lastInfo;
    if (info === undefined || info.name !== name || info.cat !== cat || info.type !== type) {
      info = undefined;
      const known = funcs.get(name);
      if (known !== undefined) {
        if (Array.isArray(known)) {
          for (const k of known) if (k.cat === cat && k.type === type) info = k;
        } else if (known.cat === cat && known.type === type) info = known;
      }
      if (info === undefined) {
        info = funcInfo(name, cat, type, dicts.funcs.id(name));
        if (known === undefined) funcs.set(name, info);
        else if (Array.isArray(known)) known.push(info);
        else funcs.set(name, [known, info]);
      }
      lastInfo = info;
    }
    const { layer, category, func } = info;

    const cnt = ph === 3 ? Math.max(1, Math.floor(r.dftCnt) || 1) : 1;
    if (cnt > 1) {
      expanded += cnt;
      if (expanded > maxExpanded) {
        throw new LimitError(`${path}:${lineNo}: aggregated events stand for more than ${maxExpanded} calls (dft_cnt ${r.dftCnt}); raise the limit if the trace is real`);
      }
    }
    // bytes moved
    let size = -1;
    const data = category === Category.READ || category === Category.WRITE;
    if (data) {
      const ret = cnt > 1 && r.hasRetSum ? r.retSum / cnt : r.ret;
      const item = r.size;
      // a failed call (ret < 0) moved nothing
      if (Number.isFinite(ret)) size = Math.max(0, info.items && item > 0 ? ret * item : ret);
      else {
        const c = cnt > 1 && r.hasCountSum ? r.countSum / cnt : r.count;
        if (Number.isFinite(c) && c >= 0) size = info.items && item > 0 ? c * item : c;
      }
    }
    // file offset: descriptor (`fd`) positions, or stdio stream positions keyed by the file hash
    let offset = -1;
    const byFd = r.hasFd;
    const byStream = !byFd && fh !== undefined && layer === Layer.STDIO;
    const posKey = byFd ? r.fd : fh;
    switch (info.posOp) {
      case PosOp.OPEN: {
        const ret = r.ret;
        if (ret >= 0) setPos(fdPos, String(ret), 0);
        break;
      }
      case PosOp.FOPEN:
        if (fh !== undefined) setPos(streamPos, fh, 0);
        break;
      case PosOp.LSEEK: {
        const ret = r.ret;
        if (ret >= 0) {
          if (byFd) setPos(fdPos, posKey, ret);
          else if (byStream) setPos(streamPos, posKey, ret);
        }
        break;
      }
      case PosOp.PRW: {
        const o = r.offset;
        if (o >= 0) offset = o;
        break;
      }
      case PosOp.CLOSE:
        if (byFd) setPos(fdPos, posKey, undefined);
        else if (byStream) setPos(streamPos, posKey, undefined);
        break;
    }
    if (data && offset < 0 && (byFd || byStream)) {
      const map = byFd ? fdPos : streamPos;
      if (map !== lastPosMap || posKey !== lastPosKey) {
        lastPos = map.get(posKey);
        lastPosMap = map;
        lastPosKey = posKey;
      }
      const pos = lastPos;
      if (pos !== undefined) {
        offset = pos.at;
        if (size > 0) pos.at += size * cnt;
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

  /** The general path: JSON.parse of the line (also the source of every "malformed" error). */
  const parseLine = (raw: string, lineNo: number): void => {
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
    fillFromObject(ev, rec);
    handle(rec, lineNo);
  };

  const maxLineBytes = opts.limits?.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  /** Runs of lines the scanner reads in its ring buffers (it leaves the others to the line callback below). */
  const onLines = (buf: Buffer, s: number, e: number, lineNo: number, run: LineRun): void => scanner!.lines(buf, s, e, lineNo, maxLineBytes, run, handle);
  try {
    await forEachLineBytes(path, (buf, s, e, lineNo) => {
      // trim ASCII blanks; anything else unusual is left to the general path
      while (s < e && (buf[s] === 32 || buf[s] === 9 || buf[s] === 13)) s++;
      while (e > s && (buf[e - 1] === 32 || buf[e - 1] === 9 || buf[e - 1] === 13)) e--;
      if (s === e) return;
      const scanned = scanner !== null && buf[s] === 123 ? scanner.scan(buf, s, e) : null;
      if (scanned !== null) handle(scanned, lineNo);
      else parseLine(buf.toString('utf8', s, e), lineNo);
    }, {
      maxLineBytes,
      maxInflate: opts.limits?.maxInflate,
      gunzipAside: opts.gunzipAside,
      // the scanner's module memory holds the buffers lines are read into (its shapes keep lines there until release)
      ...(scanner === null ? { beforeReuse: () => {} } : { beforeReuse: (buf: Buffer) => scanner.release(buf), ringBuffer: (i: number) => scanner.ringBuffer(i), onLines }),
    });
  } finally {
    // a trace of many files reads them one after the other: the next file's scanner may take this one's module
    scanner?.dispose();
  }
  return stats;
}

/** Reads DFTracer files one after the other into `out`. */
export async function readDftracer(paths: readonly string[], out: ChunkWriter, opts: DftracerReadOptions = {}): Promise<ReadResult> {
  const perFile: DftracerFileStats[] = [];
  for (const p of paths) perFile.push(await readDftracerFile(p, out, opts));
  out.flush();
  return {
    format: 'dftracer',
    events: perFile.reduce((a, s) => a + s.events, 0),
    sources: perFile.length,
    warnings: [],
    details: { files: perFile },
  };
}
