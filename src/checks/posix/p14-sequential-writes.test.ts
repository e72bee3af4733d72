import { test } from 'node:test';
import check from './p14-sequential-writes.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('P14 sequential-writes', () => {
  runCheckCases(check, {
    fires: [
      { log: 'example.darshan', mode: 'drishti', expect: { data: { consecutiveRatio: 0, sequentialRatio: 0.9989025728569687 }, details: 0, recommendations: [] } },
      { log: 'imbalanced-io.darshan', mode: 'drishti', expect: { data: { consecutiveRatio: 0.9933309726156752, sequentialRatio: 0.006629682090022034 }, details: 0, recommendations: [] } },
      { log: 'example.darshan', mode: 'default', expect: { data: { consecutiveRatio: 0, sequentialRatio: 0.9989025728569687 }, details: 0, recommendations: [] } },
    ],
    quiet: [
      { log: 'iopat-meta-heavy-fpp-dxt-truncated.darshan', mode: 'drishti', fired: ['M01 WARN', 'P05 HIGH', 'P06 HIGH', 'P11 HIGH', 'P13 HIGH'] },
    ],
    notApplicable: [
      { log: 'iopat-stdio-small-records.darshan' },
    ],
  });
});
