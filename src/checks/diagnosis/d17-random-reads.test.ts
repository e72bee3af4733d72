import { test } from 'node:test';
import check from './d17-random-reads.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D17 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'ior-random-read-1k.darshan', expect: { data: { count: 2050, total: 4096 } } },
    ],
    quiet: [
    { log: 'iopat-meta-heavy-fpp.darshan' },
    { log: 'ior-small-seq-read-1k.darshan' },
    { log: 'iopat-redundant-read.darshan' },
    ],
  });
});
