import { test } from 'node:test';
import check from './m04-collective-reads.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('M04 collective-reads', () => {
  runCheckCases(check, {
    fires: [
      { log: 'imbalanced-io.darshan', mode: 'drishti', expect: { data: { count: 496, ratio: 0.16527824058647117 }, details: 0, recommendations: [] } },
      { log: 'ior-healthy-mpiio-coll-large.darshan', mode: 'drishti', expect: { data: { count: 16, ratio: 1 }, details: 0, recommendations: [] } },
      { log: 'imbalanced-io.darshan', mode: 'default', expect: { data: { count: 496, ratio: 0.16527824058647117 }, details: 0, recommendations: [] } },
    ],
    quiet: [
      { log: 'example.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P08 HIGH', 'P10 WARN', 'P10 WARN', 'P14 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
    ],
    notApplicable: [
      { log: 'iopat-balanced-shared-write.darshan' },
    ],
  });
});
