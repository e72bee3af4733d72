import { test } from 'node:test';
import check from './d04-read-write-switches.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D04 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'iopat-rw-switch-2m.darshan', expect: { data: { switches: 124, ops: 128, files: 1 } } },
    ],
    quiet: [
    { log: 'iopat-write-then-read-2m.darshan' },
    { log: 'iopat-meta-heavy-fpp.darshan' },
    { log: 'ior-healthy-mpiio-coll-large.darshan' },
    ],
  });
});
