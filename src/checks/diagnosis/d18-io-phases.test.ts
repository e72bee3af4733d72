import { test } from 'node:test';
import check from './d18-io-phases.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D18 on logs with and without HEATMAP', () => {
  runCheckCases(check, {
    fires: [
      { log: 'iopat-rw-switch-2m.darshan', expect: { data: { layer: 'POSIX', ranks: 4 } } },
      { log: 'iopat-stdio-small-records.darshan', expect: { data: { layer: 'STDIO' } } },
    ],
    quiet: [
      {
        facts: { 'heatmap.timeline': { binSeconds: 0.1, layers: [{ layer: 'POSIX', bytes: Float64Array.of(0, 0), activeRanks: Float64Array.of(0, 0) }] } },
        fired: [],
      },
    ],
    notApplicable: [{ log: 'example.darshan' }],
  });
});
