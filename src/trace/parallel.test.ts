import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeTrace } from './analyze.js';
import { BUILTIN_RULES } from './rules/builtin/index.js';
import { DEFAULT_VIEWS } from './views.js';

const opts = {
  views: [...DEFAULT_VIEWS],
  metric: 'iops_slope' as const,
  minTimeShare: 0.001,
  smallBytes: 1 << 20,
  rules: BUILTIN_RULES,
  top: 0,
};

for (const path of ['../shared/traces/recorder/flash_sedov3d_hdf5-ranks0-3', '../shared/traces/dftracer/cm1_1_48_20240926']) {
  test(`worker threads give the same report as one thread: ${path.split('/').pop()}`, async () => {
    const one = (await analyzeTrace([path], { ...opts, threads: 1 })).report;
    const two = (await analyzeTrace([path], { ...opts, threads: 2 })).report;
    assert.equal(two.input.events, one.input.events);
    assert.deepEqual(two.input.warnings, one.input.warnings);
    assert.deepEqual(two.characteristics.calls_by_function, one.characteristics.calls_by_function);
    assert.equal(two.characteristics.ops, one.characteristics.ops);
    assert.equal(two.characteristics.bytes, one.characteristics.bytes);
    assert.ok(Math.abs(two.characteristics.io_time - one.characteristics.io_time) < 1e-6);
    assert.equal(two.options.granularity, one.options.granularity);
    for (let i = 0; i < one.views.length; i++) {
      assert.equal(two.views[i].records, one.views[i].records, one.views[i].name);
      assert.equal(two.views[i].bottlenecks, one.views[i].bottlenecks, one.views[i].name);
      assert.deepEqual(two.views[i].by_severity, one.views[i].by_severity, one.views[i].name);
    }
  });
}
