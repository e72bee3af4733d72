import { decompressRegion, inflateChunks, InflateBudget, ratioLimit, regionTooLarge, type CompressionName, COMPRESSION_NAMES } from './compression.js';
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { LimitError } from '../../contract/errors.js';
import { DEFAULT_MAX_INFLATE, sizeText } from '../../util/limits.js';
import { openRegularFile, readRegularFile } from '../../util/read-file.js';
import { fsPath } from '../../util/byte-path.js';
import { DarshanFormatError } from './errors.js';
import { inflateFileChunks, inflateOffThread } from './inflate-thread.js';
import { HEADER_SIZE_341, parseHeader, type LogHeader, type Region, MAX_MODULES } from './header.js';
import { mountLookup, parseJob, type JobRecord, type MountEntry } from './job.js';
import { parseNames, type NameTable } from './names.js';
import { Payload } from './payload.js';
import { MODULES, moduleByName } from './modules/registry.js';
import type { DecodeOutcome, ModuleTable, NameResolver } from './module-types.js';

/**
 * Largest log file IOLens reads whole (darshan logs of real jobs are far below this), and largest compressed region it
 * reads into memory. A log opened with `openFile` may be larger: only its head is read, its DXT regions are streamed.
 */
export const MAX_LOG_BYTES = 2 ** 31 - 1;

/** How a log is read. */
export interface OpenOptions {
  /** Bytes all regions of the log together may inflate to (default `DEFAULT_MAX_INFLATE`, 1 GiB). */
  readonly maxInflate?: number;
}

/** A module slot with data (or flagged partial), in current numbering. */
export interface ModuleSlotInfo {
  readonly id: number;
  /** Current module name, or null for ids darshan-util does not know (18..63). */
  readonly name: string | null;
  readonly region: Region;
  readonly version: number;
  /** The runtime ran out of memory for this module: some records are missing. */
  readonly partial: boolean;
}

/**
 * A Darshan log opened for reading. Opening reads and validates the header, job record, mount table and name
 * records; module regions are decompressed and decoded only when asked for, and then cached.
 */
export class DarshanLog {
  readonly header: LogHeader;
  readonly job: JobRecord;
  readonly names: NameTable;
  readonly fileBytes: number;
  readonly source: string;
  private readonly buf: Uint8Array;
  private readonly budget: InflateBudget;
  /** Budget already charged per region offset: a region inflated again (regionBytes) is not charged twice. */
  private readonly charged = new Map<number, number>();
  /** Regions that met a limit (the ratio cap, the region size): asked again, they fail again without inflating. */
  private readonly limited = new Map<number, LimitError>();
  private readonly cache = new Map<number, DecodeOutcome>();
  /** The decoding error of regions read whole in batches (`dxtTables`) and not decoded at once: null when none. */
  private readonly streamedErrors = new Map<number, string | null>();
  private mountLookup: ((name: string) => MountEntry | null) | null = null;

  /** The file a log opened with `openFile` reads its regions from (`buf` then holds only the header, job and names). */
  private readonly file: { path: string; size: number } | null;

  private constructor(buf: Uint8Array, source: string, opts: OpenOptions, file: { path: string; size: number } | null = null) {
    this.buf = buf;
    this.file = file;
    this.budget = new InflateBudget(opts.maxInflate);
    this.source = source;
    this.fileBytes = file ? file.size : buf.length;
    this.header = parseHeader(buf, this.fileBytes);
    const h = this.header;
    if (h.compression > 2) throw new DarshanFormatError(`unknown compression method ${h.compression} in darshan log file`);
    this.job = parseJob(this.inflate(h.jobRegion, 'job'), h);
    const names = h.nameRegion.len > 0 ? this.inflate(h.nameRegion, 'name record') : new Uint8Array(0);
    this.names = parseNames(names, h.byteOrder === 'little', h.minor === 0);
  }

  /**
   * Opens a log file. Throws DarshanFormatError (bad log), InputError (not a regular file: a directory, a FIFO …),
   * LimitError (too large) or a Node fs error (missing file, no permission).
   */
  static open(path: string, opts: OpenOptions = {}): DarshanLog {
    return new DarshanLog(unwrapped(readRegularFile(path, MAX_LOG_BYTES, 'a Darshan log'), opts), path, opts);
  }

  /**
   * Opens a log file reading only its header, job and name regions; module regions are read from the file when they
   * are used (`regionChunks` streams them), so memory does not hold the whole log. Same checks and errors as `open`,
   * but the log may be larger than `MAX_LOG_BYTES` (a DXT trace of 10^8 segments is ~2.4 GB): its regions are read
   * whole only up to that size each (`decode`), and streamed whatever their size (`regionChunks`).
   */
  static openFile(path: string, opts: OpenOptions = {}): DarshanLog {
    const { fd, size } = openRegularFile(path, 'a Darshan log');
    try {
      const head = readAt(fd, 0, Math.min(size, HEADER_SIZE_341));
      // a log gzip- or bzip2-compressed as a whole is unpacked in memory (its regions cannot be read in place)
      if (wrapping(head)) {
        if (size > MAX_LOG_BYTES) throw new LimitError(`is ${size} bytes, larger than IOLens reads (${sizeText(MAX_LOG_BYTES)})`);
        return new DarshanLog(unwrapped(readAt(fd, 0, size), opts), path, opts);
      }
      let end = head.length;
      try {
        const h = parseHeader(head, size);
        end = Math.max(end, h.jobRegion.off + h.jobRegion.len, h.nameRegion.off + h.nameRegion.len);
      } catch {
        // a header error: reading it again below (from the whole head) reports it
      }
      return new DarshanLog(end > head.length ? readAt(fd, 0, end) : head, path, opts, { path, size });
    } finally {
      closeSync(fd);
    }
  }

  /** Reads a log from memory. */
  static fromBytes(buf: Uint8Array, source = '<memory>', opts: OpenOptions = {}): DarshanLog {
    return new DarshanLog(unwrapped(buf, opts), source, opts);
  }

  /** The log's bytes (unpacked when the file was gzip- or bzip2-compressed), when it was read whole; else null. */
  get wholeBytes(): Uint8Array | null {
    return this.file ? null : this.buf;
  }

  /** Bytes inflated so far, as charged to the log's decompression budget. */
  get inflatedBytes(): number {
    return this.budget.used;
  }

  get compressionName(): CompressionName {
    return COMPRESSION_NAMES[this.header.compression] ?? 'UNKNOWN';
  }

  /** Slots with data or a partial flag, in id order (darshan-parser's region list). */
  slots(): ModuleSlotInfo[] {
    const out: ModuleSlotInfo[] = [];
    const h = this.header;
    for (let i = 0; i < MAX_MODULES; i++) {
      const partial = ((h.partialMask >> BigInt(i)) & 1n) === 1n;
      if (h.moduleRegions[i].len > 0 || partial) {
        out.push({ id: i, name: MODULES[i]?.name ?? null, region: h.moduleRegions[i], version: h.moduleVersions[i], partial });
      }
    }
    return out;
  }

  /** True when the log has records for the module (by current name). */
  has(name: string): boolean {
    const row = moduleByName(name);
    return !!row && this.header.moduleRegions[row.id].len > 0;
  }

  isPartial(id: number): boolean {
    return ((this.header.partialMask >> BigInt(id)) & 1n) === 1n;
  }

  /**
   * The error that stops decoding the module's region (`decode(...).error`), or null: from a reading of it in batches
   * that went to its end when there was one (the same error, `dxtTables`), so a streamed region is not decoded whole
   * again just to be checked. Throws as `decode` does.
   */
  decodeError(nameOrId: string | number): string | null {
    const row = typeof nameOrId === 'number' ? MODULES[nameOrId] : moduleByName(nameOrId);
    if (row && !this.cache.has(row.id) && this.streamedErrors.has(row.id)) return this.streamedErrors.get(row.id)!;
    return this.decode(nameOrId)?.error ?? null;
  }

  /** Notes how a reading of the module's region in batches ended (`dxtTables`): its error, or null at its end. */
  noteStreamed(id: number, error: string | null): void {
    this.streamedErrors.set(id, error);
  }

  /**
   * Decodes a module's records (cached). Returns null when the log has no data for it. A region that stops
   * mid-record yields the records read so far plus `error`, as darshan-parser prints them before failing.
   */
  decode<T extends ModuleTable = ModuleTable>(nameOrId: string | number): DecodeOutcome<T> | null {
    const row = typeof nameOrId === 'number' ? MODULES[nameOrId] : moduleByName(nameOrId);
    if (!row || !row.codec) return null;
    const region = this.header.moduleRegions[row.id];
    if (region.len === 0) return null;
    const hit = this.cache.get(row.id);
    if (hit) return hit as DecodeOutcome<T>;
    const codec = row.codec;
    const version = this.header.moduleVersions[row.id];
    let out: DecodeOutcome;
    if (!codec.versions.includes(version)) {
      out = {
        table: codec.decode(new Payload(new Uint8Array(0), true), { version: codec.currentVersion, byteOrder: 'little', moduleVersions: this.header.moduleVersions }).table,
        error: `invalid ${row.name} module log format version (expected ${codec.currentVersion}, got ${version})`,
      };
    } else {
      const payload = new Payload(this.inflate(region, row.name), this.header.byteOrder === 'little');
      out = codec.decode(payload, { version, byteOrder: this.header.byteOrder, moduleVersions: this.header.moduleVersions });
    }
    this.cache.set(row.id, out);
    return out as DecodeOutcome<T>;
  }

  /** The module's table, or null when absent. Throws if the region is corrupt. */
  table<T extends ModuleTable = ModuleTable>(name: string): T | null {
    const o = this.decode<T>(name);
    if (!o) return null;
    if (o.error) throw new DarshanFormatError(`failed to parse ${name} module record: ${o.error}`);
    return o.table;
  }

  /** The raw decompressed bytes of a module region (for tools that need them). */
  regionBytes(id: number): Uint8Array {
    const region = this.header.moduleRegions[id];
    return region.len === 0 ? new Uint8Array(0) : this.inflate(region, MODULES[id]?.name ?? `module ${id}`);
  }

  /**
   * The decompressed bytes of a zlib module region in pieces of about `chunk` bytes, inflated off the main thread
   * one zlib stream after another, charged to the log's budget as they come (a bomb stops at the budget, as with
   * `regionBytes`). Null when the region is empty or not zlib (then use `decode` or `regionBytes`). The pieces are
   * the region's bytes in order; errors are those of `regionBytes`. A large region of a log opened with `openFile`
   * is inflated on a worker thread of its own (`inflateFileChunks`, at most `ahead` pieces ahead of the caller) unless
   * `offThread` is false ('always': whatever its size, for tests): a piece is then valid only until the next one is
   * asked for.
   */
  regionChunks(id: number, chunk = 1 << 20, offThread: boolean | 'always' = true, ahead = 4): AsyncGenerator<Uint8Array> | null {
    const region = this.header.moduleRegions[id];
    if (region.len === 0 || this.header.compression !== 0) return null;
    const file = this.file;
    const what = MODULES[id]?.name ?? `module ${id}`;
    const again = this.charged.get(region.off);
    const budget = again === undefined ? this.budget : new InflateBudget(again);
    const before = budget.used;
    const done = () => {
      if (again === undefined) this.charged.set(region.off, Math.max(1, budget.used - before));
    };
    if (file && (offThread === 'always' || (offThread && inflateOffThread(region.len)))) return inflateFileChunks(file.path, region.off, region.len, what, budget, chunk, done, false, ahead);
    // the region's compressed bytes from `from` on: streamed from the file, or from memory
    const open = file
      ? (from: number) => createReadStream(fsPath(file.path), { start: region.off + from, end: region.off + region.len - 1, highWaterMark: chunk })
      : (from: number) => Readable.from([Buffer.from(this.buf.buffer, this.buf.byteOffset + region.off + from, region.len - from)]);
    return inflateChunks(region.len, open, what, budget, chunk, done);
  }

  /** Mount entry for a record name: the first (longest) mount path that is a plain prefix of the name. */
  mountOf(name: string | null): MountEntry | null {
    return name === null ? null : (this.mountLookup ??= mountLookup(this.job.mounts))(name);
  }

  /** darshan-parser's name/mount lookups. */
  parserNames(): NameResolver {
    return { name: (id) => this.names.getAsDarshanUtil(id), mount: (n) => this.mountOf(n) };
  }

  /** A region's stored bytes (read from the file when the log was opened with `openFile`). */
  private bytesOf(region: Region): Uint8Array {
    if (region.off + region.len <= this.buf.length || this.file === null) return this.buf.subarray(region.off, region.off + region.len);
    const fd = openSync(fsPath(this.file.path), 'r');
    try {
      return readAt(fd, region.off, region.len);
    } finally {
      closeSync(fd);
    }
  }

  private inflate(region: Region, what: string): Uint8Array {
    const before = this.budget.used;
    const again = this.charged.get(region.off);
    const budget = again === undefined ? this.budget : new InflateBudget(again);
    const limited = this.limited.get(region.off);
    if (limited) throw limited;
    let out: Uint8Array;
    try {
      // a region read whole is held in memory, compressed and inflated: past MAX_LOG_BYTES (only in a log opened
      // with `openFile`) it could not inflate within MAX_REGION_BYTES anyway
      if (region.len > MAX_LOG_BYTES) throw regionTooLarge(`the ${what} region`);
      out = decompressRegion(this.bytesOf(region), this.header.compression, what, budget);
    } catch (err) {
      if (err instanceof LimitError) this.limited.set(region.off, err);
      throw err;
    }
    if (again === undefined) this.charged.set(region.off, Math.max(1, this.budget.used - before));
    return out;
  }
}

/** Whether a file is a whole log compressed by gzip or bzip2 (as archives keep them), by its first bytes. */
function wrapping(head: Uint8Array): 'gzip' | 'bzip2' | null {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head.length >= 4 && head[0] === 0x42 && head[1] === 0x5a && head[2] === 0x68 && head[3] >= 0x31 && head[3] <= 0x39) return 'bzip2';
  return null;
}

/**
 * The log inside a gzip or bzip2 file (`iolens report run.darshan.gz`), or the bytes as they are. Unpacking is bounded
 * as a region's inflation is: the log's budget, the ratio cap of records and the largest log IOLens reads.
 */
function unwrapped(buf: Uint8Array, opts: OpenOptions): Uint8Array {
  const kind = wrapping(buf);
  if (!kind) return buf;
  const limit = Math.min(opts.maxInflate ?? DEFAULT_MAX_INFLATE, MAX_LOG_BYTES, ratioLimit(buf.length, 'log'));
  let out: Uint8Array;
  try {
    out = kind === 'gzip' ? gunzipSync(buf, { maxOutputLength: limit }) : decompressRegion(buf, 1, 'bzip2-compressed log', limit);
  } catch (err) {
    if (err instanceof LimitError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new LimitError(`unpacks to more than ${sizeText(limit)} (a ${kind}-compressed log; raise the budget with --max-inflate)`);
    throw new DarshanFormatError(`a ${kind}-compressed file that does not unpack (${(err as Error).message.split('\n')[0]})`);
  }
  if (wrapping(out)) throw new DarshanFormatError(`a ${kind}-compressed file holding another compressed file: unpack it first`);
  try {
    parseHeader(out);
  } catch (err) {
    if (err instanceof DarshanFormatError) throw new DarshanFormatError(`a ${kind}-compressed file, but not of a Darshan log: ${err.message}`);
    throw err;
  }
  return out;
}

/** `len` bytes of the file at `off` (fewer when it ends first). */
function readAt(fd: number, off: number, len: number): Buffer {
  const buf = Buffer.allocUnsafe(len);
  let got = 0;
  while (got < len) {
    const n = readSync(fd, buf, got, len - got, off + got);
    if (n === 0) break;
    got += n;
  }
  return got === len ? buf : buf.subarray(0, got);
}
