import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import check from './d22-stripe-settings.js';
import { runCheckCases } from '../testing/check-tester.js';
import { logFacts, reportOf } from '../../pipeline/diagnose.js';
import { REPO_ROOT } from '../../testing/corpus.js';

test('D22 on the shared Lustre logs', () => {
  runCheckCases(check, {
    fires: [
      // Theta: one 98.6 GiB file written by 496 ranks on a single OST; the log's other files name OSTs up to 29.
      { log: 'imbalanced-io.darshan', expect: { data: { ranks: 496, stripes: 1, count: 1 } } },
      // 65536 ranks into one 40.6 GiB file on one OST.
      { log: 'skew-app.darshan', expect: { data: { stripes: 1, count: 1 } } },
    ],
    quiet: [
      // Files of one rank each: nothing shared.
      { log: 'sample-badost.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK', 'D06 WARN', 'D11 WARN', 'D21 HIGH'] },
      // 512 ranks over 56 stripes, every OST the log shows: perhaps all there are.
      { log: 'e3sm_io_heatmap_only.darshan', fired: ['P03 INFO', 'P12 OK', 'P14 OK', 'M04 OK', 'M05 OK', 'M06 INFO', 'M07 INFO', 'D05 WARN', 'D06 WARN', 'D10 HIGH', 'D11 WARN', 'D12 WARN', 'D14 WARN', 'D18 INFO', 'D20 INFO'] },
    ],
    notApplicable: [{ log: 'noposix.darshan' }],
  });
});

test('D22 on a synthetic stripe-count-1 file shared by 64 ranks: lfs setstripe advice, at most WARN', () => {
  // A one-second job: its I/O is a real share of the run, so the level rule may raise what the layout costs.
  const dir = mkdtempSync(join(tmpdir(), 'iolens-d22-'));
  try {
    const out = join(dir, 'stripe1.darshan');
    const synth = (extra: string[]) => {
      const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'synth', out, '--force', '--posix-files', '1', '--shared-files', '1', '--nprocs', '64', '--lustre-osts', '24', '--access-bytes', '16777216', '--run-seconds', '1', ...extra], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return reportOf(logFacts(out), { snippets: false }).insights.find((f) => f.code === 'D22');
    };
    const narrow = synth(['--stripe-count', '1']);
    assert.equal(narrow?.level, 'WARN');
    assert.equal(narrow?.cost?.basis, 'bound');
    assert.equal(narrow?.savings?.basis, 'bound');
    assert.match(narrow!.details[0].message, /64 ranks, .* over 1 OST\(s\) in 1\.00 MiB stripes, .*suggested: lfs setstripe -c 16 -S 1M <dir>$/);
    // 16 stripes for 64 ranks: 4 ranks per stripe is not above the ratio.
    assert.equal(synth(['--stripe-count', '16']), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
