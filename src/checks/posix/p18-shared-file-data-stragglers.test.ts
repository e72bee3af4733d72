import { test } from 'node:test';
import check from './p18-shared-file-data-stragglers.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('P18 shared-file-data-stragglers', () => {
  runCheckCases(check, {
    fires: [
      { log: 'imbalanced-io.darshan', mode: 'drishti', expect: { data: { files: 1 }, details: 1, detail: { ratio: 0.9999902514804402 }, recommendations: ['balance', 'striping'] } },
      { log: 'iopat-mpiio-strided-coll-4k.darshan', mode: 'drishti', expect: { data: { files: 1 }, details: 1, detail: { ratio: 1 }, recommendations: ['balance', 'striping'] } },
      { log: 'imbalanced-io.darshan', mode: 'default', expect: { data: { files: 1 }, details: 1, detail: { ratio: 0.9999902514804402 }, recommendations: ['balance', 'striping'] } },
    ],
    quiet: [
      { log: 'example.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P08 HIGH', 'P10 WARN', 'P10 WARN', 'P14 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
    ],
    notApplicable: [
      { log: 'iopat-stdio-small-records.darshan' },
    ],
  });
});
