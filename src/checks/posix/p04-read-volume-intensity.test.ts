import { test } from 'node:test';
import check from './p04-read-volume-intensity.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('P04 read-volume-intensity', () => {
  runCheckCases(check, {
    fires: [
      { log: 'iopat-partitioned-read.darshan', mode: 'drishti', expect: { data: { writeRatio: 0, readRatio: 1 }, details: 0, recommendations: [] } },
      { log: 'iopat-redundant-read.darshan', mode: 'drishti', expect: { data: { writeRatio: 0, readRatio: 1 }, details: 0, recommendations: [] } },
      { log: 'iopat-partitioned-read.darshan', mode: 'default', expect: { data: { writeRatio: 0, readRatio: 1 }, details: 0, recommendations: [] } },
    ],
    quiet: [
      { log: 'example.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P08 HIGH', 'P10 WARN', 'P10 WARN', 'P14 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
    ],
    notApplicable: [
      { log: 'iopat-stdio-small-records.darshan' },
    ],
  });
});
