import { createReadStream, readSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { IOLensError, LimitError } from '../../contract/errors.js';
import { DEFAULT_MAX_LINE_BYTES, sizeText } from '../../util/limits.js';
import { openRegularFile } from '../../util/read-file.js';
import { TraceInputError } from '../errors.js';

/**
 * Streams the lines of a text file (transparently gunzipping `.gz` files, detected by magic bytes) and calls `onLine`
 * with each line and its 1-based number. Memory is bounded by the stream's chunk size plus the longest line, which
 * may not exceed `maxLineBytes` (a LimitError past it).
 */
export async function forEachLine(path: string, onLine: (line: string, lineNo: number) => void, maxLineBytes = DEFAULT_MAX_LINE_BYTES): Promise<number> {
  return forEachLineBytes(path, (buf, start, end, lineNo) => onLine(buf.toString('utf8', start, end), lineNo), maxLineBytes);
}

/** Opens `path` for reading (regular files only: a FIFO or device is refused at once instead of blocking). */
export function openTraceFile(path: string): number {
  try {
    return openRegularFile(path, 'a trace file').fd;
  } catch (err) {
    if (err instanceof IOLensError) throw new TraceInputError(`${path}: ${err.message}`);
    const e = err as NodeJS.ErrnoException;
    if (e && e.code === 'ENOENT') throw new TraceInputError(`${path}: no such file`);
    throw new TraceInputError(`${path}: cannot open (${e.code ?? e.message})`);
  }
}

/**
 * Like `forEachLine`, but hands over the raw bytes: `onLine(buf, start, end, lineNo)` with `end` excluding the
 * newline and a `\r` before it. Empty lines are skipped (but counted). A line that spans chunks is assembled once,
 * when its end arrives (linear in its length, however many chunks). The bytes handed over are never changed
 * afterwards (every chunk is a buffer of its own, never refilled), so a caller may keep a reference to an earlier
 * line instead of copying it — the DFTracer scanner reads each line against the previous one that way.
 */
export async function forEachLineBytes(
  path: string,
  onLine: (buf: Buffer, start: number, end: number, lineNo: number) => void,
  maxLineBytes = DEFAULT_MAX_LINE_BYTES,
): Promise<number> {
  const fd = openTraceFile(path);
  const magic = Buffer.alloc(2);
  let gz: boolean;
  try {
    gz = readSync(fd, magic, 0, 2, 0) === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
  } catch (err) {
    throw new TraceInputError(`${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const file = createReadStream(path, { fd, highWaterMark: 1 << 20 });
  const stream = gz ? file.pipe(createGunzip({ chunkSize: 1 << 20 })) : file;
  if (gz) file.on('error', (err) => stream.destroy(err));
  /** pieces of the line under way (its start, from earlier chunks) and their total length */
  let pending: Buffer[] = [];
  let pendingLen = 0;
  let lineNo = 0;
  const tooLong = () =>
    new LimitError(`${path}:${lineNo + 1}: line longer than ${sizeText(maxLineBytes)} (no newline); not a trace file, or raise the line limit`);
  try {
    for await (const raw of stream as AsyncIterable<Buffer>) {
      let pos = 0;
      let nl = raw.indexOf(10);
      if (pendingLen > 0) {
        if (nl < 0) {
          if (pendingLen + raw.length > maxLineBytes) throw tooLong();
          pending.push(Buffer.from(raw));
          pendingLen += raw.length;
          continue;
        }
        if (pendingLen + nl > maxLineBytes) throw tooLong();
        pending.push(raw.subarray(0, nl));
        const line = Buffer.concat(pending, pendingLen + nl);
        pending = [];
        pendingLen = 0;
        lineNo++;
        let e = line.length;
        if (e > 0 && line[e - 1] === 13) e--;
        if (e > 0) onLine(line, 0, e, lineNo);
        pos = nl + 1;
        nl = raw.indexOf(10, pos);
      }
      while (nl >= 0) {
        if (nl - pos > maxLineBytes) throw tooLong();
        lineNo++;
        let e = nl;
        if (e > pos && raw[e - 1] === 13) e--;
        if (e > pos) onLine(raw, pos, e, lineNo);
        pos = nl + 1;
        nl = raw.indexOf(10, pos);
      }
      if (pos < raw.length) {
        if (raw.length - pos > maxLineBytes) throw tooLong();
        pending.push(Buffer.from(raw.subarray(pos)));
        pendingLen = raw.length - pos;
      }
    }
  } catch (err) {
    if (err instanceof IOLensError) throw err;
    const e = err as NodeJS.ErrnoException;
    if (e && e.code && e.code.startsWith('Z_')) throw new TraceInputError(`${path}: corrupt gzip data (${e.message})`);
    if (e && e.code === 'ENOENT') throw new TraceInputError(`${path}: no such file`);
    throw err;
  } finally {
    stream.destroy();
    file.destroy();
  }
  if (pendingLen > 0) {
    lineNo++;
    const rest = Buffer.concat(pending, pendingLen);
    onLine(rest, 0, rest.length, lineNo);
  }
  return lineNo;
}
