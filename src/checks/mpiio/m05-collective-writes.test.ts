import { test } from 'node:test';
import check from './m05-collective-writes.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('M05 collective-writes', () => {
  runCheckCases(check, {
    fires: [
      { log: 'example.darshan', mode: 'drishti', expect: { data: { count: 16384, ratio: 0.9989025728569687 }, details: 0, recommendations: [] } },
      { log: 'imbalanced-io.darshan', mode: 'drishti', expect: { data: { count: 101184, ratio: 0.9965430639680898 }, details: 0, recommendations: [] } },
      { log: 'example.darshan', mode: 'default', expect: { data: { count: 16384, ratio: 0.9989025728569687 }, details: 0, recommendations: [] } },
    ],
    quiet: [
      { log: 'iopat-mpiio-strided-indep-4k.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P06 HIGH', 'P14 OK', 'P16 HIGH', 'P19 HIGH', 'M03 HIGH', 'M06 WARN', 'M07 WARN'] },
    ],
    notApplicable: [
      { log: 'iopat-balanced-shared-write.darshan' },
    ],
  });
});
