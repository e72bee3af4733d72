import { closeSync, createReadStream, mkdirSync, mkdtempSync, openSync, readdirSync, readSync, rmSync, writeSync } from 'node:fs';
import { LimitError } from '../../../contract/errors.js';
import { DEFAULT_MAX_ARCHIVE_ENTRIES, InflateBudget, sizeText, type ReadLimits } from '../../../util/limits.js';
import { openTraceFile } from './lines.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { TraceInputError } from '../errors.js';

/**
 * A small streaming reader of tar archives (POSIX ustar, with pax `path` records and GNU long names), optionally
 * gzip-compressed, used to open trace archives such as WisIO's `recorder-parquet.tar.gz` without a `tar` binary.
 *
 * Only regular files and directories are extracted; links, devices and FIFOs are skipped. Entry names are
 * sanitised: a leading `/` is dropped and names with a `..` component, empty names and AppleDouble `._*` files are
 * skipped, so nothing is ever written outside the destination folder.
 *
 * Budgets: a gzip-compressed archive may inflate to at most `limits.maxInflate` bytes (headers and data together;
 * the gunzip stops there), an archive may hold at most `limits.maxEntries` members (each extracted one costs an inode
 * and a read: an archive of 400,000 empty files stops at the budget, not after minutes), and a pax or GNU long-name
 * record may hold at most `MAX_META_BYTES`.
 */

/** Largest pax extended header or GNU long name accepted (real ones are a few hundred bytes). */
export const MAX_META_BYTES = 1 << 20;

const BLOCK = 512;

/** True when `path` names a tar archive (by extension). */
export function isTarName(path: string): boolean {
  return /\.(tar|tar\.gz|tgz)$/i.test(path);
}

function field(h: Uint8Array, start: number, len: number): string {
  let end = start;
  while (end < start + len && h[end] !== 0) end++;
  return Buffer.from(h.buffer, h.byteOffset + start, end - start).toString('utf8');
}

/** Parses a numeric header field: octal text (space/NUL padded) or GNU base-256 (high bit of the first byte set). */
export function tarNumber(h: Uint8Array, start: number, len: number): number {
  if (h[start] & 0x80) {
    let v = h[start] & 0x7f;
    for (let i = start + 1; i < start + len; i++) v = v * 256 + h[i];
    return v;
  }
  let v = 0;
  let seen = false;
  for (let i = start; i < start + len; i++) {
    const b = h[i];
    if (b === 0 || (b === 32 && seen)) break;
    if (b === 32) continue;
    if (b < 48 || b > 55) return NaN;
    v = v * 8 + (b - 48);
    seen = true;
  }
  return seen ? v : 0;
}

function checksumOk(h: Uint8Array): boolean {
  const stored = tarNumber(h, 148, 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i];
  return sum === stored;
}

/** Parses pax extended-header records (`<len> <key>=<value>\n`…). */
export function parsePax(data: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let pos = 0;
  while (pos < data.length) {
    const sp = data.indexOf(32, pos);
    if (sp < 0) break;
    const len = Number(data.toString('latin1', pos, sp));
    if (!Number.isInteger(len) || len <= 0 || pos + len > data.length) break;
    const rec = data.toString('utf8', sp + 1, pos + len - 1); // without the trailing newline
    const eq = rec.indexOf('=');
    if (eq > 0) out.set(rec.slice(0, eq), rec.slice(eq + 1));
    pos += len;
  }
  return out;
}

/** Returns a safe relative path for an entry name, or null when the entry must be skipped. */
export function safeEntryPath(name: string): string | null {
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0) return null;
  if (parts.some((p) => p === '..' || p.includes('\0'))) return null;
  if (parts[parts.length - 1].startsWith('._')) return null;
  return parts.join('/');
}

export interface TarEntry {
  path: string;
  type: 'file' | 'dir';
  size: number;
}

/**
 * Streams the archive at `path` and calls `onEntry` for every regular file and directory; `onData` receives the
 * file's bytes in order. Throws TraceInputError on a damaged archive.
 */
export async function readTar(
  path: string,
  onEntry: (e: TarEntry) => void,
  onData: (chunk: Buffer) => void,
  onEnd: () => void,
  limits: ReadLimits = {},
): Promise<number> {
  const fd = openTraceFile(path);
  const magic = Buffer.alloc(2);
  let got: number;
  try {
    got = readSync(fd, magic, 0, 2, 0);
  } catch (err) {
    closeSync(fd);
    throw new TraceInputError(`${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const gz = got === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
  // a plain archive extracts to at most its own size; a compressed one is held to the decompression budget
  const budget = gz ? new InflateBudget(limits.maxInflate, 'archive') : null;
  const file = createReadStream(path, { fd, highWaterMark: 1 << 20 });
  const stream = gz ? file.pipe(createGunzip({ chunkSize: 1 << 20 })) : file;
  if (gz) file.on('error', (err) => stream.destroy(err));

  let pending: Buffer = Buffer.alloc(0);
  // state: remaining bytes of the current entry's data, its padding, and how the data is used
  let dataLeft = 0;
  let padLeft = 0;
  type Sink = 'file' | 'meta' | 'skip';
  let sink = 'skip' as Sink;
  let meta: Buffer[] = [];
  let metaKind = '';
  let longName: string | undefined;
  let paxPath: string | undefined;
  let done = false;
  let entries = 0;
  let members = 0;
  const maxMembers = limits.maxEntries ?? DEFAULT_MAX_ARCHIVE_ENTRIES;
  let sawHeader = false;

  const header = (h: Buffer): void => {
    if (h.every((b) => b === 0)) {
      done = true;
      return;
    }
    if (!checksumOk(h)) throw new TraceInputError(`${path}: not a tar archive (bad header checksum at an entry)`);
    sawHeader = true;
    const size = tarNumber(h, 124, 12);
    if (!Number.isFinite(size) || size < 0) throw new TraceInputError(`${path}: bad entry size in the tar header`);
    const type = String.fromCharCode(h[156] || 48);
    let name = field(h, 0, 100);
    if (field(h, 257, 5) === 'ustar') {
      const prefix = field(h, 345, 155);
      if (prefix) name = `${prefix}/${name}`;
    }
    dataLeft = size;
    padLeft = (BLOCK - (size % BLOCK)) % BLOCK;
    if (type === 'x' || type === 'L') {
      if (size > MAX_META_BYTES) throw new LimitError(`${path}: a ${type === 'x' ? 'pax' : 'long-name'} header of ${size} bytes (at most ${sizeText(MAX_META_BYTES)} accepted)`);
      sink = 'meta';
      meta = [];
      metaKind = type;
      return;
    }
    if (type === 'g' || type === 'K') {
      sink = 'skip';
      return;
    }
    if (++members > maxMembers) throw new LimitError(`${path}: an archive of more than ${maxMembers} entries (the limit of one archive)`);
    const full = paxPath ?? longName ?? name;
    paxPath = undefined;
    longName = undefined;
    const safe = safeEntryPath(full);
    const kind = type === '0' || type === '7' ? 'file' : type === '5' ? 'dir' : null;
    if (safe === null || kind === null) {
      sink = 'skip';
      return;
    }
    entries++;
    onEntry({ path: safe, type: kind, size: kind === 'dir' ? 0 : size });
    sink = kind === 'file' ? 'file' : 'skip';
    if (kind === 'file' && size === 0) onEnd();
  };

  const finishData = (): void => {
    if (sink === 'meta') {
      const data = Buffer.concat(meta);
      if (metaKind === 'x') {
        const p = parsePax(data).get('path');
        if (p !== undefined) paxPath = p;
      } else {
        const z = data.indexOf(0);
        longName = data.toString('utf8', 0, z < 0 ? data.length : z);
      }
      meta = [];
    } else if (sink === 'file') onEnd();
    sink = 'skip';
  };

  try {
    for await (const raw of stream as AsyncIterable<Buffer>) {
      if (done) continue;
      budget?.charge(raw.length, path);
      let buf: Buffer = pending.length > 0 ? Buffer.concat([pending, raw]) : raw;
      pending = Buffer.alloc(0);
      let pos = 0;
      while (!done && pos < buf.length) {
        if (dataLeft > 0) {
          const n = Math.min(dataLeft, buf.length - pos);
          const part = buf.subarray(pos, pos + n);
          if (sink === 'file') onData(part);
          else if (sink === 'meta') meta.push(Buffer.from(part));
          dataLeft -= n;
          pos += n;
          if (dataLeft === 0) finishData();
          continue;
        }
        if (padLeft > 0) {
          const n = Math.min(padLeft, buf.length - pos);
          padLeft -= n;
          pos += n;
          continue;
        }
        if (buf.length - pos < BLOCK) break;
        header(buf.subarray(pos, pos + BLOCK));
        pos += BLOCK;
        if (!done && dataLeft === 0 && sink === 'meta') finishData();
      }
      if (pos < buf.length && !done) pending = Buffer.from(buf.subarray(pos));
    }
  } catch (err) {
    if (err instanceof TraceInputError || err instanceof LimitError) throw err;
    const e = err as NodeJS.ErrnoException;
    if (e && e.code && e.code.startsWith('Z_')) throw new TraceInputError(`${path}: corrupt gzip data (${e.message})`);
    throw err;
  } finally {
    stream.destroy();
    file.destroy();
  }
  if (!sawHeader) throw new TraceInputError(`${path}: empty or not a tar archive`);
  if (!done && (dataLeft > 0 || pending.length > 0)) throw new TraceInputError(`${path}: truncated tar archive`);
  return entries;
}

/**
 * Extracts the archive at `path` into `dest` (which must exist); returns the number of entries extracted. An entry
 * that cannot be written where an earlier one stands (a file, then a folder of the same name, or the reverse) is a
 * TraceInputError naming both.
 */
export async function extractTar(path: string, dest: string, limits: ReadLimits = {}): Promise<number> {
  let fd = -1;
  const place = (entry: string, make: () => void): void => {
    try {
      make();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'EISDIR' || code === 'ENOTDIR') {
        throw new TraceInputError(`${path}: entry "${entry}" clashes with an earlier entry (a file and a folder of the same name)`);
      }
      throw new TraceInputError(`${path}: cannot extract "${entry}" (${code ?? (err as Error).message})`);
    }
  };
  return readTar(
    path,
    (e) => {
      const target = join(dest, e.path);
      if (e.type === 'dir') {
        place(e.path, () => mkdirSync(target, { recursive: true }));
        return;
      }
      const slash = e.path.lastIndexOf('/');
      if (slash > 0) place(e.path, () => mkdirSync(join(dest, e.path.slice(0, slash)), { recursive: true }));
      place(e.path, () => (fd = openSync(target, 'w')));
    },
    (chunk) => {
      let off = 0;
      while (off < chunk.length) off += writeSync(fd, chunk, off, chunk.length - off);
    },
    () => {
      if (fd >= 0) closeSync(fd);
      fd = -1;
    },
    limits,
  ).finally(() => {
    if (fd >= 0) closeSync(fd);
  });
}

/** Temp folders created for extracted archives; removed by `cleanup()` and, as a last resort, at process exit. */
const live = new Set<string>();
let hooked = false;

function removeAll(): void {
  for (const d of live) rmSync(d, { recursive: true, force: true });
  live.clear();
}

function hook(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', removeAll);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      removeAll();
      process.kill(process.pid, sig);
    });
  }
}

/**
 * Extracts a tar archive into a fresh temporary folder. Returns the folder to read (the archive's single top-level
 * folder when it has exactly one, else the temp folder itself) and a `cleanup` that removes everything.
 */
export async function extractToTemp(path: string, limits: ReadLimits = {}): Promise<{ dir: string; cleanup: () => void }> {
  const root = mkdtempSync(join(limits.scratch ?? tmpdir(), 'iolens-trace-'));
  live.add(root);
  hook();
  const cleanup = (): void => {
    rmSync(root, { recursive: true, force: true });
    live.delete(root);
  };
  try {
    await extractTar(path, root, limits);
  } catch (err) {
    cleanup();
    throw err;
  }
  const top = readdirSync(root, { withFileTypes: true });
  const dir = top.length === 1 && top[0].isDirectory() ? join(root, top[0].name) : root;
  return { dir, cleanup };
}
