import { readdirSync, statSync, type Dirent } from 'node:fs';
import { fsPath, pathFromBytes } from '../util/byte-path.js';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
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
 * What a walk has emitted, kept small enough for an archive of millions of logs: the walked directories (by device
 * and inode, and by the path they were walked under, with the test their entries passed) and the file arguments.
 * A path is emitted at most once: a file argument inside a directory walked before (or after) it is not repeated.
 */
interface WalkState {
  /** Directories walked, by `dev:ino`. */
  readonly visited: Set<string>;
  /** Directory path walked → which of its entries the walk took. */
  readonly walked: Map<string, (p: string, name: string) => boolean>;
  /** Paths given as file arguments. */
  readonly fileArgs: Set<string>;
}

/**
 * Walks `root` depth-first in name order, yielding candidates as it goes (the listing is never held whole).
 * Directories are remembered by device and inode, so a symbolic link loop or a second link to a directory is walked
 * once; every path skipped on the way is a candidate with its reason.
 */
function* walkDir(root: string, opts: WalkOptions, state: WalkState, match?: RegExp): Generator<Candidate> {
  const stack: string[] = [root];
  const wanted = (p: string, name: string) => (match ? match.test(p) : opts.allFiles || LOG_NAME.test(name));
  const key = (p: string) => relative(root, p).split(sep).join('/');
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let id: string;
    let entries: { name: string; d: Dirent<Buffer> }[];
    try {
      const st = statSync(fsPath(dir));
      id = `${st.dev}:${st.ino}`;
      if (state.visited.has(id)) {
        if (dir !== root && !state.fileArgs.has(dir)) yield { path: dir, key: key(dir), error: 'directory already walked under another path (a symbolic link loop or a second link to it)' };
        continue;
      }
      state.visited.add(id);
      // (names as bytes: one that is not UTF-8 is kept, as path text with its bytes escaped, src/util/byte-path.ts)
      entries = readdirSync(fsPath(dir), { withFileTypes: true, encoding: 'buffer' }).map((d) => ({ name: pathFromBytes(d.name), d }));
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (dir === root) throw new InputError(`${dir}: cannot read directory (${e.code ?? e.message})`);
      if (!state.fileArgs.has(dir)) yield { path: dir, key: key(dir), error: `cannot read directory (${e.code ?? e.message})` };
      continue;
    }
    state.walked.set(dir, wanted);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const e of entries) {
      const p = join(dir, e.name);
      let st: { isDirectory(): boolean; isFile(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean } = e.d;
      if (e.d.isSymbolicLink()) {
        try {
          st = statSync(fsPath(p));
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (wanted(p, e.name) && !state.fileArgs.has(p)) yield { path: p, key: key(p), error: code === 'ELOOP' ? 'symbolic link loop' : `dangling symbolic link (${code ?? 'unreadable target'})` };
          continue;
        }
      }
      if (st.isDirectory()) subdirs.push(p);
      else if (!wanted(p, e.name) || state.fileArgs.has(p)) continue;
      else if (st.isFile()) yield { path: p, key: key(p) };
      else yield { path: p, key: key(p), error: notRegular(st) };
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
  return [...walkInputs(args, opts)];
}

/**
 * `expandInputs` one candidate at a time, holding only the directories walked (not the files found): what an ingest
 * of millions of logs iterates. An argument that names nothing throws when the walk reaches it.
 */
export function* walkInputs(args: readonly string[], opts: WalkOptions = {}): Generator<Candidate> {
  const state: WalkState = { visited: new Set(), walked: new Map(), fileArgs: new Set() };
  for (const arg of args) {
    let st;
    try {
      st = statSync(fsPath(arg));
    } catch {
      st = null;
    }
    if (st) {
      const p = resolve(arg);
      if (st.isDirectory()) yield* walkDir(p, opts, state);
      else if (!state.fileArgs.has(p) && !state.walked.get(dirname(p))?.(p, basename(p))) {
        state.fileArgs.add(p);
        yield { path: p, key: p.split(sep).pop()!, ...(st.isFile() ? {} : { error: notRegular(st) }) };
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
      let found = 0;
      for (const c of walkDir(base, { allFiles: true }, state, globToRegExp(abs))) {
        found++;
        yield c;
      }
      if (found === 0) throw new InputError(`${arg}: no file matches`);
      continue;
    }
    throw new InputError(`${arg}: no such file or directory`);
  }
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
