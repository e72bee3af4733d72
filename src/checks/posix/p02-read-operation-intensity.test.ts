import { test } from 'node:test';
import check from './p02-read-operation-intensity.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('P02 read-operation-intensity', () => {
  runCheckCases(check, {
    fires: [
      { log: 'imbalanced-io.darshan', mode: 'drishti', expect: { data: { writeRatio: 0.428264514335302, readRatio: 0.571735485664698 }, details: 0, recommendations: [] } },
      { log: 'iopat-partitioned-read.darshan', mode: 'drishti', expect: { data: { writeRatio: 0, readRatio: 1 }, details: 0, recommendations: [] } },
      { log: 'imbalanced-io.darshan', mode: 'default', expect: { data: { writeRatio: 0.428264514335302, readRatio: 0.571735485664698 }, details: 0, recommendations: [] } },
    ],
    quiet: [
      { log: 'example.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P08 HIGH', 'P10 WARN', 'P10 WARN', 'P14 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
    ],
    notApplicable: [
      { log: 'iopat-stdio-small-records.darshan' },
    ],
  });
});
