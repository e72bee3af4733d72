import { test } from 'node:test';
import check from './d06-file-reread.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D06 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'iopat-redundant-read.darshan', expect: { data: { files: 1, extra: 201326592, read: 268435456 }, details: 1 } },
    ],
    quiet: [
    { log: 'iopat-partitioned-read.darshan', fired: ['M01 INFO', 'P02 INFO', 'P04 INFO', 'P12 OK', 'D18 INFO'] },
    { log: 'iopat-rw-switch-2m.darshan', fired: ['M01 INFO', 'P12 OK', 'P14 OK', 'D04 WARN', 'D18 INFO'] },
    { log: 'ior-random-read-1k.darshan', fired: ['M01 INFO', 'P02 INFO', 'P04 INFO', 'D11 WARN', 'D17 WARN', 'D18 INFO'] },
    ],
  });
});
