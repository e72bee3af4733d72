import { test } from 'node:test';
import check from './p09-redundant-reads.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('P09 redundant-reads', () => {
  runCheckCases(check, {
    fires: [
      { log: 'jlbez_8a_benchmark_write_parallel_id1322696_8-21-14519-8141979180909667175_12.darshan', mode: 'drishti', expect: { details: 0, recommendations: [] } },
      { log: 'imbalanced-io.darshan', mode: 'default', expect: { data: { files: 1, excess: 1025628 }, details: 1, detail: { bytes: 52939424612, extent: 52938398984 }, recommendations: [] } },
    ],
    quiet: [
      { log: 'example.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P08 HIGH', 'P10 WARN', 'P10 WARN', 'P14 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
      { log: 'jlbez_8a_benchmark_write_parallel_id1322696_8-21-14519-8141979180909667175_12.darshan', mode: 'default', fired: ['P01 INFO', 'P03 INFO', 'P10 WARN', 'P12 OK', 'P14 OK', 'M05 OK', 'M07 INFO', 'D05 WARN', 'D20 INFO'] },
    ],
    notApplicable: [
      { log: 'iopat-stdio-small-records.darshan' },
    ],
  });
});
