import { test } from 'node:test';
import check from './p10-redundant-writes.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('P10 redundant-writes', () => {
  runCheckCases(check, {
    fires: [
      { log: 'example.darshan', mode: 'drishti', expect: { insights: 2, details: 0, recommendations: [] } },
      { log: 'ior-hdf5-coll-write-8m.darshan', mode: 'drishti', expect: { insights: 2, details: 0, recommendations: [] } },
      { log: 'jlbez_8a_benchmark_write_parallel_id1322696_8-21-14519-8141979180909667175_12.darshan', mode: 'default', expect: { data: { files: 1, excess: 137278425632 }, details: 1, detail: { bytes: 266129016488, extent: 128850590856 }, recommendations: [] } },
    ],
    quiet: [
      { log: 'imbalanced-io.darshan', mode: 'drishti', fired: ['P02 INFO', 'P05 HIGH', 'P06 HIGH', 'P07 HIGH', 'P08 HIGH', 'P12 OK', 'P14 OK', 'P15 HIGH', 'P16 HIGH', 'P18 HIGH', 'P19 HIGH', 'P21 HIGH', 'M04 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
      { log: 'example.darshan', mode: 'default', fired: ['P01 INFO', 'P03 INFO', 'P14 OK', 'M05 OK', 'M07 INFO', 'D12 WARN'] },
    ],
    notApplicable: [
      { log: 'iopat-stdio-small-records.darshan' },
    ],
  });
});
