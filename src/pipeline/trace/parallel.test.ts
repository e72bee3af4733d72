import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeTrace } from './analyze.js';
import { PARALLEL_MIN_BYTES, workersPayOff } from './parallel.js';

const opts = { top: 0 };

for (const path of ['../shared/traces/recorder/flash_sedov3d_hdf5-ranks0-3', '../shared/traces/dftracer/cm1_1_48_20240926']) {
  test(`worker threads give the same report as one thread: ${path.split('/').pop()}`, async () => {
    const r1 = (await analyzeTrace([path], { ...opts, threads: 1 })).report;
    const r2 = (await analyzeTrace([path], { ...opts, threads: 2 })).report;
    const [one, two] = [r1.trace!, r2.trace!];
    assert.equal(r2.input.events, r1.input.events);
    assert.deepEqual(r2.input.warnings, r1.input.warnings);
    assert.deepEqual(r2.job, r1.job);
    assert.deepEqual(two.characteristics.callsByFunction, one.characteristics.callsByFunction);
    assert.equal(two.characteristics.ops, one.characteristics.ops);
    assert.equal(two.characteristics.bytes, one.characteristics.bytes);
    assert.ok(Math.abs(two.characteristics.ioTime - one.characteristics.ioTime) < 1e-6);
    assert.equal(two.options.granularity, one.options.granularity);
    for (let i = 0; i < one.views.length; i++) {
      assert.equal(two.views[i].records, one.views[i].records, one.views[i].name);
      assert.equal(two.views[i].bottlenecks, one.views[i].bottlenecks, one.views[i].name);
      assert.deepEqual(two.views[i].byLevel, one.views[i].byLevel, one.views[i].name);
    }
    assert.deepEqual(r2.insights.map((f) => [f.code, f.level, f.details.length]), r1.insights.map((f) => [f.code, f.level, f.details.length]));
  });
}

test('worker threads by default: DFTracer from two cores and 8 MiB, Recorder from three cores and 12 MiB, never one part', () => {
  const MiB = 2 ** 20;
  assert.equal(PARALLEL_MIN_BYTES, 48 * MiB);
  const table: [format: 'dftracer' | 'recorder', parts: number, bytes: number, cores: number, expected: boolean][] = [
    ['dftracer', 8, 55 * MiB, 2, true],
    ['dftracer', 8, 55 * MiB, 1, false],
    ['dftracer', 8, 7 * MiB, 16, false],
    ['dftracer', 1, 900 * MiB, 16, false],
    ['recorder', 16, 40 * MiB, 2, false],
    ['recorder', 16, 40 * MiB, 3, true],
    ['recorder', 16, 11 * MiB, 16, false],
    ['recorder', 1, 400 * MiB, 16, false],
  ];
  for (const [format, parts, bytes, cores, expected] of table) assert.equal(workersPayOff(format, parts, bytes, cores), expected, `${format} ${parts} ${bytes} ${cores}`);
});
