import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../testing/corpus.js';
import { readLabManifest, type LabRun } from '../lab/manifest.js';
import { evaluateSavings, qualifyingTwin } from './savings.js';
import { twinTime } from './costs.js';

const cli = (args: string[]) => spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'eval', ...args], { encoding: 'utf8', cwd: REPO_ROOT });
const GLUSTER = join(REPO_ROOT, 'lab', 'glusterfs');

interface Counts {
  pairs: number;
  slower: number;
  within2x: number;
  baselines: { all: number; half: number; cost: number };
  notSlower: number;
  overclaimed: number;
}
type Pair = { problem: string; twins: string[]; measured: number; noise: number; runTime: number; slower: boolean; labels: string[]; estimates: Record<string, number | null>; ratios: Record<string, number | null> };

test('iolens eval --savings on the GlusterFS lab (one run per row): qualifying twins, measured differences, IOLens against three blind guesses', () => {
  const r = cli(['--savings', GLUSTER, '--json']);
  assert.equal(r.status, 0, r.stderr);
  const e = JSON.parse(r.stdout) as Counts & { kind: string; unpaired: number; details: Pair[]; heldOut: Counts };
  assert.equal(e.kind, 'single');
  const runs = readLabManifest(join(GLUSTER, 'MANIFEST.json')).runs;
  const row = new Map(runs.map((x) => [x.file, x]));
  const problems = runs.filter((x) => x.labels[0] !== 'healthy');
  assert.equal(e.details.length + e.unpaired, problems.length);
  const within = (x: number | null) => x !== null && x >= 0.5 && x <= 2;
  for (const p of e.details) {
    const pr = row.get(p.problem)!, tw = row.get(p.twins[0])!;
    // The twin qualifies: healthy, same family, ranks, layer, MPI-IO component and operation.
    assert.deepEqual([tw.labels, tw.family, tw.ranks, tw.layer, tw.io, tw.params.op], [['healthy'], pr.family, pr.ranks, pr.layer, pr.io, pr.params.op], p.problem);
    assert.equal(qualifyingTwin(runs, pr)!.file, tw.file);
    assert.ok(Math.abs(p.measured - (pr.run_time_s - twinTime(pr, tw))) < 1e-12, p.problem);
    assert.equal(p.noise, 0);
    assert.equal(p.slower, p.measured > 0, p.problem);
    // The blind guesses are the slowest rank's I/O time and half of it: their ratio is 2 : 1.
    assert.ok(Math.abs(p.estimates.all! - 2 * p.estimates.half!) < 1e-12, p.problem);
    for (const k of ['iolens', 'all', 'half', 'cost']) assert.equal(p.ratios[k], p.slower && p.estimates[k] !== null ? p.estimates[k]! / p.measured : null, `${p.problem} ${k}`);
  }
  const slower = e.details.filter((p) => p.slower);
  assert.deepEqual(
    { pairs: e.pairs, slower: e.slower, within2x: e.within2x, baselines: e.baselines, notSlower: e.notSlower },
    {
      pairs: e.details.length,
      slower: slower.length,
      within2x: slower.filter((p) => within(p.ratios.iolens)).length,
      baselines: { all: slower.filter((p) => within(p.ratios.all)).length, half: slower.filter((p) => within(p.ratios.half)).length, cost: slower.filter((p) => within(p.ratios.cost)).length },
      notSlower: e.details.length - slower.length,
    },
  );
  assert.equal(e.overclaimed, e.details.filter((p) => !p.slower && (p.estimates.iolens ?? 0) > 0.1 * p.runTime).length);
  // The numbers docs/eval.md reports (a change of a savings model changes them: update both).
  assert.deepEqual([e.pairs, e.slower, e.within2x, e.baselines, e.notSlower, e.overclaimed], [195, 151, 119, { all: 106, half: 125, cost: 117 }, 44, 23]);
  const text = cli(['--savings', GLUSTER]);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, new RegExp(`^all pairs: ${e.pairs} pairs, ${e.slower} slower`, 'm'));
  const both = cli(['--savings', '--costs', GLUSTER]);
  assert.equal(both.status, 2);
  assert.match(both.stderr, /^iolens: --costs, --savings and --blame: one at a time/);
});

test('eval --savings on repeated same-work pairs: medians, the noise from the spreads, failed batches left out', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-pairs-'));
  mkdirSync(join(dir, 'logs'));
  const runs = readLabManifest(join(GLUSTER, 'MANIFEST.json')).runs;
  const P = runs.find((x) => x.file === 'size-posix-write-small-np8-layoutshared-xfer16k.darshan')!;
  const T = runs.find((x) => x.file === 'size-posix-write-large-np8-layoutshared-xfer4m-dxt.darshan')!;
  const rows: LabRun[] = [];
  let job = 1;
  // [pair, role, times, batch, check]
  const plan: [string, 'problem' | 'twin', number[], number, 'ok' | 'failed'][] = [
    ['a', 'problem', [1.0, 1.2, 1.1], 1, 'ok'],
    ['a', 'twin', [0.5, 0.6, 0.55], 1, 'ok'],
    ['b', 'problem', [0.5, 0.6, 0.7], 2, 'ok'],
    ['b', 'twin', [0.55, 0.5, 0.6], 2, 'ok'],
    ['c', 'problem', [3, 3, 3], 3, 'failed'],
    ['c', 'twin', [1, 1, 1], 3, 'failed'],
  ];
  for (const [name, role, times, batch, check] of plan) {
    const from = role === 'problem' ? P : T;
    times.forEach((t, i) => {
      const file = `pair-${name}-${role === 'problem' ? 'P' : 'T'}-r${i + 1}.darshan`;
      copyFileSync(join(GLUSTER, 'logs', from.file), join(dir, 'logs', file));
      rows.push({ ...from, file, jobid: job++, run_time_s: t, pair: { name, role, rep: i + 1, batch, check, sameBytes: true } });
    });
  }
  writeFileSync(join(dir, 'MANIFEST.json'), JSON.stringify({ version: 1, runs: rows }));
  const e = evaluateSavings(dir);
  assert.equal(e.kind, 'repetitions');
  assert.equal(e.failedBatches, 1);
  assert.deepEqual(e.pairs.map((p) => [p.measured, p.noise, p.slower, p.repetitions]), [
    [1.1 - 0.55, (1.2 - 1.0 + (0.6 - 0.5)) / 2, true, { problem: 3, twin: 3 }],
    [0.6 - 0.55, (0.7 - 0.5 + (0.6 - 0.5)) / 2, false, { problem: 3, twin: 3 }],
  ]);
  // The report is the problem repetition nearest the median (all three are the same log here).
  assert.equal(e.pairs[0].problem, 'pair-a-P-r3.darshan');
  assert.deepEqual([e.totals.pairs, e.totals.slower, e.totals.notSlower], [2, 1, 1]);
  const b = e.pairs[1];
  assert.equal(e.totals.by.iolens.overclaimed, (b.estimates.iolens ?? 0) > Math.max(b.noise, 0.1 * b.runTime) ? 1 : 0);
  assert.equal(e.totals.by.all.overclaimed, 1);
  // A manifest row's pair is checked like every other field.
  const bad = JSON.stringify({ version: 1, runs: [{ ...rows[0], pair: { ...rows[0].pair, role: 'other' } }] });
  writeFileSync(join(dir, 'MANIFEST.json'), bad);
  assert.throws(() => evaluateSavings(dir), /pair role other is not problem or twin/);
  assert.ok(readFileSync(join(dir, 'MANIFEST.json'), 'utf8').length > 0);
});
