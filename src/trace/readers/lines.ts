import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { TraceInputError } from '../errors.js';

/**
 * Streams the lines of a text file (transparently gunzipping `.gz` files, detected by magic bytes) and calls `onLine`
 * with each line and its 1-based number. Memory is bounded by the stream's chunk size plus the longest line.
 */
export async function forEachLine(path: string, onLine: (line: string, lineNo: number) => void): Promise<number> {
  return forEachLineBytes(path, (buf, start, end, lineNo) => onLine(buf.toString('utf8', start, end), lineNo));
}

/**
 * Like `forEachLine`, but hands over the raw bytes: `onLine(buf, start, end, lineNo)` with `end` excluding the
 * newline and a `\r` before it. `buf` is only valid during the call. Empty lines are skipped (but counted).
 */
export async function forEachLineBytes(path: string, onLine: (buf: Buffer, start: number, end: number, lineNo: number) => void): Promise<number> {
  const gz = await isGzip(path);
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  const stream = gz ? file.pipe(createGunzip({ chunkSize: 1 << 20 })) : file;
  if (gz) file.on('error', (err) => stream.destroy(err));
  let rest: Buffer | null = null;
  let lineNo = 0;
  try {
    for await (const raw of stream as AsyncIterable<Buffer>) {
      const buf: Buffer = rest ? Buffer.concat([rest, raw]) : raw;
      rest = null;
      let pos = 0;
      for (;;) {
        const nl = buf.indexOf(10, pos);
        if (nl < 0) break;
        lineNo++;
        let e = nl;
        if (e > pos && buf[e - 1] === 13) e--;
        if (e > pos) onLine(buf, pos, e, lineNo);
        pos = nl + 1;
      }
      if (pos < buf.length) rest = Buffer.from(buf.subarray(pos));
    }
  } catch (err) {
    if (err instanceof TraceInputError) throw err;
    const e = err as NodeJS.ErrnoException;
    if (e && e.code && e.code.startsWith('Z_')) throw new TraceInputError(`${path}: corrupt gzip data (${e.message})`);
    if (e && e.code === 'ENOENT') throw new TraceInputError(`${path}: no such file`);
    throw err;
  }
  if (rest && rest.length > 0) {
    lineNo++;
    onLine(rest, 0, rest.length, lineNo);
  }
  return lineNo;
}

async function isGzip(path: string): Promise<boolean> {
  const { open } = await import('node:fs/promises');
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new TraceInputError(`${path}: cannot open (${e.code ?? e.message})`);
  }
  try {
    const b = Buffer.alloc(2);
    const { bytesRead } = await fh.read(b, 0, 2, 0);
    return bytesRead === 2 && b[0] === 0x1f && b[1] === 0x8b;
  } finally {
    await fh.close();
  }
}
