import { test } from 'node:test';
import check from './p11-random-reads.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('P11 random-reads', () => {
  runCheckCases(check, {
    fires: [
      { log: 'iopat-meta-heavy-fpp-dxt-truncated.darshan', mode: 'drishti', expect: { data: { count: 4000, ratio: 1 }, details: 0, recommendations: ['sequentialLayout'] } },
      { log: 'iopat-meta-heavy-fpp.darshan', mode: 'drishti', expect: { data: { count: 4000, ratio: 1 }, details: 0, recommendations: ['sequentialLayout'] } },
      { log: 'iopat-meta-heavy-fpp-dxt-truncated.darshan', mode: 'default', expect: { data: { count: 4000, ratio: 1 }, details: 0, recommendations: ['sequentialLayout'] } },
    ],
    quiet: [
      { log: 'example.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P08 HIGH', 'P10 WARN', 'P10 WARN', 'P14 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
    ],
    notApplicable: [
      { log: 'iopat-stdio-small-records.darshan' },
    ],
  });
});
