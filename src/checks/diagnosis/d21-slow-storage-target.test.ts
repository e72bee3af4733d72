import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import check from './d21-slow-storage-target.js';
import { runCheckCases } from '../testing/check-tester.js';
import { logFacts, reportOf } from '../../pipeline/diagnose.js';
import { REPO_ROOT, SHARED } from '../../testing/corpus.js';
import type { Finding, Report } from '../../contract/index.js';

const PUBLIC = join(SHARED, 'darshan-logs', 'public');

test('D21 on the shared Lustre logs', () => {
  runCheckCases(check, {
    fires: [
      // One OST of 24 at 0.5 MiB/s, the others 19–26 MiB/s (85 files each, one stripe per file).
      { log: 'sample-badost.darshan', expect: { data: { targets: 'OST 14', compared: 24 } } },
    ],
    quiet: [
      // The same machine and workload on healthy OSTs.
      { log: 'sample-goodost.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK'] },
      // Shared files striped over 56 OSTs: every OST holds the same files, nothing can stand out.
      { log: 'e3sm_io_heatmap_only.darshan', fired: ['P03 INFO', 'P12 OK', 'P14 OK', 'M04 OK', 'M05 OK', 'M06 INFO', 'M07 INFO', 'D05 WARN', 'D06 WARN', 'D10 HIGH', 'D11 WARN', 'D12 WARN', 'D14 WARN', 'D18 INFO', 'D20 INFO'] },
      // One shared file on one OST, 496 ranks: no peers to compare (D22 names the layout instead).
      { log: 'imbalanced-io.darshan', fired: ['P02 INFO', 'P07 WARN', 'P12 OK', 'P14 OK', 'M04 OK', 'M05 OK', 'M06 INFO', 'M07 INFO', 'D08 WARN', 'D10 WARN', 'D11 WARN', 'D12 WARN', 'D14 WARN', 'D15 WARN', 'D20 INFO', 'D22 WARN'] },
    ],
    notApplicable: [{ log: 'noposix.darshan' }],
  });
});

/** `iolens report --json` of a log (the real CLI). */
function cliReport(path: string): Report {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'report', '--json', path], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Report;
}

test('sample-badost: the report leads with OST 14 and the seconds it cost, and says the file system', () => {
  const report = cliReport(join(PUBLIC, 'sample-badost.darshan'));
  const first = report.insights[0];
  assert.equal(first.code, 'D21');
  assert.equal(first.level, 'HIGH');
  assert.equal(first.data.targets, 'OST 14');
  // The slowest rank waited 778 s on OST 14; a median-OST file took ~16 s: ~762 s saved.
  assert.ok(first.savings && first.savings.seconds > 762 / 1.5 && first.savings.seconds < 762 * 1.5, JSON.stringify(first.savings));
  assert.equal(first.savings.basis, 'job');
  assert.equal(first.savings.semantics, 'slowest');
  assert.equal(first.cost?.semantics, 'slowest');
  assert.equal(first.cost?.basis, 'time');
  assert.equal(first.details.length, 1);
  assert.match(first.details[0].message, /^OST 14: 85 file\(s\)/);
  assert.match(report.verdict?.text ?? '', /The file system, not your I\/O pattern: OST 14 ran at 0\.50 MiB\/s against 22\.95 MiB\/s on the median OST/);
  // Nothing else is HIGH: the 22.9 s of STDIO reads summed over ranks rank below it.
  assert.deepEqual(report.insights.filter((f) => f.level === 'HIGH').map((f) => f.code), ['D21']);
});

/** The D21 and D22 findings of a synthetic log (`iolens synth` with LUSTRE records). */
function synthFindings(dir: string, name: string, args: string[]): { d21: Finding | undefined; d22: Finding | undefined; report: Report } {
  const out = join(dir, `${name}.darshan`);
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'synth', out, ...args], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const report = reportOf(logFacts(out), { snippets: false });
  return { d21: report.insights.find((f) => f.code === 'D21'), d22: report.insights.find((f) => f.code === 'D22'), report };
}

test('D21 on synthetic Lustre logs: slow OSTs named, moved, doubled, healed; even or explained slowness not', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-d21-'));
  try {
    // 240 files of one rank each over 24 OSTs (10 files per OST), per-file bandwidth drawn over 200–2200 MiB/s.
    const fpp = ['--posix-files', '240', '--shared-files', '0', '--nprocs', '240', '--lustre-osts', '24', '--access-bytes', '16777216'];
    const one = synthFindings(dir, 'one', [...fpp, '--slow-osts', '14']);
    assert.equal(one.d21?.data.targets, 'OST 14');
    assert.equal(one.d21?.level, 'HIGH');
    assert.equal(one.report.insights[0].code, 'D21');
    // What the slowest rank waited beyond the slowest rank on a healthy OST (each rank writes one file).
    const posix = logFacts(join(dir, 'one.darshan')).facts.get('storage.targets');
    let slowMax = 0, cleanMax = 0;
    const t14 = posix.targets.ids.indexOf(14);
    for (let i = 0; i < posix.files.ids.length; i++) {
      const on14 = posix.files.targetOf[posix.files.targetStart[i]] === t14;
      if (on14) slowMax = Math.max(slowMax, posix.files.slowest[i]);
      else cleanMax = Math.max(cleanMax, posix.files.slowest[i]);
    }
    const expected = slowMax - cleanMax;
    assert.ok(Math.abs(one.d21!.savings!.seconds - expected) < 0.1 * expected + 0.02, `${one.d21!.savings!.seconds} vs ${expected}`);
    // Moved: another OST is slow, and it is the one named.
    assert.equal(synthFindings(dir, 'moved', [...fpp, '--slow-osts', '2', '--seed', '7']).d21?.data.targets, 'OST 2');
    // Doubled: two slow OSTs, both named.
    const two = synthFindings(dir, 'two', [...fpp, '--slow-osts', '3,17']);
    assert.match(String(two.d21?.data.targets), /^OSTs (3, 17|17, 3)$/);
    // Healed: none slow.
    assert.equal(synthFindings(dir, 'none', fpp).d21, undefined);
    // Uniformly slow: every OST 20 times slower is the job's (or the whole file system's) pace, no target stands out.
    assert.equal(synthFindings(dir, 'all', [...fpp, '--slow-osts', Array.from({ length: 24 }, (_, i) => i).join(',')]).d21, undefined);
    // Slow for another reason: the files on OST 5 issue 64 times smaller requests.
    assert.equal(synthFindings(dir, 'smallreq', [...fpp, '--small-request-osts', '5']).d21, undefined);
    // Too few files per OST to tell a slow OST from a slow rank (2 each).
    assert.equal(synthFindings(dir, 'few', ['--posix-files', '48', '--shared-files', '0', '--nprocs', '48', '--lustre-osts', '24', '--slow-osts', '5', '--access-bytes', '16777216']).d21, undefined);
    // Without a LUSTRE module: files are their own targets; their bandwidths vary 11 times by design, none stands out.
    assert.equal(synthFindings(dir, 'nolustre', ['--posix-files', '240', '--shared-files', '0', '--nprocs', '240', '--access-bytes', '16777216']).d21, undefined);
    // Four shared files striped over all 8 OSTs, OST 3 slow: every OST holds the same files, so only DXT's offsets,
    // mapped through the layout to stripes, can tell the OSTs apart (requests of ~256 KiB in 1 MiB stripes).
    const striped = ['--posix-files', '4', '--shared-files', '4', '--nprocs', '8', '--lustre-osts', '8', '--stripe-count', '8', '--slow-osts', '3', '--access-bytes', '262144', '--slow-factor', '1000'];
    const traced = synthFindings(dir, 'striped-dxt', [...striped, '--dxt-segments', '20000']);
    assert.equal(traced.d21?.data.targets, 'OST 3');
    const st = logFacts(join(dir, 'striped-dxt.darshan')).facts.get('storage.targets');
    assert.equal(st.files.dxtMapped.reduce((a, b) => a + b, 0), 4);
    // The OST after the slow one shares requests that cross the stripe boundary; timed on its own requests it is not slow.
    const t4 = st.targets.ids.indexOf(4), t3 = st.targets.ids.indexOf(3), t0 = st.targets.ids.indexOf(0);
    assert.ok(st.targets.medianFileBandwidth[t4] > 0.8 * st.targets.medianFileBandwidth[t0], `${st.targets.medianFileBandwidth[t4]} vs ${st.targets.medianFileBandwidth[t0]}`);
    assert.ok(st.targets.medianFileBandwidth[t3] < 0.01 * st.targets.medianFileBandwidth[t0]);
    // Without DXT the layout alone splits each file evenly: no OST can stand out, and D21 says nothing.
    assert.equal(synthFindings(dir, 'striped', striped).d21, undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
