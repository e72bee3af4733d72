import { test } from 'node:test';
import check from './s01-stdio-heavy.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('S01 stdio-heavy', () => {
  runCheckCases(check, {
    fires: [
      { log: 'iopat-stdio-small-records.darshan', mode: 'drishti', expect: { data: { ratio: 1, bytes: 18315604 }, details: 0, recommendations: ['parallelInterface'] } },
      { log: 'iopat-stdio-small-records.darshan', mode: 'default', expect: { data: { ratio: 1, bytes: 18315604 }, details: 0, recommendations: ['parallelInterface'] } },
    ],
    quiet: [
      { log: 'example.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P08 HIGH', 'P10 WARN', 'P10 WARN', 'P14 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
    ],
    notApplicable: [
      { log: 'shane_macsio_id29959_5-22-32552-7035573431850780836_1590156158.darshan' },
    ],
  });
});
