import { test } from 'node:test';
import check from './p08-misaligned-file.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('P08 misaligned-file', () => {
  runCheckCases(check, {
    fires: [
      { log: 'example.darshan', mode: 'drishti', expect: { data: { ratio: 0.9999390318253871 }, details: 0, recommendations: ['align', 'lustreAlignment'] } },
      { log: 'imbalanced-io.darshan', mode: 'drishti', expect: { data: { ratio: 0.14899783475015377 }, details: 0, recommendations: ['align', 'lustreAlignment'] } },
      { log: 'example.darshan', mode: 'default', expect: { data: { ratio: 0.9999390318253871 }, details: 0, recommendations: ['align', 'hdf5Alignment', 'lustreAlignment'] } },
    ],
    quiet: [
      { log: 'iopat-balanced-shared-write.darshan', mode: 'drishti', fired: ['M01 WARN', 'P01 INFO', 'P03 INFO', 'P14 OK'] },
    ],
    notApplicable: [
      { log: 'iopat-stdio-small-records.darshan' },
    ],
  });
});
