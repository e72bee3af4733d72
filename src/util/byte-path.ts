import { existsSync, readFileSync } from 'node:fs';

/**
 * File names are bytes; IOLens's paths are text. A name that is not UTF-8 (`donn\xe9es.darshan`, written by a
 * Latin-1 system) is carried as text with each byte that is not part of a UTF-8 character written `\xNN`: that text
 * is what is shown and stored, and `fsPath` turns it back into the name's bytes when the file is opened. A name that
 * is UTF-8 is its own text. (A UTF-8 name that holds a literal `\xe9` is read as itself when it exists.)
 */

const fatal = new TextDecoder('utf-8', { fatal: true });

/** Length of the UTF-8 sequence a lead byte starts, 0 for a byte that cannot lead one. */
function seqLength(b: number): number {
  if (b < 0x80) return 1;
  if (b >= 0xc2 && b <= 0xdf) return 2;
  if (b >= 0xe0 && b <= 0xef) return 3;
  if (b >= 0xf0 && b <= 0xf4) return 4;
  return 0;
}

/** A name's bytes as IOLens's path text (UTF-8 as it is, any other byte as `\xNN`). */
export function pathFromBytes(bytes: Uint8Array): string {
  try {
    return fatal.decode(bytes);
  } catch {
    // (some bytes are not UTF-8: decoded one character at a time)
  }
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const n = seqLength(bytes[i]);
    if (n > 0 && i + n <= bytes.length) {
      try {
        out += fatal.decode(bytes.subarray(i, i + n));
        i += n;
        continue;
      } catch {
        // not a character: the lead byte is escaped below
      }
    }
    out += `\\x${bytes[i].toString(16).padStart(2, '0')}`;
    i++;
  }
  return out;
}

const ESCAPED = /\\x[89a-f][0-9a-f]/i;

/** True when `path` carries escaped bytes (a name that is not UTF-8). */
export function hasEscapedBytes(path: string): boolean {
  return ESCAPED.test(path);
}

/** What to hand to `fs` for a path: its bytes when it carries escaped bytes (and is not itself a file's name). */
export function fsPath(path: string): string | Buffer {
  if (!ESCAPED.test(path) || existsSync(path)) return path;
  const parts: Buffer[] = [];
  let last = 0;
  for (const m of path.matchAll(/\\x([89a-f][0-9a-f])/gi)) {
    parts.push(Buffer.from(path.slice(last, m.index), 'utf8'), Buffer.from([parseInt(m[1], 16)]));
    last = m.index! + m[0].length;
  }
  parts.push(Buffer.from(path.slice(last), 'utf8'));
  return Buffer.concat(parts);
}

/**
 * Command-line arguments as path text: Node decodes the arguments as UTF-8 and turns a byte that is not UTF-8 into
 * U+FFFD, losing it; such an argument is read again from the process's own command line (/proc/self/cmdline) and
 * written with `pathFromBytes`. `argv`: the arguments after the script (process.argv.slice(2)).
 */
export function rawArguments(argv: readonly string[]): string[] {
  if (!argv.some((a) => a.includes('\uFFFD'))) return [...argv];
  let raw: Buffer[];
  try {
    const cmdline = readFileSync('/proc/self/cmdline');
    raw = [];
    for (let start = 0; start < cmdline.length; ) {
      const end = cmdline.indexOf(0, start);
      raw.push(cmdline.subarray(start, end < 0 ? cmdline.length : end));
      start = end < 0 ? cmdline.length : end + 1;
    }
  } catch {
    return [...argv];
  }
  const tail = raw.slice(raw.length - argv.length);
  if (tail.length !== argv.length) return [...argv];
  return argv.map((a, i) => (a.includes('\uFFFD') && tail[i].toString('utf8') === a ? pathFromBytes(tail[i]) : a));
}
