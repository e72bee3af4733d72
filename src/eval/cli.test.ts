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

test('iolens eval --costs on the GlusterFS lab: each pair\'s measured difference from the manifest, its estimate from the problem run\'s report', () => {
  const lab = join(REPO_ROOT, 'lab', 'glusterfs');
  const r = cli(['--costs', lab, '--json']);
  assert.equal(r.status, 0, r.stderr);
  type Pair = { healthy: string; problem: string; labels: string[]; measured: number; twinTime: number; estimate: number | null; estimateCode: string | null; basis: string | null; slower: boolean; ratio: number | null; within2x: boolean; first: { problem: string; cause: boolean } | null };
  const e = JSON.parse(r.stdout) as { fs: string[]; pairs: number; slower: number; estimated: number; within2x: number; timeEstimates: number; timeWithin2x: number; bounds: number; boundsHold: number; firstIsCause: number; details: Pair[] };
  const list = e.details;
  const runs = (JSON.parse(readFileSync(join(lab, 'MANIFEST.json'), 'utf8')) as { runs: { file: string; labels: string[]; run_time_s: number; bytes_moved: number }[] }).runs;
  const row = new Map(runs.map((x) => [x.file, x]));
  assert.deepEqual(e.fs, ['glusterfs']);
  // every problem run has a healthy twin in its family
  assert.equal(list.length, runs.filter((x) => x.labels[0] !== 'healthy').length);
  assert.deepEqual([e.pairs, e.slower, e.estimated, e.within2x, e.firstIsCause], [
    list.length,
    list.filter((p) => p.slower).length,
    list.filter((p) => p.slower && p.estimate !== null).length,
    list.filter((p) => p.within2x).length,
    list.filter((p) => p.first?.cause).length,
  ]);
  for (const p of list) {
    const pr = row.get(p.problem)!, tw = row.get(p.healthy)!;
    assert.equal(tw.labels[0], 'healthy', p.problem);
    const volume = p.labels.some((l) => l === 'redundant-read' || l === 'redundant-write') || pr.bytes_moved === 0 || tw.bytes_moved === 0;
    const expected = volume ? tw.run_time_s : (tw.run_time_s * pr.bytes_moved) / tw.bytes_moved;
    assert.ok(Math.abs(p.twinTime - expected) < 1e-12 && Math.abs(p.measured - (pr.run_time_s - expected)) < 1e-12, p.problem);
    assert.equal(p.slower, p.measured > 0, p.problem);
    assert.equal(p.within2x, p.ratio !== null && p.ratio >= 0.5 && p.ratio <= 2, p.problem);
    assert.equal(p.basis === null, p.estimate === null, p.problem);
  }
  const slowerWith = (basis: string) => list.filter((p) => p.slower && p.basis === basis);
  assert.deepEqual([e.timeEstimates, e.timeWithin2x, e.bounds, e.boundsHold], [
    slowerWith('time').length,
    slowerWith('time').filter((p) => p.within2x).length,
    slowerWith('bound').length,
    slowerWith('bound').filter((p) => p.measured <= 2 * p.estimate!).length,
  ]);
  // the estimate is the report's own cost of the finding that names the cause, in the slowest rank's seconds
  const sample = list.filter((p) => p.estimate !== null).filter((_, i) => i % 40 === 0);
  assert.ok(sample.length >= 3);
  for (const p of sample) {
    const rep = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'report', '--json', join(lab, 'logs', p.problem)], { encoding: 'utf8' });
    assert.equal(rep.status, 0, rep.stderr);
    const report = JSON.parse(rep.stdout) as { io: { ioTime: number }; insights: { code: string; level: string; problem?: string; cost?: { ioShare: number } }[] };
    const named = report.insights.filter((f) => f.problem && p.labels.includes(f.problem) && (f.level === 'HIGH' || f.level === 'WARN') && f.cost);
    const best = Math.max(...named.map((f) => f.cost!.ioShare * report.io.ioTime));
    assert.ok(Math.abs(p.estimate! - best) <= 1e-9 * Math.max(1, best), `${p.problem}: ${p.estimate} vs ${best}`);
    assert.ok(named.some((f) => f.code === p.estimateCode), p.problem);
  }
  const text = cli(['--costs', lab]);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, new RegExp(`^all +${e.pairs} +${e.slower} \\(`, 'm'));
  assert.match(text.stdout, /file system: glusterfs/);
  const none = cli(['--costs', join(REPO_ROOT, '..', 'shared', 'darshan-logs', 'generated')]);
  assert.equal(none.status, 2);
  assert.match(none.stderr, /^iolens: --costs needs a lab \(a directory with MANIFEST\.json\)/);
  assert.equal(none.stderr.trim().split('\n').length, 1);
});
