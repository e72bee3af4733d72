import { test } from 'node:test';
import check from './p22-per-rank-read-imbalance.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('P22 per-rank-read-imbalance', () => {
  runCheckCases(check, {
    fires: [
      { log: 'jlbez_8a_benchmark_write_parallel_id1322696_8-21-14519-8141979180909667175_12.darshan', mode: 'drishti', expect: { data: { files: 1 }, details: 1, detail: { ratio: 1 }, recommendations: ['balance', 'striping', 'noFill', 'collective'] } },
    ],
    quiet: [
      // The default mode judges files reached through MPI-IO at that layer (D14): collective buffering is not an imbalance.
      { log: 'jlbez_8a_benchmark_write_parallel_id1322696_8-21-14519-8141979180909667175_12.darshan', mode: 'default', fired: ['P01 INFO', 'P03 INFO', 'P10 WARN', 'P12 OK', 'P14 OK', 'M05 OK', 'M07 INFO', 'D05 WARN', 'D20 INFO'] },
      { log: 'example.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P08 HIGH', 'P10 WARN', 'P10 WARN', 'P14 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
    ],
    notApplicable: [
      { log: 'iopat-stdio-small-records.darshan' },
    ],
  });
});
