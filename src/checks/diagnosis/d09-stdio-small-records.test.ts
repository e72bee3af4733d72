import { test } from 'node:test';
import check from './d09-stdio-small-records.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D09 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'iopat-stdio-small-records.darshan', expect: { data: { ops: 400000, share: 1 } } },
    ],
    quiet: [
    { log: 'iopat-posix-bulk-records.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK', 'D18 INFO'] },
    { log: 'ior-seq-write-1m.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK', 'D18 INFO'] },
    { log: 'darshan-apmpi-2nodes-64mpi.darshan', fired: ['M01 INFO'] },
    ],
  });
});
