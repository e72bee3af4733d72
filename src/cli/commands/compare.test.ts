import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT, SHARED } from '../../testing/corpus.js';
import type { Comparison, Report } from '../../contract/index.js';
import { evaluateTwins } from '../../eval/twins.js';
import { parseManifest } from '../../eval/manifest.js';
import { isHealthy, readLabManifest } from '../../lab/manifest.js';

/** `iolens compare` run as a user runs it, on the shared logs and traces. */

const BIN = join(REPO_ROOT, 'bin', 'iolens.js');
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
const GEN = join(SHARED, 'darshan-logs', 'generated');
const log = (name: string) => join(GEN, `${name}.darshan`);
const dir = mkdtempSync(join(tmpdir(), 'iolens-compare-'));

function report(path: string): Report {
  const r = cli('report', path, '--json');
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Report;
}

function compare(...args: string[]): Comparison {
  const r = cli('compare', ...args, '--json');
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Comparison;
}

const raisedCodes = (r: Report) => r.insights.filter((f) => f.level === 'HIGH' || f.level === 'WARN').map((f) => f.code);

test('compare: deltas from each run\'s report, the time model\'s parts summing to the I/O difference, causes ranked by seconds', () => {
  const [a, b] = [log('ior-seq-write-1m'), log('ior-random-write-1k-fsync')];
  const ra = report(a), rb = report(b);
  const c = compare(a, b);
  assert.equal(c.schemaVersion, 1);
  assert.equal(c.base.name, 'ior-seq-write-1m.darshan');
  const o = c.others[0];
  assert.equal(o.timeDelta, rb.io.runTime - ra.io.runTime);
  assert.equal(o.ioTimeDelta, rb.io.ioTime - ra.io.ioTime);
  assert.equal(o.cumulativeIoTimeDelta, rb.io.cumulativeIoTime - ra.io.cumulativeIoTime);
  // the parts are the two breakdowns side by side: they sum to the I/O time difference in both semantics
  const sum = (k: 'delta' | 'deltaCumulative') => o.parts.reduce((s, p) => s + p[k], 0);
  assert.ok(Math.abs(sum('delta') - o.ioTimeDelta) < 1e-9, `${sum('delta')} vs ${o.ioTimeDelta}`);
  assert.ok(Math.abs(sum('deltaCumulative') - o.cumulativeIoTimeDelta) < 1e-9);
  assert.deepEqual(o.parts[0].layer + ' ' + o.parts[0].op, 'POSIX sync');
  // every finding raised in one run and not the other is a cause, with its cost in the slowest rank's seconds
  const findings = o.causes.filter((x) => x.kind === 'finding');
  assert.deepEqual(findings.map((x) => x.code).sort(), [...new Set([...raisedCodes(ra), ...raisedCodes(rb)])].sort());
  const d01 = rb.insights.find((f) => f.code === 'D01')!;
  assert.deepEqual([findings[0].code, findings[0].change, findings[0].problem, findings[0].otherLevel], ['D01', 'appears', 'excessive-fsync', 'HIGH']);
  assert.equal(findings[0].seconds, d01.cost!.ioShare * rb.io.ioTime);
  for (let i = 1; i < findings.length; i++) assert.ok(Math.abs(findings[i - 1].seconds!) >= Math.abs(findings[i].seconds!));
  // the settings that changed follow the findings: 1 MiB writes became 1 KiB ones
  assert.ok(o.causes.findIndex((x) => x.kind === 'setting') > findings.length - 1);
  assert.ok(o.causes.some((x) => x.kind === 'setting' && x.text === 'POSIX mean write size 1.00 MiB → 1.00 KiB'), JSON.stringify(o.causes));
  assert.deepEqual(o.warnings, []);
  // the text leads with the verdict
  const t = cli('compare', a, b);
  assert.equal(t.status, 0, t.stderr);
  assert.match(t.stdout, /^ior-random-write-1k-fsync\.darshan ran 1\.10 s longer than ior-seq-write-1m\.darshan .* The largest cause: D01 excessive-fsync appears \(HIGH\), \+924\.64 ms\./);
});

test('compare: several runs, findings in every run and in some; a run that cannot be read is named and the others compared', () => {
  const runs = ['ior-seq-write-1m', 'ior-small-seq-write-1k-fsync', 'ior-random-write-1k-fsync'].map(log);
  const missing = join(dir, 'missing.darshan');
  const notLog = join(dir, 'notes.darshan');
  writeFileSync(notLog, 'not a darshan log\n');
  const r = cli('compare', ...runs, missing, notLog, '--json');
  assert.equal(r.status, 2);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 2, r.stderr);
  assert.match(lines[0], /^iolens: .*missing\.darshan: no such file \(not compared\)$/);
  assert.match(lines[1], /^iolens: .*notes\.darshan: .* \(not compared\)$/);
  const c = JSON.parse(r.stdout) as Comparison;
  assert.deepEqual(c.failed.map((f) => f.path), [missing, notLog]);
  assert.equal(c.others.length, 2);
  const reps = runs.map(report);
  const raised = reps.map((x) => new Set(raisedCodes(x)));
  const all = [...new Set(reps.flatMap(raisedCodes))];
  assert.deepEqual(c.common.map((s) => s.code).sort(), all.filter((k) => raised.every((s) => s.has(k))).sort());
  assert.deepEqual(c.differing.map((s) => s.code).sort(), all.filter((k) => !raised.every((s) => s.has(k))).sort());
  for (const s of [...c.common, ...c.differing]) assert.deepEqual(s.runs.map((x) => x !== null), raised.map((set) => set.has(s.code)));
  // the base that cannot be read: one line, nothing compared
  const bad = cli('compare', missing, runs[0]);
  assert.equal(bad.status, 2);
  assert.equal(bad.stdout, '');
  assert.match(bad.stderr, /^iolens: .*missing\.darshan: no such file\n$/);
});

test('compare: runs of different applications and of different kinds are compared with a warning', () => {
  const trace = join(SHARED, 'traces', 'dftracer', 'cm1_1_48_20240926');
  const c = compare(log('ior-seq-write-1m'), log('iopat-balanced-shared-write'), trace);
  assert.equal(c.others.length, 2);
  assert.match(c.others[0].warnings.join('\n'), /runs another application \(iopat\) than ior-seq-write-1m\.darshan \(ior\): compared anyway/);
  assert.match(c.others[1].warnings.join('\n'), /is a Darshan log and cm1_1_48_20240926 a dftracer trace: what each records differs/);
  assert.equal(c.others[1].run.format, 'dftracer');
  assert.ok(c.others[1].run.ioTime > 0);
});

test('compare --html and --markdown escape names taken from the inputs', () => {
  const hostile = join(dir, 'a<img src=x onerror=alert(1)>.darshan');
  copyFileSync(log('ior-seq-write-1m'), hostile);
  const h = cli('compare', hostile, log('ior-small-seq-write-1k'), '--html');
  assert.equal(h.status, 0, h.stderr);
  assert.ok(!h.stdout.includes('<img'), 'no markup from a file name');
  assert.ok(h.stdout.includes('a&lt;img src=x onerror=alert(1)&gt;.darshan'));
  assert.match(h.stdout, /<svg role="img" aria-label="time by part, side by side"/);
  const m = cli('compare', hostile, log('ior-small-seq-write-1k'), '--markdown');
  assert.equal(m.status, 0, m.stderr);
  assert.ok(m.stdout.includes('a\\<img src=x onerror=alert\\(1\\)\\>\\.darshan'));
  const alone = cli('compare', log('ior-seq-write-1m'), '--json');
  assert.equal(alone.status, 2);
  assert.equal(alone.stderr.trim().split('\n').length, 1, alone.stderr);
});

test('compare --model: the features\' parts sum to the predicted difference, base run as the one reference', () => {
  const db = join(dir, 'jobs.duckdb');
  assert.equal(cli('ingest', GEN, '--db', db, '-q').status, 0);
  const model = join(dir, 'model.json');
  const t = cli('train', '--db', db, '--models', 'gbdt,ridge', '--seed', '7', '--out', model, '-q');
  assert.equal(t.status, 0, t.stderr);
  const [a, b] = [log('ior-seq-write-1m'), log('ior-random-write-1k-fsync')];
  const c = compare(a, b, '--model', model);
  const at = c.others[0].attribution!;
  assert.ok(at, JSON.stringify(c.others[0].warnings));
  const sum = at.terms.reduce((s, x) => s + x.shap, 0);
  assert.ok(Math.abs(at.otherOutput - at.baseOutput - sum) < 1e-9, `${at.otherOutput} − ${at.baseOutput} vs Σ ${sum}`);
  // trees and ridge give a feature equal in both runs exactly nothing: none is listed
  for (const x of at.terms) assert.notDeepEqual(x.base, x.other, x.feature);
  // the two outputs are the model's predictions for the two logs (the ensemble weights both the same way)
  const p = cli('predict', '--model', model, a, b, '--json');
  assert.equal(p.status, 0, p.stderr);
  const [pa, pb] = JSON.parse(p.stdout) as { prediction: number }[];
  assert.ok(Math.abs(at.basePrediction - pa.prediction) <= 1e-9 * Math.max(1, pa.prediction), `${at.basePrediction} vs ${pa.prediction}`);
  assert.ok(Math.abs(at.otherPrediction - pb.prediction) <= 1e-9 * Math.max(1, pb.prediction));
  const text = cli('compare', a, b, '--model', model);
  assert.match(text.stdout, /^The model's view \(model\.json, io_mibs\): predicted /m);
});

test('compare --db: one run against its application\'s history, by path or by job hash', () => {
  const db = join(dir, 'history.duckdb');
  assert.equal(cli('ingest', GEN, '--db', db, '-q').status, 0);
  const q = cli('query', '--db', db, "SELECT hash, path, io_time FROM jobs WHERE app = 'ior'", '--json');
  assert.equal(q.status, 0, q.stderr);
  const jobs = JSON.parse(q.stdout) as { hash: string; path: string; io_time: number }[];
  const run = log('ior-random-write-1k-fsync');
  const me = jobs.find((j) => j.path.endsWith('ior-random-write-1k-fsync.darshan'))!;
  const others = jobs.filter((j) => j !== me);
  const c = compare('--db', db, run);
  const h = c.history!;
  assert.equal(h.app, 'ior');
  assert.equal(h.runs, others.length);
  const io = h.metrics.find((m) => m.metric === 'io_time')!;
  assert.equal(io.value, me.io_time);
  assert.equal(io.quantile, others.filter((j) => j.io_time < me.io_time).length / others.length);
  assert.equal(io.bins.reduce((n, b) => n + b.count, 0), others.filter((j) => j.io_time > 0).length);
  // the base is the history's median run by I/O time (the lower middle one)
  const sorted = [...others].sort((a, b) => a.io_time - b.io_time || a.hash.localeCompare(b.hash));
  const median = sorted[(sorted.length - 1) >> 1];
  assert.equal(h.reference!.hash, median.hash);
  assert.equal(c.base.path, median.path);
  assert.equal(c.others[0].run.path, run);
  // the same by job hash (a prefix of it)
  const byHash = compare('--db', db, me.hash.slice(0, 12));
  assert.deepEqual(byHash.history, h);
  const t = cli('compare', '--db', db, run);
  assert.match(t.stdout, /^ior-random-write-1k-fsync\.darshan (is within the usual range of ior's \d+ other runs|'s I\/O time, slowest rank .* is an outlier among ior's)/);
  const none = cli('compare', '--db', db, 'feedfacecafe');
  assert.equal(none.status, 2);
  assert.equal(none.stderr, 'iolens: no job feedfacecafe in the store\n');
});

test('compare on the twins: the first-ranked cause is the injected problem for ≥ 90 % of the pairs (docs/compare.md)', async () => {
  const e = await evaluateTwins({ lab: join(REPO_ROOT, 'lab'), shared: GEN });
  const by = Object.fromEntries(e.totals.map((t) => [t.set, t]));
  // every problem log of the shared set names its twin; the lab pairs each problem run with a healthy one
  const manifest = parseManifest(readFileSync(join(GEN, 'MANIFEST.md'), 'utf8'));
  assert.equal(by.shared.pairs, manifest.logs.filter((l) => !l.healthy).length);
  assert.equal(by.lab.pairs, readLabManifest(join(REPO_ROOT, 'lab', 'MANIFEST.json')).runs.filter((r) => !isHealthy(r)).length);
  // measured 2026-11-28 (docs/compare.md): shared 18 of 18, lab 390 of 408 (95.6 %)
  assert.ok(by.all.firstIsCause >= 0.9 * by.all.pairs, `${by.all.firstIsCause} of ${by.all.pairs}`);
  assert.ok(by.lab.firstIsCause >= 0.9 * by.lab.pairs, `${by.lab.firstIsCause} of ${by.lab.pairs}`);
});

test('compare --width wraps the verdicts and notes; the tables keep their columns', () => {
  const a = log('ior-hdf5-indep-small-write-4k'), b = log('ior-aligned-write-2m');
  const wide = cli('compare', a, b);
  const narrow = cli('compare', a, b, '--width', '60');
  assert.equal(narrow.status, 0, narrow.stderr);
  const verdict = narrow.stdout.split('\n\n')[0];
  for (const l of verdict.split('\n')) assert.ok([...l].length <= 60 || /^ *\S+$/.test(l), l);
  assert.equal(wide.stdout.replace(/\s+/g, ' '), narrow.stdout.replace(/\s+/g, ' '));
});
