import { test } from 'node:test';
import check from './m01-mpiio-unused.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('M01 mpiio-unused', () => {
  runCheckCases(check, {
    fires: [
      { log: 'iopat-balanced-shared-write.darshan', mode: 'drishti', expect: { details: 0, recommendations: ['adoptMpiio'] } },
      { log: 'iopat-meta-heavy-fpp-dxt-truncated.darshan', mode: 'drishti', expect: { details: 0, recommendations: ['adoptMpiio'] } },
      { log: 'iopat-balanced-shared-write.darshan', mode: 'default', expect: { details: 0, recommendations: ['adoptMpiio'] } },
    ],
    quiet: [
      { log: 'example.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P08 HIGH', 'P10 WARN', 'P10 WARN', 'P14 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
    ],
  });
});
