import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { AsyncBuffer, DecodedArray, FileMetaData } from 'hyparquet';
import { categoryOf, isStdio, layerOfName } from '../classify.js';
import { TraceInputError } from '../errors.js';
import { LimitError } from '../../../contract/errors.js';
import { DEFAULT_MAX_INFLATE } from '../../../util/limits.js';
import { Category, ChunkWriter, Layer } from '../model.js';
import type { ReadResult } from './types.js';

/**
 * Recorder traces converted to Parquet (WisIO's `recorder2parquet` output: a folder of Dask-written `part.N.parquet`
 * files with `_metadata`, `_common_metadata` and `global.json`). One row is one call.
 *
 * Columns used (others are ignored): `func_id` (function name), `tstart`/`tend` (seconds since the trace start),
 * `rank`, `hostname`, `app`, `proc_name`, `file_name`, `size`, `cat`, `io_cat`. Only `func_id`, `tstart` and `tend` are
 * required; Recorder's own converter (columns `rank, thread, tstart, tend, func_id, arg0…`) is read too, taking the
 * file from `arg0` for file calls.
 *
 * Code meanings (WisIO): `cat` is Recorder's layer (0 POSIX, 1 MPI-IO, 2 MPI, 3 HDF5, 4 user functions); `io_cat` is
 * 1 read, 2 write, 3 metadata, 4 process control, 5 IPC, 6 other. WisIO files `fsync`-like calls under "write"; here
 * a function that IOLens classifies as a sync call stays a sync call. Offsets are not stored (−1).
 */

export interface ParquetFileStats {
  path: string;
  rows: number;
  rowGroups: number;
  /** min/max of WisIO's 64-bit `file_id` / `proc_id` hashes as decimal text (absent when the column is missing). */
  ids?: Record<string, [string, string]>;
}

/** Running min/max of a 64-bit id column. */
class IdRange {
  min: bigint | null = null;
  max: bigint | null = null;
  add(col: DecodedArray | undefined, n: number): void {
    if (col === undefined) return;
    for (let i = 0; i < n; i++) {
      const raw = col[i] as unknown;
      if (raw === null || raw === undefined) continue;
      const v = typeof raw === 'bigint' ? raw : BigInt(raw as number);
      if (this.min === null || v < this.min) this.min = v;
      if (this.max === null || v > this.max) this.max = v;
    }
  }
  merge(o: [string, string] | undefined): void {
    if (!o) return;
    const lo = BigInt(o[0]);
    const hi = BigInt(o[1]);
    if (this.min === null || lo < this.min) this.min = lo;
    if (this.max === null || hi > this.max) this.max = hi;
  }
  get pair(): [string, string] | undefined {
    return this.min === null || this.max === null ? undefined : [String(this.min), String(this.max)];
  }
}

/** `part.10.parquet` sorts after `part.9.parquet`. */
function partOrder(a: string, b: string): number {
  const na = /(\d+)\.parquet$/i.exec(a);
  const nb = /(\d+)\.parquet$/i.exec(b);
  if (na && nb && a.slice(0, na.index) === b.slice(0, nb.index)) return Number(na[1]) - Number(nb[1]);
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sortParquetParts(files: string[]): string[] {
  return [...files].sort(partOrder);
}

/** A synchronous file-backed AsyncBuffer (hyparquet reads only the byte ranges it needs). */
function fileBuffer(path: string): { buf: AsyncBuffer; close: () => void } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new TraceInputError(`${path}: cannot open (${e.code ?? e.message})`);
  }
  const size = fstatSync(fd).size;
  return {
    buf: {
      byteLength: size,
      slice(start: number, end?: number): ArrayBuffer {
        const e = Math.min(end ?? size, size);
        const n = Math.max(0, e - start);
        const out = new Uint8Array(n);
        let got = 0;
        while (got < n) {
          const k = readSync(fd, out, got, n - got, start + got);
          if (k === 0) break;
          got += k;
        }
        return out.buffer;
      },
    },
    close: () => closeSync(fd),
  };
}

/** The Parquet library, loaded on first use: every other command and trace format starts without it. */
type Hyparquet = typeof import('hyparquet') & { compressors: (typeof import('hyparquet-compressors'))['compressors']; checkPages: (typeof import('./parquet-guard.js'))['checkPages'] };
let hyparquet: Hyparquet | undefined;
async function loadHyparquet(): Promise<Hyparquet> {
  if (!hyparquet) {
    const [lib, comp, guard] = await Promise.all([import('hyparquet'), import('hyparquet-compressors'), import('./parquet-guard.js')]);
    hyparquet = { ...lib, compressors: comp.compressors, checkPages: guard.checkPages };
  }
  return hyparquet;
}

function metadataOf(lib: Hyparquet, path: string, buf: AsyncBuffer): FileMetaData {
  if (buf.byteLength < 12) throw new TraceInputError(`${path}: not a Parquet file (${buf.byteLength} bytes)`);
  const tail = new Uint8Array(buf.slice(buf.byteLength - 8) as ArrayBuffer);
  if (tail[4] !== 0x50 || tail[5] !== 0x41 || tail[6] !== 0x52 || tail[7] !== 0x31) throw new TraceInputError(`${path}: not a Parquet file (no PAR1 footer)`);
  const metaLen = tail[0] | (tail[1] << 8) | (tail[2] << 16) | (tail[3] << 24);
  if (metaLen <= 0 || metaLen + 8 > buf.byteLength) throw new TraceInputError(`${path}: bad Parquet footer length ${metaLen}`);
  try {
    return lib.parquetMetadata(buf.slice(buf.byteLength - metaLen - 8) as ArrayBuffer);
  } catch (err) {
    throw new TraceInputError(`${path}: corrupt Parquet metadata (${(err as Error).message})`);
  }
}

const WANTED = ['func_id', 'tstart', 'tend', 'rank', 'hostname', 'app', 'proc_name', 'file_name', 'size', 'cat', 'io_cat', 'arg0', 'file_id', 'proc_id', 'level'] as const;
type Wanted = (typeof WANTED)[number];

/** Recorder layer code (`cat`) → our layer; POSIX calls on `FILE*` are STDIO. */
function layerOf(cat: number, name: string): Layer {
  switch (cat) {
    case 0:
      return isStdio(name) ? Layer.STDIO : Layer.POSIX;
    case 1:
      return name.startsWith('MPI_File') || name.startsWith('PMPI_File') ? Layer.MPIIO : Layer.OTHER;
    case 3:
      return Layer.HDF5;
    case 2:
    case 4:
      return Layer.OTHER;
    default:
      return layerOfName(name);
  }
}

/** WisIO `io_cat` → our category (sync calls by name win over WisIO's "write"). */
function categoryFrom(ioCat: number, name: string): Category {
  const byName = categoryOf(name);
  if (byName === Category.SYNC) return byName;
  switch (ioCat) {
    case 1:
      return Category.READ;
    case 2:
      return Category.WRITE;
    case 3:
      return Category.METADATA;
    case 4:
    case 5:
    case 6:
      return Category.OTHER;
    default:
      return byName;
  }
}

function num(col: DecodedArray | undefined, i: number): number {
  if (col === undefined) return NaN;
  const v = col[i] as unknown;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v !== '') return Number(v);
  return NaN;
}

function str(col: DecodedArray | undefined, i: number): string | undefined {
  if (col === undefined) return undefined;
  const v = col[i] as unknown;
  if (v === null || v === undefined) return undefined;
  return typeof v === 'string' ? v : String(v);
}

/** Reads one Parquet file, row group by row group, into `out`. */
export async function readParquetFile(path: string, out: ChunkWriter): Promise<ParquetFileStats> {
  const lib = await loadHyparquet();
  const { buf, close } = fileBuffer(path);
  try {
    const meta = metadataOf(lib, path, buf);
    const present = new Set(meta.schema.slice(1).map((s) => s.name));
    for (const c of ['func_id', 'tstart', 'tend'] as const) {
      if (!present.has(c)) throw new TraceInputError(`${path}: no "${c}" column (not a Recorder Parquet trace)`);
    }
    const columns = WANTED.filter((c) => present.has(c));
    const dicts = out.dicts;
    const app0 = basename(dirname(path));
    const procCache = new Map<string, number>();
    let rowStart = 0;
    let rows = 0;
    const fileIds = new IdRange();
    const procIds = new IdRange();
    for (const rg of meta.row_groups) {
      const n = Number(rg.num_rows);
      // The footer's sizes are checked before hyparquet allocates by them.
      if (!(Number.isSafeInteger(n) && n >= 0 && n <= 2 ** 31)) throw new TraceInputError(`${path}: bad row count ${rg.num_rows} in a row group`);
      let unpacked = 0;
      for (const c of rg.columns) unpacked += Number(c.meta_data?.total_uncompressed_size ?? 0);
      if (!(unpacked >= 0 && unpacked <= DEFAULT_MAX_INFLATE)) throw new LimitError(`${path}: a row group of ${unpacked} bytes uncompressed, past the ${DEFAULT_MAX_INFLATE}-byte budget`);
      // Page headers too: hyparquet allocates by a page's value count before it decodes anything, and writes every
      // repeat of a run-length encoded run whatever its array's length.
      lib.checkPages(path, buf, rg, new Set(columns), DEFAULT_MAX_INFLATE, { schema: meta.schema, compressors: lib.compressors });
      const cols = new Map<Wanted, DecodedArray>();
      try {
        await lib.parquetRead({
          file: buf,
          metadata: meta,
          columns: [...columns],
          rowStart,
          rowEnd: rowStart + n,
          compressors: lib.compressors,
          onChunk: (chunk) => {
            const name = chunk.columnName as Wanted;
            let dst = cols.get(name);
            const lo = Math.max(chunk.rowStart, rowStart);
            const hi = Math.min(chunk.rowEnd, rowStart + n);
            if (lo === rowStart && hi === rowStart + n && chunk.rowStart === rowStart) {
              cols.set(name, chunk.columnData);
              return;
            }
            if (dst === undefined || dst.length !== n) {
              dst = new Array<unknown>(n) as DecodedArray;
              cols.set(name, dst);
            }
            for (let r = lo; r < hi; r++) (dst as unknown[])[r - rowStart] = chunk.columnData[r - chunk.rowStart];
          },
        });
      } catch (err) {
        if (err instanceof TraceInputError) throw err;
        throw new TraceInputError(`${path}: cannot decode row group at row ${rowStart} (${(err as Error).message})`);
      }
      const func = cols.get('func_id');
      const tstart = cols.get('tstart');
      const tend = cols.get('tend');
      const rank = cols.get('rank');
      const host = cols.get('hostname');
      const app = cols.get('app');
      const procName = cols.get('proc_name');
      const fileName = cols.get('file_name');
      const size = cols.get('size');
      const cat = cols.get('cat');
      const ioCat = cols.get('io_cat');
      const arg0 = cols.get('arg0');
      // the call depth (0: called by the application), where the converter kept it
      const level = cols.get('level');
      fileIds.add(cols.get('file_id'), n);
      procIds.add(cols.get('proc_id'), n);
      for (let i = 0; i < n; i++) {
        const name = str(func, i) ?? '';
        const r = num(rank, i);
        const label = Number.isFinite(r) ? String(r) : (str(procName, i) ?? '0');
        const h = str(host, i) ?? 'unknown';
        const a = str(app, i) ?? app0;
        const pk = `${label}\u0000${h}\u0000${a}`;
        let proc = procCache.get(pk);
        if (proc === undefined) {
          proc = dicts.proc(label, h, a);
          procCache.set(pk, proc);
        }
        const layer = layerOf(cat ? num(cat, i) : -1, name);
        const category = categoryFrom(ioCat ? num(ioCat, i) : -1, name);
        let fname = str(fileName, i);
        if (fname === undefined && arg0 !== undefined && category !== Category.OTHER && (layer === Layer.POSIX || layer === Layer.STDIO)) {
          const a0 = str(arg0, i);
          if (a0 && a0 !== '%p' && a0 !== '???') fname = a0;
        }
        const file = fname === undefined || fname === '' ? -1 : dicts.files.id(fname);
        const s = num(size, i);
        const bytes = (category === Category.READ || category === Category.WRITE) && s >= 0 ? s : -1;
        const t0 = num(tstart, i);
        let t1 = num(tend, i);
        if (!Number.isFinite(t0)) throw new TraceInputError(`${path}: row ${rowStart + i} has no start time`);
        if (!(t1 >= t0)) t1 = t0;
        const depth = level ? num(level, i) : 0;
        out.push(proc, file, dicts.funcs.id(name), layer, category, -1, bytes, t0, t1, Number.isFinite(depth) && depth > 0 ? depth : 0);
      }
      rows += n;
      rowStart += n;
    }
    const st: ParquetFileStats = { path, rows, rowGroups: meta.row_groups.length };
    const f = fileIds.pair;
    const p = procIds.pair;
    if (f || p) st.ids = { ...(f ? { file_id: f } : {}), ...(p ? { proc_id: p } : {}) };
    return st;
  } finally {
    close();
  }
}

/** Row count of a Dask `_metadata` summary file (all parts), or null when absent/unreadable. */
function summaryRows(lib: Hyparquet, dir: string): number | null {
  const p = join(dir, '_metadata');
  if (!existsSync(p)) return null;
  const { buf, close } = fileBuffer(p);
  try {
    return Number(metadataOf(lib, p, buf).num_rows);
  } catch {
    return null;
  } finally {
    close();
  }
}

/** `global.json` of WisIO (min/max of `file_id`, `proc_id`, `tmid`), kept as text numbers (they exceed 2^53). */
function globalJson(dir: string): Record<string, [string, string]> | null {
  const p = join(dir, 'global.json');
  if (!existsSync(p)) return null;
  const text = readFileSync(p, 'utf8');
  const out: Record<string, [string, string]> = {};
  for (const m of text.matchAll(/"([^"]+)"\s*:\s*\[\s*(-?[\d.eE+]+)\s*,\s*(-?[\d.eE+]+)\s*\]/g)) out[m[1]] = [m[2], m[3]];
  return out;
}

/** Reads Recorder Parquet files (a folder's parts in order) into `out`. */
export async function readRecorderParquet(files: readonly string[], dir: string | null, out: ChunkWriter): Promise<ReadResult> {
  const perFile: ParquetFileStats[] = [];
  for (const f of files) perFile.push(await readParquetFile(f, out));
  out.flush();
  const events = perFile.reduce((a, s) => a + s.rows, 0);
  const warnings: string[] = [];
  const details: Record<string, unknown> = { files: perFile.map((s) => ({ ...s, path: basename(s.path) })) };
  if (dir !== null) {
    const total = summaryRows(await loadHyparquet(), dir);
    if (total !== null) {
      details.metadataRows = total;
      if (total !== events) warnings.push(`_metadata lists ${total} rows but the Parquet parts hold ${events}`);
    }
    const g = globalJson(dir);
    if (g) {
      details.global = g;
      // WisIO's global.json holds the min/max of the id hashes over every row: a check that every part was read
      for (const k of ['file_id', 'proc_id']) {
        const r = new IdRange();
        for (const s of perFile) r.merge(s.ids?.[k]);
        const got = r.pair;
        if (got && g[k] && (got[0] !== g[k][0] || got[1] !== g[k][1])) {
          warnings.push(`global.json says ${k} spans ${g[k][0]}..${g[k][1]} but the parts span ${got[0]}..${got[1]}`);
        }
      }
    }
  }
  return { format: 'recorder-parquet', events, sources: perFile.length, warnings, details };
}
