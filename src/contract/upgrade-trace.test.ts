import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, SHARED } from '../testing/corpus.js';
import { reportSchemaErrors } from '../testing/schema.js';
import { analyzeTrace } from '../pipeline/trace/analyze.js';
import { FormatError } from './errors.js';
import { upgradeReport } from './upgrade.js';

// Trace reports written by `iolens trace --json` before the one report schema (commit c57a675), kept as fixtures.
const OLD = join(REPO_ROOT, 'fixtures', 'trace');
const old = (name: string) => JSON.parse(readFileSync(join(OLD, name), 'utf8'));
const recordIds = (r: ReturnType<typeof upgradeReport>, code: string) =>
  r.insights.find((i) => i.code === code)!.details.map((d) => (d.subject.kind === 'record' ? `${d.subject.view} ${JSON.stringify(d.subject.key)}` : '')).sort();

test('an iolens.trace/1 report (every bottleneck listed) becomes a current report with today\'s views, its own levels and findings', async () => {
  const doc = old('iolens-trace-1.dftracer-test.json');
  assert.equal(doc.schema, 'iolens.trace/1');
  const up = upgradeReport(doc);
  assert.deepEqual(reportSchemaErrors(up), []);
  const now = (await analyzeTrace([join(SHARED, 'traces/dftracer/legacy-string-fields/dftracer-test.pfw')], { views: doc.options.views, top: 0 })).report;
  const t = up.trace!;
  const n = now.trace!;
  assert.deepEqual({ ...t.characteristics, notRecorded: [] }, n.characteristics);
  assert.deepEqual(t.options, { ...n.options });
  assert.deepEqual(t.coverage, n.coverage);
  // the same views and records flagged by the same metric (levels were the old rule's, by the trace's own time)
  assert.deepEqual(
    t.views.map((v) => [v.name, v.parent, v.records, v.bottlenecks]),
    n.views.map((v) => [v.name, v.parent, v.records, v.bottlenecks]),
  );
  const keys = (r: typeof t) => r.views.map((v) => v.top.map((b) => JSON.stringify(b.key)).sort());
  assert.deepEqual(keys(t), keys(n));
  // its findings carry their records, and their costs (a share of the trace's time) as seconds of it
  assert.ok(up.insights.length > 0);
  for (const f of up.insights) {
    assert.ok(recordIds(up, f.code).length > 0, f.code);
    assert.equal(f.cost!.semantics, 'cumulative');
    assert.ok(Math.abs(f.cost!.seconds - f.cost!.ioShare * up.io.cumulativeIoTime) < 1e-12, f.code);
  }
  assert.deepEqual(up.input, { ...now.input, paths: doc.input.paths });
  assert.equal(up.job.processes, now.job.processes);
  assert.equal(up.notes.length, 3);
  assert.match(up.notes[2], /upgraded from report schema 2/);
  assert.deepEqual(up.completeness, now.completeness);
  assert.deepEqual([up.io.runTime, up.io.bytes, up.io.ioShare], [now.trace!.characteristics.runtime, now.io.bytes, null]);
  assert.equal(up.io.cumulativeIoTime, n.characteristics.ioTime, 'the sum over the traced calls');
  assert.deepEqual(upgradeReport(up), up, 'a converted report is current');
});

test('an iolens.trace/1 report listing the top 3 per view: unknown levels are counted and said', async () => {
  const doc = old('iolens-trace-1.flash-top3.json');
  const up = upgradeReport(doc);
  const now = (await analyzeTrace([join(SHARED, 'traces/recorder/flash_sedov3d_hdf5-ranks0-3')], { views: doc.options.views, top: 3, threads: 1 })).report;
  assert.deepEqual(reportSchemaErrors(up), []);
  const t = up.trace!;
  for (const [i, v] of t.views.entries()) {
    const was = doc.views[i];
    assert.equal(v.records, was.records);
    assert.equal(v.byLevel.OK, was.by_severity.none);
    assert.equal(v.byLevel.HIGH + v.byLevel.WARN + v.byLevel.INFO, was.bottlenecks);
    assert.ok(v.top.length <= 3);
    for (let j = 1; j < v.top.length; j++) assert.ok(v.top[j - 1].metrics.time_share >= v.top[j].metrics.time_share || v.top[j - 1].level !== v.top[j].level);
  }
  assert.match(up.notes[2], /listed only its top 3 bottlenecks per view: the levels of the \d+ others are unknown/);
  assert.match(up.notes[3], /upgraded from report schema 2/);
  assert.equal(up.job.processes, 1024, "recorder.mt's rank count, from the reader's details");
  assert.deepEqual(up.input.warnings, doc.input.warnings);
  // 4 of 1024 ranks: every finding rests on partial data, says so, and is at most WARN
  assert.deepEqual(up.completeness, { complete: false, modules: [{ module: 'Recorder', status: 'partial', detail: doc.input.warnings[0] }] });
  assert.deepEqual(up.completeness, now.completeness);
  for (const f of [...up.insights, ...now.insights]) {
    assert.deepEqual(f.caveats, ["rests on Recorder data that is partial (see the report's completeness)"]);
    assert.notEqual(f.level, 'HIGH');
  }
  const codes = new Set(doc.views.flatMap((v: { top: { reasons: { rule: string }[] }[] }) => v.top.flatMap((b) => b.reasons.map((r) => r.rule))));
  assert.equal(up.insights.length, codes.size);
  for (const f of up.insights) {
    assert.match(f.code, /^T\d\d$/);
    assert.ok(f.details.length > 0);
    assert.equal(up.messages[f.messageId].includes('{sharePct}'), true);
  }
  assert.deepEqual(up.checks.map((c) => c.code), ['T01', 'T02', 'T03', 'T04', 'T05', 'T06', 'T07', 'T08', 'T09', 'T10', 'T11']);
});

test('documents that are neither reports nor old trace reports are refused', () => {
  assert.throws(() => upgradeReport({ schema: 'iolens.trace/1', input: 3 }), (e: unknown) => e instanceof FormatError && /not an iolens\.trace\/1 report/.test(e.message));
  assert.throws(() => upgradeReport({ schema: 'iolens.trace/9' }), /no schemaVersion/);
});
