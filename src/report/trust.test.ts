import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT, SHARED } from '../testing/corpus.js';
import { diagnoseLog } from '../pipeline/diagnose.js';
import { renderReport } from '../render/registry.js';

const PUBLIC = join(SHARED, 'darshan-logs', 'public');
const SAMPLE = join(REPO_ROOT, 'samples', 'ior-hdf5-indep-small-write-4k.darshan');

test('incomplete data is stated: completeness in the JSON and the banner, a caveat on every finding that rests on it, no HIGH', () => {
  const r = diagnoseLog(join(PUBLIC, 'imbalanced-io.darshan'));
  assert.deepEqual(r.completeness, {
    complete: false,
    modules: [{ module: 'POSIX', status: 'partial', detail: 'the Darshan runtime ran out of memory for this module: records of some files are missing' }],
  });
  assert.equal(r.summary.high, 0);
  // Every finding of a check that read POSIX counters carries the caveat; MPI-IO-only checks do not.
  const withCaveat = r.insights.filter((i) => i.caveats).map((i) => i.code).sort();
  const without = r.insights.filter((i) => !i.caveats).map((i) => i.code).sort();
  assert.deepEqual(without, ['M04', 'M05']);
  assert.ok(withCaveat.includes('D12') && withCaveat.includes('D10') && withCaveat.includes('M07'));
  for (const i of r.insights.filter((x) => x.caveats)) assert.deepEqual(i.caveats, ["rests on POSIX data that is partial (see the report's completeness)"]);
  const text = renderReport(r, 'terminal', { width: 400 });
  assert.match(text, /DATA: +INCOMPLETE: POSIX partial \(the Darshan runtime ran out of memory for this module: records of some files are missing\)/);
  assert.match(text, /↪ Caveat: rests on POSIX data that is partial/);
  // Drishti mode is Drishti's: no caveats, its levels.
  const d = diagnoseLog(join(PUBLIC, 'imbalanced-io.darshan'), { mode: 'drishti' });
  assert.ok(d.insights.every((i) => !i.caveats) && d.summary.high > 0);
  // A complete log says so.
  assert.deepEqual(diagnoseLog(SAMPLE).completeness, { complete: true, modules: [] });
});

test('the banner shows run time, I/O time and its share, bytes and throughput per layer', () => {
  const r = diagnoseLog(join(SHARED, 'darshan-logs', 'generated', 'iopat-straggler-fsync-write.darshan'));
  assert.equal(r.io.runTime, r.job.durationSeconds);
  const posix = r.io.layers.find((l) => l.layer === 'POSIX')!;
  assert.equal(posix.bytesWritten, 67108864);
  assert.equal(posix.slowestRankTime, 0.12407255172729492);
  assert.equal(posix.throughput, 67108864 / 0.12407255172729492);
  // The time model: the shared file's slowest rank; rank 0's stdout is not storage, its time set apart, not I/O time.
  assert.equal(r.io.ioTime, posix.slowestRankTime);
  assert.equal(r.io.notStorage?.seconds, r.io.layers.find((l) => l.layer === 'STDIO')!.slowestRankTime);
  assert.deepEqual(r.io.notStorage?.files.map((f) => [f.name, f.reason]), [['<STDOUT>', 'standard stream']]);
  assert.equal(r.io.ioShare, r.io.ioTime / r.io.runTime);
  assert.ok(Math.abs(r.io.cumulativeIoTime - r.io.breakdown.reduce((a, b) => a + b.cumulativeSeconds, 0)) < 1e-12);
  assert.ok(Math.abs(r.io.ioTime - r.io.breakdown.reduce((a, b) => a + b.seconds, 0)) < 1e-12);
  const lines = renderReport(r, 'terminal', { width: 200 }).split('\n');
  assert.ok(lines.some((l) => /I\/O TIME: +124\.07 ms on the slowest rank, 57\.8% of the run; 261\.60 ms summed over 4 ranks; 64\.0 MiB moved/.test(l)), lines.join('\n'));
  assert.ok(lines.some((l) => /LAYERS: +POSIX 64\.0 MiB; STDIO 48 B/.test(l)));
  // DXT separated rank 3's fsyncs from the writes: the breakdown shows them
  assert.ok(lines.some((l) => /POSIX sync: 36\.1%, 94\.35 ms summed, 44\.75 ms on the slowest rank/.test(l)), lines.join('\n'));
});

test('levels show without colour, units are named as they are, counts are plural-aware', () => {
  const plain = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'report', SAMPLE], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(plain.status, 0);
  assert.ok(!plain.stdout.includes('\x1b['));
  for (const m of ['[WARN D10]', '[WARN D12]', '[WARN D15]', '[INFO D20]', '[INFO M07]', '[OK P14]', '[INFO D18]']) assert.ok(plain.stdout.includes(`▶ ${m} `), m);
  assert.match(plain.stdout, /0 HIGH findings, 3 WARN findings, 10 recommendations/);
  // the verdict first: where the time went, with the metadata sink named
  assert.match(plain.stdout, /WHERE THE TIME WENT[\s\S]*98\.9% of it is opening, closing and seeking[\s\S]*FINDINGS, MOST SECONDS SAVED FIRST/);
  assert.match(plain.stdout, /iolens list-checks CODE \(or docs\/checks\/CODE\.md\) explains each finding/);
  // IEC units in the default mode (1 B, MiB); Drishti's own in --drishti.
  const d08 = diagnoseLog(join(PUBLIC, 'imbalanced-io.darshan')).insights.find((i) => i.code === 'D08')!;
  assert.match(d08.message, /smaller than 1\.00 MiB \(median 1 B\)$/);
  const r = diagnoseLog(SAMPLE);
  for (const i of r.insights) assert.equal(i.docs, `docs/checks/${i.code}.md`);
});
