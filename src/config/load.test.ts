import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, parseConfig } from './load.js';

test("Drishti's --config form sets knobs by category_name", () => {
  const c = parseConfig('{"small": {"requests": 0.5, "requests_absolute": 100}, "metadata": {"time_rank": 5}}');
  assert.equal(c.knobs.small_requests, 0.5);
  assert.equal(c.knobs.small_requests_absolute, 100);
  assert.equal(c.knobs.metadata_time_rank, 5);
  assert.equal(c.knobs.random_operations, 0.2);
});

test('the IOLens form sets thresholds and check overrides', () => {
  const c = parseConfig('{"thresholds": {"interface_stdio": 0.3}, "checks": {"M01": "off", "P06": {"level": "WARN"}}}');
  assert.equal(c.knobs.interface_stdio, 0.3);
  assert.deepEqual(c.checks.M01, { enabled: false });
  assert.deepEqual(c.checks.P06, { enabled: true, level: 'WARN' });
});

test('unknown keys and out-of-range ratios are errors', () => {
  assert.throws(() => parseConfig('{"small": {"request": 1}}'), ConfigError);
  assert.throws(() => parseConfig('{"small": {"requests": 2}}'), /≤ 1/);
  assert.throws(() => parseConfig('not json'), /not valid JSON/);
});
