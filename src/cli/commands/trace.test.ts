import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportSchemaErrors } from '../../testing/schema.js';
import { TRACE_RUN_CHECKS } from '../../checks/trace/registry.js';

const BIN = new URL('../../../bin/iolens.js', import.meta.url).pathname;
const FLASH = '../shared/traces/recorder/flash_sedov3d_hdf5-ranks0-3';

function run(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, 'trace', ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('iolens trace --json on the Recorder sample: the contract report, callsByFunction over the whole trace', () => {
  const r = run([FLASH, '--json', '--top', '3']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.deepEqual(reportSchemaErrors(j), []);
  assert.equal(j.schemaVersion, 3);
  assert.equal(j.input.format, 'recorder');
  assert.equal(j.input.events, 49489);
  const t = j.trace;
  const calls = t.characteristics.callsByFunction as Record<string, number>;
  assert.equal(Object.values(calls).reduce((a, b) => a + b, 0), 49489);
  assert.equal(calls.__fxstat, 6019);
  assert.equal(calls.MPI_Bcast, 5292);
  assert.equal(calls.write, 1413);
  assert.deepEqual(j.input.warnings, ['Recorder folder has data for 4 of 1024 ranks; missing ranks: 4-1023']);
  assert.equal(t.characteristics.processes, 4);
  assert.equal(j.job.processes, 1024, 'the job had 1024 ranks (recorder.mt)');
  assert.ok(t.views.length >= 3);
  for (const v of t.views) assert.ok(v.top.length <= 3);
  assert.equal(t.coverage.bottlenecks, t.views.reduce((a: number, v: { bottlenecks: number }) => a + v.bottlenecks, 0));
  // The trace checks, then the log checks that run on traces too (D13 needs a log's counters: not applicable here).
  assert.deepEqual(j.checks.map((c: { code: string }) => c.code), [...TRACE_RUN_CHECKS.map((c) => c.meta.code)]);
  assert.deepEqual(j.checks.slice(-2), [{ code: 'D13', status: 'notApplicable', reason: j.checks.at(-2).reason }, { code: 'D20', status: 'fired' }]);
  for (const f of j.insights) assert.match(f.code, /^(T\d\d|D20)$/);
});

test('iolens trace --csv on a DFTracer file and the terminal panel', () => {
  const r = run(['../shared/traces/dftracer/legacy-string-fields/dftracer-test.pfw', '--csv', '--views', 'file,time']);
  assert.equal(r.code, 0, r.err);
  const lines = r.out.trim().split('\n');
  assert.match(lines[0], /^view,file,proc,window,app,host,dir,pattern,level,badness,value_iops_slope,time,ops,.*,findings,messages$/);
  assert.ok(lines.length > 1);
  for (const l of lines.slice(1)) assert.match(l, /^(file|time),.*,(HIGH|WARN|INFO),/);
  const t = run(['../shared/traces/dftracer/legacy-string-fields/dftracer-test.pfw', '--no-color']);
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /calls by function read 1,000, close 3, open 3, __lxstat 2/);
  assert.match(t.out, /\n {2}\[HIGH\] T01 /, 'levels show without colour');
  assert.match(t.out, /Coverage: /);
});

test('--small-size and --config set the same small_bytes; --config takes trace knobs and check overrides', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-cfg-'));
  const cfg = join(dir, 'c.json');
  writeFileSync(cfg, JSON.stringify({ thresholds: { small_bytes: 4096, trace_slow_call_seconds: 1 }, checks: { T01: 'off' } }));
  const knob = (j: { thresholds: { knob: string; value: number }[] }, k: string) => j.thresholds.find((x) => x.knob === k)?.value;
  const viaFlag = JSON.parse(run([FLASH, '--json', '--small-size', '4KiB']).out);
  const viaConfig = JSON.parse(run([FLASH, '--json', '--config', cfg]).out);
  assert.equal(knob(viaFlag, 'small_bytes'), 4096);
  assert.equal(viaFlag.trace.options.smallBytes, 4096);
  assert.equal(knob(viaConfig, 'small_bytes'), 4096);
  assert.equal(knob(viaConfig, 'trace_slow_call_seconds'), 1);
  assert.deepEqual(viaConfig.checks.find((c: { code: string }) => c.code === 'T01'), { code: 'T01', status: 'notApplicable', reason: 'disabled by configuration' });
  // the flag wins over the file
  assert.equal(knob(JSON.parse(run([FLASH, '--json', '--config', cfg, '--small-size', '8KiB']).out), 'small_bytes'), 8192);
  writeFileSync(cfg, JSON.stringify({ thresholds: { trace_small_shar: 0.4 } }));
  const bad = run([FLASH, '--config', cfg]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /unknown threshold 'trace_small_shar'/);
});

test('bad input: one line on stderr, exit 2, no stack trace', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-cli-'));
  const gz = join(dir, 'x.pfw.gz');
  writeFileSync(gz, Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3, 4, 5]));
  const bad = join(dir, 'r.yaml');
  writeFileSync(bad, 'rules:\n  - id: r\n    condition: reads >\n    reasons: [{message: x}]\n');
  const cases: [string[], RegExp][] = [
    [[join(dir, 'nope')], /^iolens: .*nope: no such file or directory\n$/],
    [[mkdtempSync(join(tmpdir(), 'iolens-empty-'))], /neither a Recorder trace folder/],
    [[gz], /x\.pfw\.gz: corrupt gzip data|x\.pfw\.gz: .*unexpected end/],
    [[FLASH, '--rules', bad], /^iolens: .*r\.yaml: rule 1 "r": condition: /],
    [[FLASH, '--views', 'file>disk'], /unknown view dimension "disk"/],
    [[FLASH, '--threshold', '95'], /below 90 degrees/],
    [[FLASH, '--layers', 'nfs'], /unknown layer "nfs"/],
  ];
  for (const [args, re] of cases) {
    const r = run(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, re);
    assert.equal(r.err.trim().split('\n').length, 1, r.err);
    assert.doesNotMatch(r.err, /\n\s+at /);
  }
});

test('iolens trace --width wraps the text to that many columns (words longer than a line excepted); a bad width is one error line', () => {
  const r = run([FLASH, '--width', '72', '--no-color']);
  assert.equal(r.code, 0, r.err);
  const long = r.out.split('\n').filter((l) => [...l].length > 72);
  // Only an unbreakable word (a path) may pass the width, and then it stands alone after the indentation.
  for (const l of long) assert.match(l, /^ *\S+$/, l);
  assert.ok(r.out.split('\n').length > run([FLASH, '--no-color']).out.split('\n').length, 'wrapping adds lines');
  const bad = run([FLASH, '--width', 'wide']);
  assert.equal(bad.code, 2);
  assert.equal(bad.err, "iolens: --width needs a positive integer, got 'wide'\n");
});
