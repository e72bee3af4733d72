import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { InputError, UsageError } from '../contract/errors.js';

/**
 * A file an ingest will consider, with the key its shard is chosen by. A path the walk had to skip (a FIFO, a
 * dangling link, an unreadable directory, a second way into a directory already walked) comes with `error`, the
 * reason: ingest records it in `ingest_errors` instead of reading it.
 */
export interface Candidate {
  readonly path: string;
  /** Path relative to the argument it was found under (the base name for a file argument): the shard key. */
  readonly key: string;
  readonly error?: string;
}

export interface WalkOptions {
  /** Take every regular file met in a directory walk, not only `*.darshan` / `*.darshan_partial` (`.gz`, `.bz2`). */
  allFiles?: boolean;
}

/** Log names a walk takes: `*.darshan`, `*.darshan_partial`, and those compressed whole (`.gz`, `.bz2`). */
const LOG_NAME = /\.darshan(_partial)?(\.gz|\.bz2)?$/;
const GLOB_CHARS = /[*?[]/;

/** Why a directory entry that is neither a file nor a directory cannot be read as a log. */
function notRegular(st: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  const kind = st.isFIFO() ? 'a FIFO' : st.isSocket() ? 'a socket' : st.isCharacterDevice() ? 'a character device' : st.isBlockDevice() ? 'a block device' : 'a special file';
  return `not a regular file (${kind})`;
}

/**
 * Walks `root` depth-first in name order. Directories are remembered by device and inode, so a symbolic link loop
 * or a second link to a directory is walked once; every path skipped on the way is a candidate with its reason.
 */
function walkDir(root: string, opts: WalkOptions, out: Candidate[], seen: Set<string>, visited: Set<string>, match?: RegExp): void {
  const stack: string[] = [root];
  const wanted = (p: string, name: string) => (match ? match.test(p) : opts.allFiles || LOG_NAME.test(name));
  const skip = (p: string, error: string) => {
    if (seen.has(p)) return;
    seen.add(p);
    out.push({ path: p, key: relative(root, p).split(sep).join('/'), error });
  };
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let id: string;
    let entries: Dirent[];
    try {
      const st = statSync(dir);
      id = `${st.dev}:${st.ino}`;
      if (visited.has(id)) {
        if (dir !== root) skip(dir, 'directory already walked under another path (a symbolic link loop or a second link to it)');
        continue;
      }
      visited.add(id);
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (dir === root) throw new InputError(`${dir}: cannot read directory (${e.code ?? e.message})`);
      skip(dir, `cannot read directory (${e.code ?? e.message})`);
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const e of entries) {
      const p = join(dir, e.name);
      let st: { isDirectory(): boolean; isFile(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean } = e;
      if (e.isSymbolicLink()) {
        try {
          st = statSync(p);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (wanted(p, e.name)) skip(p, code === 'ELOOP' ? 'symbolic link loop' : `dangling symbolic link (${code ?? 'unreadable target'})`);
          continue;
        }
      }
      if (st.isDirectory()) subdirs.push(p);
      else if (!wanted(p, e.name) || seen.has(p)) continue;
      else if (st.isFile()) {
        seen.add(p);
        out.push({ path: p, key: relative(root, p).split(sep).join('/') });
      } else skip(p, notRegular(st));
    }
    // Depth-first in name order: push in reverse so the first sub-directory is walked first.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
  }
}

/** Converts a shell-style glob (`*`, `?`, `[...]`, `**`) over a full path into a regular expression. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        i++;
        if (glob[i + 1] === '/') {
          i++;
          re += '(?:.*/)?';
        } else re += '.*';
      } else re += '[^/]*';
    } else if (ch === '?') re += '[^/]';
    else if (ch === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        let body = glob.slice(i + 1, end);
        if (body.startsWith('!')) body = '^' + body.slice(1);
        re += `[${body.replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else re += ch.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/**
 * Expands ingest arguments into candidate files, in a stable order: files as given, directories walked recursively
 * (sub-directories in name order), globs (quoted so the shell leaves them) matched under their fixed prefix.
 */
export function expandInputs(args: readonly string[], opts: WalkOptions = {}): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  const visited = new Set<string>();
  for (const arg of args) {
    let st;
    try {
      st = statSync(arg);
    } catch {
      st = null;
    }
    if (st) {
      const p = resolve(arg);
      if (st.isDirectory()) walkDir(p, opts, out, seen, visited);
      else if (!seen.has(p)) {
        seen.add(p);
        out.push({ path: p, key: p.split(sep).pop()!, ...(st.isFile() ? {} : { error: notRegular(st) }) });
      }
      continue;
    }
    if (GLOB_CHARS.test(arg)) {
      const abs = resolve(arg).split(sep).join('/');
      const parts = abs.split('/');
      const fixed: string[] = [];
      for (const part of parts) {
        if (GLOB_CHARS.test(part)) break;
        fixed.push(part);
      }
      const base = fixed.join('/') || '/';
      let bst;
      try {
        bst = statSync(base);
      } catch {
        bst = null;
      }
      if (!bst || !bst.isDirectory()) throw new InputError(`${arg}: no such file or directory`);
      const before = out.length;
      walkDir(base, { allFiles: true }, out, seen, visited, globToRegExp(abs));
      if (out.length === before) throw new InputError(`${arg}: no file matches`);
      continue;
    }
    throw new InputError(`${arg}: no such file or directory`);
  }
  return out;
}

/** Parses `--shard i/N` (0-based i). */
export function parseShard(s: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(s.trim());
  if (!m) throw new UsageError(`--shard wants i/N, e.g. 0/8 (got ${s})`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index >= count) throw new UsageError(`--shard ${s}: need 0 <= i < N`);
  return { index, count };
}

/** FNV-1a over the key's UTF-16 code units: a stable shard assignment that needs no shared listing. */
export function shardOf(key: string, count: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % count;
}
