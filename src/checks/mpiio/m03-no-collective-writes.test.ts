import { test } from 'node:test';
import check from './m03-no-collective-writes.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('M03 no-collective-writes', () => {
  runCheckCases(check, {
    fires: [
      { log: 'iopat-mpiio-strided-indep-4k.darshan', mode: 'drishti', expect: { data: { count: 4096, ratio: 1 }, details: 1, detail: { count: 4096, percent: 100 }, recommendations: ['collective'] } },
      { log: 'ior-hdf5-indep-small-write-4k.darshan', mode: 'drishti', expect: { data: { count: 1031, ratio: 1 }, details: 1, detail: { count: 1031, percent: 100 }, recommendations: ['collective'] } },
      { log: 'iopat-mpiio-strided-indep-4k.darshan', mode: 'default', expect: { data: { count: 4096, ratio: 1 }, details: 1, detail: { count: 4096, ratio: 1 }, recommendations: ['collective'] } },
    ],
    quiet: [
      { log: 'example.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P08 HIGH', 'P10 WARN', 'P10 WARN', 'P14 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
    ],
    notApplicable: [
      { log: 'iopat-balanced-shared-write.darshan' },
    ],
  });
});
