import { test } from 'node:test';
import check from './p15-shared-file-small-reads.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('P15 shared-file-small-reads', () => {
  runCheckCases(check, {
    fires: [
      { log: 'imbalanced-io.darshan', mode: 'drishti', expect: { data: { count: 52991, ratio: 1 }, details: 1, detail: { count: 52991, ratio: 1 }, recommendations: ['collective'] } },
      { log: 'ior-random-read-1k.darshan', mode: 'drishti', expect: { data: { count: 4096, ratio: 1 }, details: 1, detail: { count: 4096, ratio: 1 }, recommendations: ['collective'] } },
      { log: 'imbalanced-io.darshan', mode: 'default', expect: { data: { count: 52991, ratio: 1 }, details: 1, detail: { count: 52991, ratio: 1 }, recommendations: ['collective'] } },
    ],
    quiet: [
      { log: 'example.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P08 HIGH', 'P10 WARN', 'P10 WARN', 'P14 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
    ],
    notApplicable: [
      { log: 'iopat-stdio-small-records.darshan' },
    ],
  });
});
