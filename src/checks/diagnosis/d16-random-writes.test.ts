import { test } from 'node:test';
import check from './d16-random-writes.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D16 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'ior-random-write-1k-fsync.darshan', expect: { data: { count: 2048, total: 4096 } } },
    ],
    quiet: [
    { log: 'iopat-meta-heavy-fpp.darshan' },
    { log: 'ior-stride-write-1k-fsync.darshan' },
    { log: 'ior-small-seq-write-1k.darshan' },
    ],
  });
});
