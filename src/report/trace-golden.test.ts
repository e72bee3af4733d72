import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LEVELS, type Report } from '../contract/index.js';
import { RENDERERS } from '../render/registry.js';
import { REPO_ROOT, SHARED } from '../testing/corpus.js';
import { reportSchemaErrors } from '../testing/schema.js';
import { analyzeTrace } from '../pipeline/trace/analyze.js';
import { completeCost, costLevel, isQuiet, ruleLevel } from '../checks/level-policy.js';
import { defaultKnobValues } from '../config/knobs.js';
import { TRACE_RUN_CHECKS } from '../checks/trace/registry.js';

/**
 * Golden trace reports (JSON and terminal, no colour) of three small shared traces, one per reader family.
 * IOLENS_UPDATE_GOLDEN=1 rewrites them; review the diff like any other change. Paths are given relative to the
 * shared folder so that the goldens do not depend on where it is.
 */
const CASES: readonly { name: string; path: string; views: string[] }[] = [
  { name: 'dftracer-test', path: 'traces/dftracer/legacy-string-fields/dftracer-test.pfw', views: [] },
  { name: 'flash-recorder', path: 'traces/recorder/flash_sedov3d_hdf5-ranks0-3', views: ['file', 'proc', 'time', 'proc>file'] },
  { name: 'unet3d-dxt', path: 'traces/darshan/wisio-tests/unet3d_a100.darshan', views: ['file', 'proc', 'time', 'dir'] },
];
const DIR = join(REPO_ROOT, 'fixtures', 'golden');

function golden(file: string, text: string): void {
  if (process.env.IOLENS_UPDATE_GOLDEN) {
    mkdirSync(DIR, { recursive: true });
    writeFileSync(file, text);
  }
  assert.ok(existsSync(file), `${file} exists (IOLENS_UPDATE_GOLDEN=1 writes it)`);
  assert.equal(text, readFileSync(file, 'utf8'));
}

/** What every trace report must satisfy, whatever the trace. */
function invariants(r: Report): void {
  assert.deepEqual(reportSchemaErrors(r), []);
  const t = r.trace!;
  // The one level rule, against the job's I/O time (the time model), for records and findings alike.
  const y = { ioTime: r.io.ioTime, cumulativeIoTime: r.io.cumulativeIoTime, runTime: r.io.runTime, processes: r.io.processes };
  const K = defaultKnobValues();
  const quiet = isQuiet(y, K);
  const byRule = (seconds: number) => costLevel(completeCost({ seconds }, y), K, quiet);
  for (const v of t.views) {
    assert.equal(v.byLevel.HIGH + v.byLevel.WARN + v.byLevel.INFO, v.bottlenecks, v.name);
    assert.equal(v.bottlenecks + v.byLevel.OK, v.records, v.name);
    for (let i = 1; i < v.top.length; i++) {
      const [a, b] = [v.top[i - 1], v.top[i]];
      // listed by level, and a record that costs less never ranks above one that costs more
      assert.ok(LEVELS.indexOf(a.level) <= LEVELS.indexOf(b.level), `${v.name}: level order`);
      assert.ok(LEVELS.indexOf(a.level) < LEVELS.indexOf(b.level) || a.metrics.time_share >= b.metrics.time_share, `${v.name}: ${a.metrics.time_share} before ${b.metrics.time_share}`);
    }
    for (const b of v.top) {
      assert.equal(b.level, byRule(b.metrics.time), `${v.name} ${JSON.stringify(b.key)}`);
      assert.ok(b.score.badness > 0);
    }
  }
  for (const f of r.insights) {
    assert.ok(f.cost && f.cost.seconds >= 0 && f.cost.ioShare <= 1, f.code);
    // trace checks propose HIGH; the rule caps them by what fixing saves (level-policy.ts)
    const byCost = ruleLevel('HIGH', f.cost, f.savings, K, quiet);
    // on incomplete data a finding says so and is at most WARN
    if (f.level !== 'INFO') assert.equal(f.level, f.caveats ? (byCost === 'HIGH' ? 'WARN' : byCost) : byCost, f.code);
    assert.equal(!!f.caveats, !r.completeness.complete);
    // A trace check names its records; D20 may name no file (a trace's HDF5 calls on a dataset handle have none).
    if (f.code.startsWith('T')) assert.ok(f.details.length > 0, f.code);
    assert.equal(r.messages[f.messageId] !== undefined, true);
  }
  assert.deepEqual(r.checks.map((c) => c.code), TRACE_RUN_CHECKS.map((c) => c.meta.code));
  assert.deepEqual(
    r.checks.filter((c) => c.status === 'fired').map((c) => c.code).sort(),
    [...new Set(r.insights.map((i) => i.code))].sort(),
    'a check fired exactly when it has a finding; every other one is quiet',
  );
  // D13 needs a log's counters: on a trace of its own it is not applicable, on a log's DXT it runs.
  assert.ok(r.checks.every((c) => c.status === 'fired' || c.status === 'quiet' || (c.code === 'D13' && c.status === 'notApplicable')));
}

const cwd = process.cwd();
for (const c of CASES) {
  test(`golden trace report: ${c.name}`, async () => {
    process.chdir(SHARED);
    let report: Report;
    try {
      report = (await analyzeTrace([c.path], { ...(c.views.length ? { views: c.views } : {}), top: 5, threads: 1, toolVersion: 'golden' })).report;
    } finally {
      process.chdir(cwd);
    }
    invariants(report);
    golden(join(DIR, `trace-${c.name}.report.json`), RENDERERS.json(report));
    golden(join(DIR, `trace-${c.name}.txt`), RENDERERS.terminal(report, { color: false }));
  });
}
