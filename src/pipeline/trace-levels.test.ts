import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DarshanLog } from '../formats/darshan/index.js';
import { parseManifest } from '../eval/manifest.js';
import { defaultKnobValues } from '../config/knobs.js';
import type { Report } from '../contract/index.js';
import { corpusLogs, SHARED } from '../testing/corpus.js';
import { diagnoseTrace } from './diagnose-trace.js';

const K = defaultKnobValues();

/** The level rule on a trace report: what `report` promises, `trace` keeps (docs/report.md, "How levels are decided"). */
function ruleHolds(name: string, r: Report): void {
  for (const f of r.insights) {
    if (f.level !== 'HIGH' && f.level !== 'WARN') continue;
    assert.ok(f.cost && f.cost.seconds > 0, `${name} ${f.code}: a ${f.level} states the seconds it costs`);
    if (f.level !== 'HIGH') continue;
    const io = f.cost.semantics === 'slowest' ? r.io.ioTime : r.io.cumulativeIoTime;
    const run = f.cost.semantics === 'slowest' ? r.io.runTime : r.io.runTime * r.io.processes;
    assert.equal(f.cost.basis, 'time', `${name} ${f.code}: a HIGH is measured, not a bound`);
    assert.ok(f.cost.seconds >= K.high_cost_share * io * (1 - 1e-12), `${name} ${f.code}: HIGH costs ≥ 25 % of the I/O time`);
    if (run > 0) assert.ok(f.cost.seconds >= K.high_run_share * run * (1 - 1e-12), `${name} ${f.code}: HIGH costs ≥ 5 % of the run`);
  }
}

test('trace on every shared log with DXT and every shared trace: the level rule holds, no HIGH on a healthy run', async () => {
  const manifest = parseManifest(readFileSync(join(SHARED, 'darshan-logs', 'generated', 'MANIFEST.md'), 'utf8'));
  const healthy = new Set(manifest.logs.filter((l) => l.healthy).map((l) => l.file));
  let logs = 0, healthyRuns = 0;
  for (const l of corpusLogs()) {
    const log = DarshanLog.open(l.path);
    if (!log.has('DXT_POSIX') && !log.has('DXT_MPIIO')) continue;
    const r = await diagnoseTrace([l.path]);
    ruleHolds(l.name, r);
    logs++;
    if (l.set === 'generated' && healthy.has(l.name)) {
      healthyRuns++;
      assert.deepEqual(r.insights.filter((i) => i.level === 'HIGH').map((i) => i.code), [], `${l.name} is healthy`);
    }
  }
  assert.ok(logs >= 30 && healthyRuns >= 10, `${logs} logs, ${healthyRuns} healthy`);
  const traces = [
    join(SHARED, 'traces', 'dftracer', 'cm1_1_48_20240926'),
    join(SHARED, 'traces', 'dftracer', 'legacy-string-fields', 'dlio-test-trace.pfw.gz'),
    join(SHARED, 'traces', 'recorder', 'flash_sedov3d_hdf5-ranks0-3'),
  ];
  for (const t of traces) ruleHolds(t, await diagnoseTrace([t]));
  // The CM1 run spends about 1 % of its run in I/O: nothing in it can be HIGH.
  const cm1 = await diagnoseTrace([traces[0]]);
  assert.ok(cm1.io.ioShare !== null && cm1.io.ioShare < K.high_run_share, `CM1: ${cm1.io.ioShare}`);
  assert.equal(cm1.summary.high, 0);
  assert.match(cm1.verdict!.text, /I\/O is not this job's bottleneck/);
});
