import { test } from 'node:test';
import check from './p16-shared-file-small-writes.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('P16 shared-file-small-writes', () => {
  runCheckCases(check, {
    fires: [
      { log: 'imbalanced-io.darshan', mode: 'drishti', expect: { data: { count: 50515, ratio: 1 }, details: 1, detail: { count: 50515, ratio: 1 }, recommendations: ['collective'] } },
      { log: 'iopat-mpiio-strided-indep-4k.darshan', mode: 'drishti', expect: { data: { count: 4096, ratio: 1 }, details: 1, detail: { count: 4096, ratio: 1 }, recommendations: ['collective'] } },
      // 99.65 % of the MPI-IO writes are collective already: the default mode does not advise them (src/checks/advice.ts)
      { log: 'imbalanced-io.darshan', mode: 'default', expect: { data: { count: 50515, ratio: 1 }, details: 1, detail: { count: 50515, ratio: 1 }, recommendations: [] } },
    ],
    quiet: [
      { log: 'example.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P08 HIGH', 'P10 WARN', 'P10 WARN', 'P14 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
    ],
    notApplicable: [
      { log: 'iopat-stdio-small-records.darshan' },
    ],
  });
});
