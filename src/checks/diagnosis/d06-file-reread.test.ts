import { test } from 'node:test';
import check from './d06-file-reread.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D06 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'iopat-redundant-read.darshan', expect: { data: { files: 1, extra: 201326592, read: 268435456 }, details: 1 } },
    ],
    quiet: [
    { log: 'iopat-partitioned-read.darshan' },
    { log: 'iopat-rw-switch-2m.darshan' },
    { log: 'ior-random-read-1k.darshan' },
    ],
  });
});
