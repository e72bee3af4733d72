import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../testing/corpus.js';

const cli = (args: string[], cwd = REPO_ROOT) => spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'eval', ...args], { encoding: 'utf8', cwd });

/** A small lab: the named runs of the committed lab, their logs copied, their manifest rows kept. */
function miniLab(files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-lab-'));
  mkdirSync(join(dir, 'logs'));
  const all = (JSON.parse(readFileSync(join(REPO_ROOT, 'lab', 'MANIFEST.json'), 'utf8')) as { runs: { file: string }[] }).runs;
  const runs = files.map((f) => all.find((r) => r.file === f)!);
  for (const f of files) copyFileSync(join(REPO_ROOT, 'lab', 'logs', f), join(dir, 'logs', f));
  writeFileSync(join(dir, 'MANIFEST.json'), JSON.stringify({ version: 1, runs }));
  return dir;
}

const FOUR = [
  'size-posix-write-small-np2-layoutfpp-xfer16k.darshan',
  'size-posix-write-large-np4-layoutfpp-xfer4m.darshan',
  'sync-posix-fsync-small-np1-layoutfpp-xfer64k.darshan',
  'sync-posix-osync-large-np1-layoutfpp-xfer4m.darshan',
];

test('iolens eval on a lab: JSON per family, label and check, and one held-out fold per family; --strict exits 3 on a miss', () => {
  const dir = miniLab(FOUR);
  const r = cli([dir, '--json', '--strict']);
  assert.equal(r.status, 3, r.stderr);
  const e = JSON.parse(r.stdout) as { kind: string; families: { family: string; tally: { runs: number } }[]; totals: { labels: number; hits: number; misses: number; falseAlarms: number }; heldOut: { folds: { family: string }[] }; runs: { file: string; misses: string[] }[] };
  assert.equal(e.kind, 'lab');
  assert.deepEqual(e.families.map((f) => [f.family, f.tally.runs]), [['size-posix', 2], ['sync-posix', 2]]);
  assert.deepEqual(e.heldOut.folds.map((f) => f.family), ['size-posix', 'sync-posix']);
  // O_SYNC leaves no trace in the counters (docs/eval.md): the one miss.
  assert.deepEqual(e.runs.filter((x) => x.misses.length).map((x) => [x.file, x.misses]), [['sync-posix-osync-large-np1-layoutfpp-xfer4m.darshan', ['excessive-fsync']]]);
  assert.deepEqual([e.totals.labels, e.totals.hits, e.totals.falseAlarms], [4, 3, 0]);
  const text = cli([dir, '--no-held-out']);
  assert.equal(text.status, 0);
  assert.match(text.stdout, /^Lab evaluation of /);
  assert.doesNotMatch(text.stdout, /Leave one family out/);
  assert.match(text.stdout, /✗ sync-posix-osync-large-np1-layoutfpp-xfer4m\.darshan \| expected: excessive-fsync \| found: - \| MISSED excessive-fsync/);
});

test('iolens eval: a broken lab manifest or a directory without labels is one error line and exit 2', () => {
  const dir = miniLab(FOUR.slice(0, 1));
  writeFileSync(join(dir, 'MANIFEST.json'), '{"version": 1, "runs": [{"file": "x.darshan"}]}');
  // no directory named, run from inside the mini lab: the defaults (../shared/…, lab) resolve inside its temporary
  // directory, never to a `shared` folder that may sit beside it
  for (const r of [cli([dir]), cli([join(dir, 'logs')]), cli([], join(dir, 'logs'))]) {
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
  assert.match(cli([dir]).stderr, /MANIFEST\.json x\.darshan: labels is not a list of strings/);
});
