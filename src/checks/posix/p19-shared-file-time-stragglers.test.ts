import { test } from 'node:test';
import check from './p19-shared-file-time-stragglers.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('P19 shared-file-time-stragglers', () => {
  runCheckCases(check, {
    fires: [
      { log: 'imbalanced-io.darshan', mode: 'drishti', expect: { data: { files: 1 }, details: 1, detail: { ratio: 0.8826319646622719 }, recommendations: ['distribute', 'striping'] } },
      { log: 'iopat-mpiio-strided-coll-4k.darshan', mode: 'drishti', expect: { data: { files: 1 }, details: 1, detail: { ratio: 0.9979430694711698 }, recommendations: ['distribute', 'striping'] } },
      { log: 'imbalanced-io.darshan', mode: 'default', expect: { data: { files: 1 }, details: 1, detail: { ratio: 0.8826319646622719 }, recommendations: ['distribute', 'striping'] } },
    ],
    quiet: [
      { log: 'example.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P08 HIGH', 'P10 WARN', 'P10 WARN', 'P14 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
    ],
    notApplicable: [
      { log: 'iopat-stdio-small-records.darshan' },
    ],
  });
});
