import { test } from 'node:test';
import check from './d16-random-writes.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D16 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'ior-random-write-1k-fsync.darshan', expect: { data: { count: 2048, total: 4096 } } },
    ],
    quiet: [
    { log: 'iopat-meta-heavy-fpp.darshan', fired: ['M01 INFO', 'D07 HIGH', 'D08 HIGH', 'D10 WARN', 'D11 WARN', 'D18 INFO', 'D20 INFO'] },
    { log: 'ior-stride-write-1k-fsync.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK', 'D01 HIGH', 'D02 WARN', 'D10 WARN', 'D18 INFO', 'D20 INFO'] },
    { log: 'ior-small-seq-write-1k.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK', 'D10 WARN', 'D18 INFO'] },
    ],
  });
});
