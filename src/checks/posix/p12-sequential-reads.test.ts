import { test } from 'node:test';
import check from './p12-sequential-reads.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('P12 sequential-reads', () => {
  runCheckCases(check, {
    fires: [
      { log: 'imbalanced-io.darshan', mode: 'drishti', expect: { data: { consecutiveRatio: 0.9629389487334404, sequentialRatio: 0.029398328937091996 }, details: 0, recommendations: [] } },
      { log: 'iopat-meta-light.darshan', mode: 'drishti', expect: { data: { consecutiveRatio: 0, sequentialRatio: 0 }, details: 0, recommendations: [] } },
      { log: 'imbalanced-io.darshan', mode: 'default', expect: { data: { consecutiveRatio: 0.9629389487334404, sequentialRatio: 0.029398328937091996 }, details: 0, recommendations: [] } },
    ],
    quiet: [
      { log: 'example.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P08 HIGH', 'P10 WARN', 'P10 WARN', 'P14 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
    ],
    notApplicable: [
      { log: 'iopat-stdio-small-records.darshan' },
    ],
  });
});
