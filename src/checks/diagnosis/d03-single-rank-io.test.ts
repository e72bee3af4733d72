import { test } from 'node:test';
import check from './d03-single-rank-io.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D03 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'iopat-rank0-shared-write.darshan', expect: { data: { rank: 0, share: 1, nprocs: 4 } } },
    ],
    quiet: [
    { log: 'iopat-mpiio-strided-coll-4k.darshan' },
    { log: 'iopat-balanced-shared-write.darshan' },
    { log: 'ior-healthy-posix-fpp-large.darshan' },
    ],
  });
});
