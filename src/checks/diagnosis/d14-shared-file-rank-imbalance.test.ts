import { test } from 'node:test';
import check from './d14-shared-file-rank-imbalance.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D14 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'iopat-rank0-shared-write.darshan', expect: { data: { spread: 1, files: 1 } } },
    ],
    quiet: [
    { log: 'iopat-mpiio-strided-coll-4k.darshan' },
    { log: 'ior-random-write-1k-fsync.darshan' },
    { log: 'iopat-balanced-shared-write.darshan' },
    ],
  });
});
