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
    { log: 'ior-random-write-1k-fsync.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'D01 HIGH', 'D10 WARN', 'D16 WARN', 'D18 INFO', 'D20 INFO'] },
    { log: 'iopat-mpiio-strided-coll-4k.darshan', fired: ['P01 INFO', 'P03 INFO', 'P14 OK', 'M05 OK', 'M07 INFO', 'D18 INFO', 'D20 INFO'] },
    { log: 'ior-seq-write-2m-np8.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK', 'D18 INFO'] },
    ],
  });
});
