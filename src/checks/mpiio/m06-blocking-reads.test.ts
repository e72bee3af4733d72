import { test } from 'node:test';
import check from './m06-blocking-reads.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('M06 blocking-reads', () => {
  runCheckCases(check, {
    fires: [
      { log: 'example.darshan', mode: 'drishti', expect: { details: 0, recommendations: ['asyncVol', 'nonBlocking'] } },
      { log: 'imbalanced-io.darshan', mode: 'drishti', expect: { details: 0, recommendations: ['nonBlocking'] } },
      { log: 'imbalanced-io.darshan', mode: 'default', expect: { details: 0, recommendations: ['nonBlocking'] } },
    ],
    quiet: [
      { log: 'example.darshan', mode: 'default', fired: ['P01 INFO', 'P03 INFO', 'P14 OK', 'M05 OK', 'M07 INFO', 'D12 WARN'] },
    ],
    notApplicable: [
      { log: 'iopat-balanced-shared-write.darshan' },
    ],
  });
});
