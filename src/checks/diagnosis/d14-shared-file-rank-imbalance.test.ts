import { test } from 'node:test';
import check from './d14-shared-file-rank-imbalance.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D14 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'iopat-rank0-shared-write.darshan', expect: { data: { spread: 1, files: 1 } } },
    ],
    quiet: [
    { log: 'iopat-mpiio-strided-coll-4k.darshan', fired: ['P01 INFO', 'P03 INFO', 'P14 OK', 'M05 OK', 'M07 INFO', 'D18 INFO', 'D20 INFO'] },
    { log: 'ior-random-write-1k-fsync.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'D01 HIGH', 'D10 WARN', 'D16 WARN', 'D18 INFO', 'D20 INFO'] },
    { log: 'iopat-balanced-shared-write.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK', 'D18 INFO'] },
    ],
  });
});
