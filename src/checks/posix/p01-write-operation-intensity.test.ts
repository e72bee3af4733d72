import { test } from 'node:test';
import check from './p01-write-operation-intensity.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('P01 write-operation-intensity', () => {
  runCheckCases(check, {
    fires: [
      { log: 'example.darshan', mode: 'drishti', expect: { data: { writeRatio: 1, readRatio: 0 }, details: 0, recommendations: [] } },
      { log: 'iopat-balanced-shared-write.darshan', mode: 'drishti', expect: { data: { writeRatio: 1, readRatio: 0 }, details: 0, recommendations: [] } },
      { log: 'example.darshan', mode: 'default', expect: { data: { writeRatio: 1, readRatio: 0 }, details: 0, recommendations: [] } },
    ],
    quiet: [
      { log: 'imbalanced-io.darshan', mode: 'drishti', fired: ['P02 INFO', 'P05 HIGH', 'P06 HIGH', 'P07 HIGH', 'P08 HIGH', 'P12 OK', 'P14 OK', 'P15 HIGH', 'P16 HIGH', 'P18 HIGH', 'P19 HIGH', 'P21 HIGH', 'M04 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
    ],
    notApplicable: [
      { log: 'iopat-stdio-small-records.darshan' },
    ],
  });
});
