import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { synthesizeLog } from '../formats/darshan/synth.js';
import { writeLog } from '../formats/darshan/writer.js';
import { REPO_ROOT } from '../testing/corpus.js';
import { openStore } from './db.js';
import { ingest } from './ingest.js';
import { expandInputs, walkInputs } from './walk.js';

/**
 * A log tree with every kind of trap: two symbolic links back to the top (a walk that follows them never ends),
 * a FIFO and a dangling link named like logs, and a directory nobody may read.
 */
function trapTree(): string {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-walk-'));
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'a.darshan'), writeLog(synthesizeLog({ seed: 1, posixFiles: 2 })));
  writeFileSync(join(dir, 'sub', 'b.darshan'), writeLog(synthesizeLog({ seed: 2, posixFiles: 2 })));
  symlinkSync('.', join(dir, 'loop1'));
  symlinkSync('..', join(dir, 'sub', 'loop2'));
  execFileSync('mkfifo', [join(dir, 'f.darshan')]);
  symlinkSync('nowhere.darshan', join(dir, 'gone.darshan'));
  mkdirSync(join(dir, 'locked'));
  writeFileSync(join(dir, 'locked', 'c.darshan'), writeLog(synthesizeLog({ seed: 3, posixFiles: 2 })));
  chmodSync(join(dir, 'locked'), 0o000);
  return dir;
}

const SKIPS = [
  ['f.darshan', 'not a regular file (a FIFO)'],
  ['gone.darshan', 'dangling symbolic link (ENOENT)'],
  ['loop1', 'directory already walked under another path (a symbolic link loop or a second link to it)'],
  ['sub/loop2', 'directory already walked under another path (a symbolic link loop or a second link to it)'],
];

const asRoot = process.getuid?.() === 0;

test('walkInputs yields as it walks (the listing is never held whole) and names each path once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-walk-lazy-'));
  try {
    for (const d of ['a', 'b']) mkdirSync(join(dir, d));
    writeFileSync(join(dir, 'a', '1.darshan'), 'x');
    const walk = walkInputs([dir]);
    assert.equal(walk.next().value?.path, join(dir, 'a', '1.darshan'));
    // b is read only after a: a file made there now is found by this walk
    writeFileSync(join(dir, 'b', '2.darshan'), 'x');
    assert.deepEqual([...walk].map((c) => c.path), [join(dir, 'b', '2.darshan')]);
    // a file named before or after the directory that holds it is one candidate
    const once = (args: string[]) => expandInputs(args).map((c) => c.path.slice(dir.length + 1));
    assert.deepEqual(once([join(dir, 'a', '1.darshan'), dir]), ['a/1.darshan', 'b/2.darshan']);
    assert.deepEqual(once([dir, join(dir, 'b', '2.darshan')]), ['a/1.darshan', 'b/2.darshan']);
    // … but a file the walk did not take (not named like a log) is taken when named
    writeFileSync(join(dir, 'a', 'other.bin'), 'x');
    assert.deepEqual(once([dir, join(dir, 'a', 'other.bin')]), ['a/1.darshan', 'b/2.darshan', 'a/other.bin']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('item 8: the walk visits each directory once and lists every skipped path with its reason', { timeout: 60_000 }, () => {
  const dir = trapTree();
  try {
    const cands = expandInputs([dir]);
    const rel = (p: string) => p.slice(dir.length + 1);
    assert.deepEqual(cands.filter((c) => !c.error).map((c) => rel(c.path)), asRoot ? ['a.darshan', 'locked/c.darshan', 'sub/b.darshan'] : ['a.darshan', 'sub/b.darshan']);
    const skipped = cands.filter((c) => c.error).map((c) => [rel(c.path), c.error]);
    // root reads any directory: the unreadable one is checked below as an ordinary user
    const expectLocked = asRoot ? [] : [['locked', 'cannot read directory (EACCES)']];
    assert.deepEqual(skipped.sort(), [...SKIPS, ...expectLocked].sort());
    // a FIFO named on the command line
    assert.deepEqual(expandInputs([join(dir, 'f.darshan')]).map((c) => c.error), ['not a regular file (a FIFO)']);
  } finally {
    chmodSync(join(dir, 'locked'), 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('item 8: a directory the user cannot read is recorded, also when the tests run as root', { timeout: 60_000 }, (t) => {
  const dir = trapTree();
  try {
    const script = `import(${JSON.stringify(join(REPO_ROOT, 'dist', 'store', 'walk.js'))}).then((m) => console.log(JSON.stringify(m.expandInputs([${JSON.stringify(dir)}]).filter((c) => c.error))))`;
    // root is never refused a directory: run the walk as an unprivileged user instead
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000, ...(asRoot ? { uid: 65534, gid: 65534 } : {}) });
    if (asRoot && r.status !== 0 && /EACCES|Cannot find module|permission/i.test(r.stderr)) {
      t.skip(`the repository is not readable by uid 65534, so the walk cannot run unprivileged (${r.stderr.split('\n')[0]})`);
      return;
    }
    assert.equal(r.status, 0, r.stderr);
    const errs = (JSON.parse(r.stdout) as { path: string; error: string }[]).map((c) => [c.path.slice(dir.length + 1), c.error]);
    assert.deepEqual(errs.filter(([p]) => p === 'locked'), [['locked', 'cannot read directory (EACCES)']]);
  } finally {
    chmodSync(join(dir, 'locked'), 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('item 8: ingest records every skipped path in ingest_errors, once, and never blocks on a FIFO', { timeout: 120_000 }, async () => {
  const dir = trapTree();
  const db = join(mkdtempSync(join(tmpdir(), 'iolens-walkdb-')), 'w.duckdb');
  try {
    const st = await ingest({ db, inputs: [dir, join(dir, 'f.darshan')], jobs: 0 });
    const logs = asRoot ? 3 : 2;
    assert.deepEqual([st.inserted, st.errors], [logs, SKIPS.length + (asRoot ? 0 : 1)]);
    const s = await openStore(db, { readOnly: true });
    try {
      const rows = (await s.con.runAndReadAll('SELECT path, error FROM ingest_errors ORDER BY path')).getRows();
      const got = rows.map(([p, e]) => [String(p).slice(dir.length + 1), String(e)]);
      assert.deepEqual(got.filter(([p]) => p !== 'locked'), [...SKIPS].sort());
      const [[sources]] = (await s.con.runAndReadAll('SELECT count(*) FROM sources')).getRows();
      assert.equal(Number(sources), logs + got.length);
    } finally {
      s.close();
    }
    // again: nothing new, nothing duplicated
    const again = await ingest({ db, inputs: [dir], jobs: 0 });
    assert.deepEqual([again.inserted, again.duplicates], [0, 0]);
  } finally {
    chmodSync(join(dir, 'locked'), 0o755);
    rmSync(dir, { recursive: true, force: true });
    rmSync(join(db, '..'), { recursive: true, force: true });
  }
});

test('item 2: ingest holds each log to the decompression budget (an error row, the batch goes on)', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-bombdb-'));
  try {
    const good = synthesizeLog({ seed: 7, posixFiles: 2 });
    writeFileSync(join(dir, 'good.darshan'), writeLog(good));
    // the job region padded with 40 MB of zeros (a 40 kB stream)
    let first = true;
    const { deflateSync } = await import('node:zlib');
    writeFileSync(join(dir, 'bomb.darshan'), writeLog(good, { compress: (b) => (first ? ((first = false), deflateSync(Buffer.concat([b, Buffer.alloc(40 << 20)]))) : deflateSync(b)) }));
    const db = join(dir, 'b.duckdb');
    const st = await ingest({ db, inputs: [join(dir, 'good.darshan'), join(dir, 'bomb.darshan')], jobs: 0, maxInflate: 16 << 20 });
    assert.deepEqual([st.inserted, st.errors], [1, 1]);
    const s = await openStore(db, { readOnly: true });
    try {
      const rows = (await s.con.runAndReadAll('SELECT error FROM ingest_errors')).getRows();
      assert.deepEqual(rows.map(([e]) => String(e)), ["the job region inflates past the log's decompression budget of 16 MiB (raise it with --max-inflate)"]);
    } finally {
      s.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
