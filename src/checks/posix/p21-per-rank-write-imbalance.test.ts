import { test } from 'node:test';
import check from './p21-per-rank-write-imbalance.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('P21 per-rank-write-imbalance', () => {
  runCheckCases(check, {
    fires: [
      { log: 'imbalanced-io.darshan', mode: 'drishti', expect: { data: { files: 2 }, details: 2, detail: { ratio: 1 }, recommendations: ['balance', 'striping', 'noFill', 'collective'] } },
      { log: 'jlbez_8a_benchmark_write_parallel_id1322696_8-21-14519-8141979180909667175_12.darshan', mode: 'drishti', expect: { data: { files: 1 }, details: 1, detail: { ratio: 1 }, recommendations: ['balance', 'striping', 'noFill', 'collective'] } },
      // A POSIX-only file (an Open MPI shared-memory file) written rank by rank: still judged at POSIX.
      // on NFS: no striping to set, so the default mode does not advise it (src/checks/advice.ts)
      { log: 'sample-dxt-simple.darshan', mode: 'default', expect: { data: { files: 1 }, details: 1, detail: { ratio: 1 }, recommendations: ['balance', 'noFill', 'collective'] } },
    ],
    quiet: [
      // The default mode judges files reached through MPI-IO at that layer (D14): collective buffering is not an imbalance.
      { log: 'imbalanced-io.darshan', mode: 'default', fired: ['P02 INFO', 'P07 WARN', 'P12 OK', 'P14 OK', 'M04 OK', 'M05 OK', 'M06 INFO', 'M07 INFO', 'D08 WARN', 'D10 WARN', 'D11 WARN', 'D12 WARN', 'D14 WARN', 'D15 WARN', 'D20 INFO', 'D22 WARN'] },
      { log: 'example.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P08 HIGH', 'P10 WARN', 'P10 WARN', 'P14 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
    ],
    notApplicable: [
      { log: 'iopat-stdio-small-records.darshan' },
    ],
  });
});
