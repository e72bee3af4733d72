import { test } from 'node:test';
import check from './p06-small-writes.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('P06 small-writes', () => {
  runCheckCases(check, {
    fires: [
      { log: 'imbalanced-io.darshan', mode: 'drishti', expect: { data: { count: 50832, ratio: 1 }, details: 1, detail: { count: 50515, ratio: 0.9937637708530059 }, recommendations: ['coalesce', 'collective'] } },
      { log: 'iopat-meta-heavy-fpp-dxt-truncated.darshan', mode: 'drishti', expect: { data: { count: 4000, ratio: 1 }, details: 0, recommendations: ['coalesce', 'adoptMpiio'] } },
      // The default mode does not advise collective writes where the MPI-IO writes are collective already (advice.ts).
      { log: 'imbalanced-io.darshan', mode: 'default', expect: { data: { count: 50832, ratio: 1 }, details: 1, detail: { count: 50515, ratio: 0.9937637708530059 }, recommendations: ['coalesce'] } },
    ],
    quiet: [
      { log: 'example.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P08 HIGH', 'P10 WARN', 'P10 WARN', 'P14 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
    ],
    notApplicable: [
      { log: 'iopat-stdio-small-records.darshan' },
    ],
  });
});
