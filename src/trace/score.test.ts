import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Metrics } from './views.js';
import { costLevel, METRICS, recordLevel, scoreEvidence, scoreRecord } from './score.js';

const m = (x: Partial<Metrics>) => ({ ops: 1, time: 1, data_ops: 1, data_time: 1, ...x }) as Metrics;

test('metric values and badness: IOPS slope, time share, bandwidth', () => {
  // 50 % of the time for 5 % of the operations: atan2(0.5, 0.05) = 84.29°, badness (84.29 − 45) / 45
  const slope = scoreRecord(m({ time_share: 0.5, ops_share: 0.05 }), { metric: 'iops_slope', threshold: 45, minTimeShare: 0 });
  assert.equal(slope.value, (Math.atan2(0.5, 0.05) * 180) / Math.PI);
  assert.equal(slope.badness, (slope.value - 45) / 45);
  // exactly at the threshold: not flagged
  assert.equal(scoreRecord(m({ time_share: 0.2, ops_share: 0.2 }), { metric: 'iops_slope', threshold: 45, minTimeShare: 0 }).badness, 0);
  assert.equal(scoreRecord(m({ time_share: 0.5 }), { metric: 'time', threshold: 5, minTimeShare: 0 }).badness, 45 / 95);
  assert.equal(scoreRecord(m({ bandwidth: 25 * 1024 * 1024, time_share: 1 }), { metric: 'bw', threshold: 100, minTimeShare: 0 }).badness, 0.75);
  // below the minimum time share nothing is flagged, whatever the metric says
  assert.equal(scoreRecord(m({ time_share: 0.0005, ops_share: 0 }), { metric: 'iops_slope', threshold: 45, minTimeShare: 0.001 }).badness, 0);
  // records the metric does not apply to
  assert.deepEqual(scoreRecord(m({ ops: 0, time_share: 1 }), { metric: 'iops_slope', threshold: 45, minTimeShare: 0 }), { value: 0, badness: 0 });
  assert.deepEqual(scoreRecord(m({ data_ops: 0 }), { metric: 'bw', threshold: 100, minTimeShare: 0 }), { value: 0, badness: 0 });
  assert.equal(METRICS.iops_slope.invalidThreshold(90), 'the IOPS slope threshold must be below 90 degrees');
  assert.equal(METRICS.time.invalidThreshold(99), null);
  assert.equal(METRICS.bw.invalidThreshold(0), 'the bandwidth threshold must be above 0 MiB/s');
});

test('the level rule: cost first — HIGH from 25 %, WARN from 5 %, INFO below, OK when the metric does not flag', () => {
  const cuts = { high: 0.25, warn: 0.05 };
  assert.equal(costLevel(0.25, cuts), 'HIGH');
  assert.equal(costLevel(0.2499, cuts), 'WARN');
  assert.equal(costLevel(0.05, cuts), 'WARN');
  assert.equal(costLevel(0.049, cuts), 'INFO');
  // issue 13: a record with 2.9 % of the time and the worst metric is below one with 69.1 % and a mild one
  assert.equal(recordLevel(0.029, 1, cuts), 'INFO');
  assert.equal(recordLevel(0.691, 0.01, cuts), 'HIGH');
  assert.equal(recordLevel(0.9, 0, cuts), 'OK');
  // monotone in the share for any badness
  const order = ['HIGH', 'WARN', 'INFO'];
  let prev = 0;
  for (let s = 1; s >= 0; s -= 0.01) {
    const rank = order.indexOf(recordLevel(s, 0.5, cuts));
    assert.ok(rank >= prev);
    prev = rank;
  }
});

test('a score as evidence: the metric in a contract unit, and the badness', () => {
  assert.deepEqual(scoreEvidence({ metric: 'iops_slope', value: 60, badness: 1 / 3 }, 'x'), [
    { name: 'iops_slope', value: 60, unit: 'degrees', source: 'iops_slope of x' },
    { name: 'badness', value: 1 / 3, unit: 'ratio', source: 'iops_slope badness (0 at the threshold, 1 worst) of x' },
  ]);
  assert.equal(scoreEvidence({ metric: 'bw', value: 2, badness: 0.98 }, 'x')[0].value, 2 * 1024 * 1024);
  assert.equal(scoreEvidence({ metric: 'bw', value: 2, badness: 0.98 }, 'x')[0].unit, 'bytes/s');
});
