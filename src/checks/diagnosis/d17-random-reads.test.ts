import { test } from 'node:test';
import check from './d17-random-reads.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D17 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'ior-random-read-1k.darshan', expect: { data: { count: 2050, total: 4096 } } },
    ],
    quiet: [
    { log: 'iopat-meta-heavy-fpp.darshan', fired: ['M01 INFO', 'D07 HIGH', 'D08 HIGH', 'D10 WARN', 'D11 WARN', 'D18 INFO', 'D20 INFO'] },
    { log: 'ior-small-seq-read-1k.darshan', fired: ['M01 INFO', 'P02 INFO', 'P04 INFO', 'P12 OK', 'D11 WARN', 'D18 INFO'] },
    { log: 'iopat-redundant-read.darshan', fired: ['M01 INFO', 'P02 INFO', 'P04 INFO', 'P12 OK', 'D06 HIGH', 'D18 INFO'] },
    ],
  });
});
