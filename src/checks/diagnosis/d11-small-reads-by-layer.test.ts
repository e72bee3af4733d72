import { test } from 'node:test';
import check from './d11-small-reads-by-layer.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D11 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'ior-small-seq-read-1k.darshan', expect: { data: { count: 4096, total: 4096 } } },
    { log: 'iopat-meta-heavy-fpp.darshan' },
    ],
    quiet: [
    { log: 'ior-seq-read-1m.darshan', fired: ['M01 INFO', 'P02 INFO', 'P04 INFO', 'P12 OK', 'D18 INFO'] },
    { log: 'ior-seq-read-2m-16m.darshan', fired: ['M01 INFO', 'P02 INFO', 'P04 INFO', 'P12 OK', 'D18 INFO'] },
    { log: 'iopat-meta-light.darshan', fired: ['M01 INFO', 'P12 OK', 'P14 OK', 'D18 INFO'] },
    ],
  });
});
