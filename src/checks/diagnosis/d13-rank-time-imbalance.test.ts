import { test } from 'node:test';
import check from './d13-rank-time-imbalance.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D13 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'iopat-straggler-fsync-write.darshan', expect: { data: { rank: 3, files: 1 } } },
    ],
    quiet: [
    { log: 'ior-seq-write-2m-np8.darshan' },
    { log: 'ior-aligned-write-2m.darshan' },
    { log: 'iopat-rw-switch-2m.darshan' },
    { log: 'ior-random-write-1k-fsync.darshan' },
    { log: 'iopat-rank0-shared-write.darshan' },
    ],
  });
});
