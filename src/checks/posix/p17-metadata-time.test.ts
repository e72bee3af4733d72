import { test } from 'node:test';
import check from './p17-metadata-time.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('P17 metadata-time', () => {
  runCheckCases(check, {
    fires: [
      { log: 'skew-app.darshan', mode: 'drishti', expect: { data: { ranks: 1, seconds: 30 }, details: 0, recommendations: ['reduceMetadata'] } },
    ],
    quiet: [
      { log: 'example.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P08 HIGH', 'P10 WARN', 'P10 WARN', 'P14 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
      { log: 'skew-app.darshan', mode: 'default', fired: ['P01 INFO', 'P03 INFO', 'P14 OK', 'M05 OK', 'D07 WARN', 'D20 INFO', 'D22 WARN'] },
    ],
    notApplicable: [
      { log: 'iopat-stdio-small-records.darshan' },
    ],
  });
});
