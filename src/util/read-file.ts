import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { InputError, LimitError } from '../contract/errors.js';
import { fsPath } from './byte-path.js';
import { sizeText } from './limits.js';

/** What a special file is, for messages (`a FIFO`, `a socket` …); null for a regular file. */
export function specialKind(st: Stats): string | null {
  if (st.isFile()) return null;
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/**
 * Reads a whole regular file without ever blocking on it: the file is opened non-blocking (opening a FIFO with no
 * writer returns at once) and refused unless it is a regular file, so a FIFO, a socket or a device given where a
 * file is expected is one clear InputError instead of a hang. Files larger than `maxBytes` are a LimitError.
 * Messages do not repeat the path (callers put it in front); a missing or unreadable file throws Node's own error,
 * with its `code`.
 */
export function readRegularFile(path: string, maxBytes: number, what = 'a regular file'): Buffer {
  const { fd, size } = openRegularFile(path, what);
  try {
    if (size > maxBytes) throw new LimitError(`is ${size} bytes, larger than IOLens reads (${sizeText(maxBytes)})`);
    const buf = Buffer.allocUnsafe(size);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return got === buf.length ? buf : buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens a file for streaming reads, refusing anything but a regular file (see readRegularFile); returns the open
 * descriptor (the caller closes it) and its size.
 */
export function openRegularFile(path: string, what = 'a regular file'): { fd: number; size: number } {
  const fd = openSync(fsPath(path), constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    const kind = specialKind(st);
    if (kind !== null) throw new InputError(`is ${kind}, not ${what}`);
    return { fd, size: st.size };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}
