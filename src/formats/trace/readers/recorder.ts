import { closeSync, existsSync, fstatSync, readSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { categoryOf, isStdio } from '../classify.js';
import { TraceInputError } from '../errors.js';
import { Category, ChunkWriter, Layer } from '../model.js';
import { decodeCst, decodeGrammar, GrammarCursor, readZlibBlock, zlibBlockAt, type CstEntry, type Grammar } from './recorder-decode.js';
import type { ReadResult } from './types.js';
import { openTraceFile } from './lines.js';
import { IOLensError } from '../../../contract/errors.js';
import { InflateBudget, type ReadLimits } from '../../../util/limits.js';
import { readRegularFile } from '../../../util/read-file.js';
import { formatRanges } from '../../../text/format.js';

/** Largest single file of a Recorder folder read whole (timestamps of a per-rank trace are streamed instead). */
const MAX_FILE_BYTES = 2 ** 31 - 1;

/** Reads one file of a trace folder whole; every failure (missing, not a regular file, too large) is a trace error. */
function readTraceBytes(path: string): Buffer {
  try {
    return readRegularFile(path, MAX_FILE_BYTES, 'a trace file');
  } catch (err) {
    if (err instanceof IOLensError) throw new TraceInputError(`${path}: ${err.message}`);
    const e = err as NodeJS.ErrnoException;
    if (e && e.code === 'ENOENT') throw new TraceInputError(`${path}: missing (the Recorder folder is incomplete, or recorder.mt is damaged)`);
    throw new TraceInputError(`${path}: cannot read (${e.code ?? e.message})`);
  }
}

/**
 * Recorder trace folders, both on-disk layouts:
 * - "per-rank" (v2.4 and the pilgrim pre-release that already says 2.5.0): `N.cst`, `N.cfg`, `N.ts` raw per rank, or
 *   with inter-process compression one merged `0.cst`, `ug.mt` + `K.cfg` per unique grammar;
 * - "final 2.5": zlib blocks, `N.cst` or merged `recorder.cst`, `N.cfg` or `ug.cfg` + `ug.mt`, one `recorder.ts`.
 * Times are seconds since `start_ts` of `recorder.mt` (`timeOrigin` in the result is that epoch time).
 */

export type RecorderLayout = 'per-rank' | 'final-2.5';

export interface RecorderMeta {
  dir: string;
  version: string;
  layout: RecorderLayout;
  totalRanks: number;
  startTs: number;
  resolution: number;
  tsCompression: boolean;
  interprocess: boolean;
  funcNames: string[];
  host: string;
  app: string;
}

export function readRecorderMeta(dir: string): RecorderMeta {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new TraceInputError(`${dir}: not a Recorder trace folder`);
  const mtPath = join(dir, 'recorder.mt');
  if (!existsSync(mtPath)) throw new TraceInputError(`${dir}: no recorder.mt (not a Recorder trace folder)`);
  const mt = readTraceBytes(mtPath);
  if (mt.byteLength < 40) throw new TraceInputError(`${mtPath}: truncated metadata (${mt.byteLength} bytes)`);
  const version = existsSync(join(dir, 'VERSION')) ? readTraceBytes(join(dir, 'VERSION')).toString('latin1').trim() : '';
  const final = ['recorder.ts', 'recorder.cst', 'ug.cfg'].some((f) => existsSync(join(dir, f)));
  const totalRanks = mt.readInt32LE(0);
  if (totalRanks <= 0 || totalRanks > 1 << 24) throw new TraceInputError(`${mtPath}: bad rank count ${totalRanks}`);
  let startTs: number;
  let resolution: number;
  let tsCompression = false;
  let interprocess: boolean;
  if (final) {
    startTs = mt.readDoubleLE(16);
    resolution = mt.readDoubleLE(24);
    tsCompression = mt[36] !== 0;
    interprocess = mt[37] !== 0;
  } else {
    startTs = mt.readDoubleLE(8);
    resolution = mt.readDoubleLE(16);
    interprocess = mt.readInt32LE(32) !== 0;
  }
  if (!(resolution > 0 && resolution < 1)) throw new TraceInputError(`${mtPath}: bad time resolution ${resolution}`);
  const funcNames = mt.subarray(40).toString('latin1').split('\n');
  while (funcNames.length > 0 && funcNames[funcNames.length - 1] === '') funcNames.pop();
  const { host, app } = parseFolderName(basename(dir));
  return {
    dir,
    version,
    layout: final ? 'final-2.5' : 'per-rank',
    totalRanks,
    startTs,
    resolution,
    tsCompression,
    interprocess: interprocess || existsSync(join(dir, 'ug.mt')),
    funcNames,
    host,
    app,
  };
}

/** `HHMMSS.ff-host-user-exe-pid` (2.5) or `host-user-exe-pid-HHMMSS.fff` (2.4); otherwise the folder name is the app. */
function parseFolderName(name: string): { host: string; app: string } {
  let m = /^\d{6}\.\d+-([^-]+)-[^-]+-(.+)-\d+$/.exec(name);
  if (m) return { host: m[1], app: m[2] };
  m = /^([^-]+)-[^-]+-(.+)-\d+-\d{6}\.\d+$/.exec(name);
  if (m) return { host: m[1], app: m[2] };
  return { host: 'unknown', app: name };
}

/** Per-terminal decoded call features (computed once per call signature, reused for every call). */
interface Terminal {
  func: number;
  layer: Layer;
  category: Category;
  file: number;
  fileKey: string | undefined;
  size: number;
  /** explicit offset argument (pread/pwrite/MPI_File_*_at), or -1 */
  offset: number;
  /** 0 none, 1 opens (position 0), 2 seek set, 3 seek cur, 4 seek end/unknown, 5 close */
  posOp: number;
  seekArg: number;
  /** MPI file handle (per-rank id of its text), or -1 */
  handle: number;
  /** MPI_File_open: file id of the path opened, else -1 */
  openPath: number;
  /** Call depth (0: called by the application; more: inside another traced call). */
  depth: number;
}

function parseNum(s: string | undefined): number {
  if (s === undefined) return NaN;
  const n = Number(s);
  return Number.isFinite(n) ? n : NaN;
}

const MPI_TYPE_SIZE: Record<string, number> = {
  MPI_BYTE: 1, MPI_CHAR: 1, MPI_SIGNED_CHAR: 1, MPI_UNSIGNED_CHAR: 1, MPI_SHORT: 2, MPI_UNSIGNED_SHORT: 2, MPI_INT: 4,
  MPI_UNSIGNED: 4, MPI_INTEGER: 4, MPI_FLOAT: 4, MPI_REAL: 4, MPI_LONG: 8, MPI_UNSIGNED_LONG: 8, MPI_LONG_LONG: 8,
  MPI_LONG_LONG_INT: 8, MPI_DOUBLE: 8, MPI_DOUBLE_PRECISION: 8, MPI_REAL8: 8, MPI_INTEGER8: 8, MPI_INT64_T: 8,
  MPI_UINT64_T: 8, MPI_INT32_T: 4, MPI_UINT32_T: 4,
};

/** Function-table layer rule of Recorder's reader: POSIX ids, then MPI (MPI-IO for MPI_File*), then HDF5. */
export function recorderLayers(funcNames: readonly string[]): Layer[] {
  const firstMpi = funcNames.findIndex((n) => n.includes('MPI'));
  const firstH5 = funcNames.findIndex((n) => n.startsWith('H5'));
  return funcNames.map((n, i) => {
    if (firstMpi < 0 || i < firstMpi) return isStdio(n) ? Layer.STDIO : Layer.POSIX;
    if (firstH5 < 0 || i < firstH5) return n.startsWith('MPI_File') || n.startsWith('PMPI_File') ? Layer.MPIIO : Layer.OTHER;
    return Layer.HDF5;
  });
}

function buildTerminals(cst: CstEntry[], meta: RecorderMeta, layers: Layer[], out: ChunkWriter): Terminal[] {
  const dicts = out.dicts;
  const handles = new Map<string, number>();
  const handleId = (h: string): number => {
    let id = handles.get(h);
    if (id === undefined) handles.set(h, (id = handles.size));
    return id;
  };
  const terms: Terminal[] = [];
  for (const e of cst) {
    const isUser = e.funcId === 255 || e.funcId >= meta.funcNames.length;
    let name = isUser ? (e.args[0] ?? `func#${e.funcId}`) : meta.funcNames[e.funcId];
    if (name.startsWith('PMPI_')) name = name.slice(1);
    const layer = isUser ? Layer.OTHER : (layers[e.funcId] ?? Layer.OTHER);
    const category = layer === Layer.OTHER && !name.startsWith('MPI_File') ? Category.OTHER : categoryOf(name);
    const base = name.endsWith('64') ? name.slice(0, -2) : name;
    const a = e.args;
    let fileKey: string | undefined;
    let size = -1;
    let offset = -1;
    let posOp = 0;
    let seekArg = NaN;
    let handle = -1;
    let openPath = -1;
    if (!isUser && (layer === Layer.POSIX || layer === Layer.STDIO) && a.length > 0) {
      // stat wrappers take a version number first: __xstat(ver, path, buf)
      const f = /^__(f|l)?xstat/.test(name) ? a[1] : a[0];
      if (f !== undefined && f !== '???' && f !== '%p' && f !== '' && !/^-?\d+$/.test(f)) fileKey = f;
    } else if (layer === Layer.MPIIO) {
      // MPI_File_open(comm, path, amode, info, fh); every other MPI_File_* call starts with the handle
      if (name === 'MPI_File_open') {
        if (a[1] !== undefined) openPath = dicts.files.id(a[1]);
        handle = handleId(a[4] ?? '');
      } else handle = handleId(a[0] ?? '');
    } else if (layer === Layer.HDF5 && (name === 'H5Fcreate' || name === 'H5Fopen') && a[0]) {
      fileKey = a[0];
    }
    if (layer === Layer.POSIX || layer === Layer.STDIO) {
      switch (base) {
        case 'read':
        case 'write':
          size = parseNum(a[2]);
          break;
        case 'pread':
        case 'pwrite':
          size = parseNum(a[2]);
          offset = parseNum(a[3]);
          break;
        case 'fread':
        case 'fwrite': {
          const s = parseNum(a[2]);
          const c = parseNum(a[3]);
          size = s >= 0 && c >= 0 ? s * c : -1;
          break;
        }
        case 'open':
        case 'creat':
        case 'fopen':
        case 'fdopen':
          posOp = 1;
          break;
        case 'lseek':
        case 'fseek':
        case 'fseeko': {
          const off = parseNum(a[1]);
          const wh = a[2];
          if (wh === '0' || wh === 'SEEK_SET') posOp = 2;
          else if (wh === '1' || wh === 'SEEK_CUR') posOp = 3;
          else posOp = 4;
          seekArg = off;
          break;
        }
        case 'close':
        case 'fclose':
          posOp = 5;
          break;
        default:
          break;
      }
    } else if (layer === Layer.MPIIO && (category === Category.READ || category === Category.WRITE)) {
      // MPI_File_{read,write}[_at][_all] (fh, [offset,] buf, count, datatype, ...)
      const at = /_at(_all)?$|_at_all_begin$/.test(name) || /^MPI_File_i(read|write)_at/.test(name);
      const ci = at ? 3 : 2;
      if (at) offset = parseNum(a[1]);
      const count = parseNum(a[ci]);
      const ts = MPI_TYPE_SIZE[a[ci + 1] ?? ''];
      // derived or unknown datatypes: the byte count is not recoverable from the trace
      if (count >= 0 && ts) size = count * ts;
    }
    if (!Number.isFinite(size)) size = -1;
    if (!Number.isFinite(offset)) offset = -1;
    terms[e.terminal] = {
      func: dicts.funcs.id(name),
      layer,
      category,
      file: fileKey === undefined ? -1 : dicts.files.id(fileKey),
      fileKey,
      size,
      offset,
      posOp,
      seekArg,
      handle,
      openPath,
      depth: e.depth,
    };
  }
  return terms;
}

/** Timestamp source for one rank: yields raw uint32 pairs in call order. */
interface TsSource {
  /** Pairs the source holds in all. */
  readonly pairs: number;
  /** Fills `out` (pairs) and returns the number of pairs read. */
  read(out: Uint32Array): number;
  close(): void;
}

function rawFileTs(path: string): TsSource {
  const fd = openTraceFile(path);
  let pos = 0;
  return {
    pairs: Math.floor(fstatSync(fd).size / 8),
    read(out) {
      const bytes = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
      const n = readSync(fd, bytes, 0, bytes.byteLength, pos);
      pos += n;
      const pairs = Math.floor(n / 8);
      if (n % 8 !== 0) pos -= n % 8;
      return pairs;
    },
    close() {
      closeSync(fd);
    },
  };
}

function memoryTs(data: Uint8Array): TsSource {
  let pos = 0;
  return {
    pairs: Math.floor(data.byteLength / 8),
    read(out) {
      const bytes = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
      const n = Math.min(bytes.byteLength, data.byteLength - pos) & ~7;
      bytes.set(data.subarray(pos, pos + n));
      pos += n;
      return n / 8;
    },
    close() {},
  };
}

export interface RecorderRankStats {
  rank: number;
  signatures: number;
  rules: number;
  /** Sum of the CST call counts for this rank (-1 when the table is merged across ranks). */
  cstCalls: number;
  /** Calls in the expanded grammar (= events emitted). */
  records: number;
  /** Timestamp pairs available. */
  timestamps: number;
}

/** Shared, lazily loaded pieces of a folder (merged CST, unique grammars, recorder.ts offsets). */
class RecorderFolder {
  private mergedCst: CstEntry[] | undefined;
  private ugMap: Int32Array | undefined;
  private grammars = new Map<number, Grammar>();
  private tsIndex: { offsets: number[]; lengths: number[]; buf: Buffer } | undefined;
  /** Decompressed bytes the blocks of this folder may still produce (every zlib block is charged). */
  readonly budget: InflateBudget;

  constructor(readonly meta: RecorderMeta, limits: ReadLimits = {}) {
    this.budget = new InflateBudget(limits.maxInflate, 'trace');
  }

  private block(buf: Uint8Array, off: number, what: string): { data: Uint8Array; next: number } {
    return readZlibBlock(buf, off, what, this.budget);
  }

  path(f: string): string {
    return join(this.meta.dir, f);
  }

  /** Ranks whose data exist in this folder. */
  presentRanks(): { present: number[]; missing: number[] } {
    const m = this.meta;
    const present: number[] = [];
    const missing: number[] = [];
    if (m.layout === 'final-2.5' && existsSync(this.path('recorder.ts'))) {
      for (let r = 0; r < m.totalRanks; r++) present.push(r);
      return { present, missing };
    }
    const names = new Set(readdirSync(m.dir));
    for (let r = 0; r < m.totalRanks; r++) {
      const hasTs = names.has(`${r}.ts`);
      const hasCst = m.interprocess ? true : names.has(`${r}.cst`);
      const hasCfg = m.interprocess ? true : names.has(`${r}.cfg`);
      if (hasTs && hasCst && hasCfg) present.push(r);
      else missing.push(r);
    }
    return { present, missing };
  }

  cst(rank: number): CstEntry[] {
    const m = this.meta;
    if (m.layout === 'final-2.5') {
      if (existsSync(this.path('recorder.cst'))) {
        if (!this.mergedCst) this.mergedCst = decodeCst(this.block(readTraceBytes(this.path('recorder.cst')), 0, this.path('recorder.cst')).data, this.path('recorder.cst'));
        return this.mergedCst;
      }
      const p = this.path(`${rank}.cst`);
      return decodeCst(this.block(readTraceBytes(p), 0, p).data, p);
    }
    if (m.interprocess) {
      if (!this.mergedCst) this.mergedCst = decodeCst(readTraceBytes(this.path('0.cst')), this.path('0.cst'));
      return this.mergedCst;
    }
    const p = this.path(`${rank}.cst`);
    return decodeCst(readTraceBytes(p), p);
  }

  grammar(rank: number): Grammar {
    const m = this.meta;
    if (m.interprocess || existsSync(this.path('ug.mt'))) {
      if (!this.ugMap) {
        const b = readTraceBytes(this.path('ug.mt'));
        this.ugMap = new Int32Array(b.buffer.slice(b.byteOffset, b.byteOffset + (b.byteLength & ~3)));
      }
      const gid = this.ugMap[rank];
      if (gid === undefined || gid < 0) throw new TraceInputError(`${this.path('ug.mt')}: no grammar for rank ${rank}`);
      let g = this.grammars.get(gid);
      if (!g) {
        if (m.layout === 'final-2.5') {
          const buf = readTraceBytes(this.path('ug.cfg'));
          let off = 0;
          // skip to block `gid` by the block headers (only the wanted block is inflated)
          for (let i = 0; i < gid; i++) {
            if (off >= buf.byteLength) break;
            off = zlibBlockAt(buf, off, this.path('ug.cfg')).next;
          }
          if (off >= buf.byteLength) throw new TraceInputError(`${this.path('ug.cfg')}: no grammar ${gid}`);
          g = decodeGrammar(this.block(buf, off, this.path('ug.cfg')).data, `${this.path('ug.cfg')}#${gid}`);
        } else {
          const p = this.path(`${gid}.cfg`);
          g = decodeGrammar(readTraceBytes(p), p);
        }
        this.grammars.set(gid, g);
      }
      return g;
    }
    const p = this.path(`${rank}.cfg`);
    const raw = readTraceBytes(p);
    return decodeGrammar(m.layout === 'final-2.5' ? this.block(raw, 0, p).data : raw, p);
  }

  ts(rank: number): TsSource {
    const m = this.meta;
    if (m.layout === 'final-2.5' && existsSync(this.path('recorder.ts'))) {
      if (!this.tsIndex) {
        const buf = readTraceBytes(this.path('recorder.ts'));
        const offsets: number[] = [];
        const lengths: number[] = [];
        let off = 8 * m.totalRanks;
        if (off > buf.byteLength) throw new TraceInputError(`${this.path('recorder.ts')}: truncated header`);
        for (let r = 0; r < m.totalRanks; r++) {
          const len = Number(buf.readBigUInt64LE(8 * r));
          offsets.push(off);
          lengths.push(len);
          off += len;
        }
        if (off > buf.byteLength) throw new TraceInputError(`${this.path('recorder.ts')}: truncated (${buf.byteLength} of ${off} bytes)`);
        this.tsIndex = { offsets, lengths, buf };
      }
      const { offsets, lengths, buf } = this.tsIndex;
      const block = buf.subarray(offsets[rank], offsets[rank] + lengths[rank]);
      if (m.tsCompression && block.byteLength > 0) return memoryTs(this.block(block, 0, `${this.path('recorder.ts')} rank ${rank}`).data);
      return memoryTs(block);
    }
    return rawFileTs(this.path(`${rank}.ts`));
  }
}

/** Decodes one rank and pushes its events. */
function readRank(folder: RecorderFolder, rank: number, layers: Layer[], out: ChunkWriter): RecorderRankStats {
  const m = folder.meta;
  const cst = folder.cst(rank);
  const grammar = folder.grammar(rank);
  const terms = buildTerminals(cst, m, layers, out);
  const proc = out.dicts.proc(String(rank), m.host, m.app);
  const cursor = new GrammarCursor(grammar, `${m.dir} rank ${rank}`);
  const ts = folder.ts(rank);
  // The grammar is expanded only as far as the timestamps it must match: a grammar that claims more calls (huge
  // repeat counts) is refused before any work.
  if (grammar.calls > ts.pairs) {
    ts.close();
    throw new TraceInputError(`${m.dir}: rank ${rank} has fewer timestamps (${ts.pairs}) than calls (${grammar.calls > 1e15 ? grammar.calls.toExponential(3) : grammar.calls})`);
  }
  const B = 1 << 14;
  const tbuf = new Int32Array(B);
  const pairs = new Uint32Array(2 * B);
  let pairsLen = 0;
  let pairsPos = 0;
  let timestamps = 0;
  let records = 0;
  const res = m.resolution;
  let prev = 0;
  const pos = new Map<number, number>();
  const handleFile = new Map<number, number>();
  try {
    for (;;) {
      const n = cursor.next(tbuf);
      if (n === 0) break;
      for (let i = 0; i < n; i++) {
        if (pairsPos === pairsLen) {
          pairsLen = ts.read(pairs);
          pairsPos = 0;
          timestamps += pairsLen;
          if (pairsLen === 0) throw new TraceInputError(`${m.dir}: rank ${rank} has fewer timestamps (${timestamps}) than calls`);
        }
        const a = pairs[2 * pairsPos];
        const b = pairs[2 * pairsPos + 1];
        pairsPos++;
        const t0 = a * res + prev;
        const t1 = b * res + prev;
        prev = t0;
        const t = terms[tbuf[i]];
        if (t === undefined) throw new TraceInputError(`${m.dir}: rank ${rank} calls unknown signature ${tbuf[i]}`);
        let offset = t.offset;
        let file = t.file;
        if (t.handle >= 0) {
          if (t.openPath >= 0) handleFile.set(t.handle, t.openPath);
          file = handleFile.get(t.handle) ?? -1;
        }
        if (file >= 0 && t.layer !== Layer.MPIIO) {
          if (t.posOp !== 0) {
            if (t.posOp === 1) pos.set(t.file, 0);
            else if (t.posOp === 2 && t.seekArg >= 0) pos.set(t.file, t.seekArg);
            else if (t.posOp === 3 && pos.has(t.file) && Number.isFinite(t.seekArg)) pos.set(t.file, pos.get(t.file)! + t.seekArg);
            else pos.delete(t.file);
          } else if (offset < 0 && (t.category === Category.READ || t.category === Category.WRITE)) {
            const p = pos.get(t.file);
            if (p !== undefined) {
              offset = p;
              if (t.size > 0) pos.set(t.file, p + t.size);
            }
          }
        }
        out.push(proc, file, t.func, t.layer, t.category, offset, t.size, t0, t1, t.depth);
        records++;
      }
    }
    // count the remaining timestamps (should be none)
    let extra = pairsLen - pairsPos;
    for (;;) {
      const k = ts.read(pairs);
      if (k === 0) break;
      extra += k;
      timestamps += k;
    }
    if (extra > 0) throw new TraceInputError(`${m.dir}: rank ${rank} has ${extra} more timestamps than calls`);
  } finally {
    ts.close();
  }
  // a merged (inter-process) table counts calls of every rank: no per-rank total then
  let cstCalls = m.interprocess || existsSync(folder.path('recorder.cst')) ? -1 : 0;
  if (cstCalls === 0) for (const e of cst) cstCalls += e.count;
  return { rank, signatures: cst.length, rules: grammar.ruleLen.length, cstCalls, records, timestamps };
}

/** The warning of a Recorder folder that lacks some ranks' files. */
export function missingRanksWarning(present: number, total: number, missing: readonly number[]): string {
  return `Recorder folder has data for ${present} of ${total} ranks; missing ranks: ${formatRanges(missing)}`;
}

/** Reads a Recorder folder (every present rank, or only `ranks`) into `out`. */
export function readRecorder(dir: string, out: ChunkWriter, ranks?: readonly number[], limits: ReadLimits = {}): ReadResult {
  const meta = readRecorderMeta(dir);
  const folder = new RecorderFolder(meta, limits);
  const { present, missing } = folder.presentRanks();
  const warnings: string[] = [];
  if (present.length === 0) throw new TraceInputError(`${dir}: no rank data found (recorder.mt says ${meta.totalRanks} ranks)`);
  if (missing.length > 0 && !ranks) {
    warnings.push(missingRanksWarning(present.length, meta.totalRanks, missing));
  }
  const layers = recorderLayers(meta.funcNames);
  const todo = ranks ?? present;
  const perRank: RecorderRankStats[] = [];
  for (const r of todo) perRank.push(readRank(folder, r, layers, out));
  out.flush();
  return {
    format: 'recorder',
    events: perRank.reduce((a, s) => a + s.records, 0),
    sources: perRank.length,
    warnings,
    timeOrigin: meta.startTs,
    details: {
      version: meta.version,
      layout: meta.layout,
      totalRanks: meta.totalRanks,
      presentRanks: present.length,
      missingRanks: missing,
      ranks: perRank,
    },
  };
}

/** Lists the ranks present in a Recorder folder (used to split work across threads). */
export function recorderRanks(dir: string): { meta: RecorderMeta; present: number[]; missing: number[] } {
  const meta = readRecorderMeta(dir);
  const f = new RecorderFolder(meta);
  return { meta, ...f.presentRanks() };
}
