import { test } from 'node:test';
import check from './d02-strided-access.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D02 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'ior-stride-write-1k-fsync.darshan', expect: { data: { count: 4092, total: 4096 }, details: 1 } },
    { log: 'iopat-mpiio-strided-indep-4k.darshan' },
    ],
    quiet: [
    { log: 'ior-random-write-1k-fsync.darshan' },
    { log: 'iopat-mpiio-strided-coll-4k.darshan' },
    { log: 'ior-seq-write-2m-np8.darshan' },
    ],
  });
});
