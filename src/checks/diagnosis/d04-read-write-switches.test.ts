import { test } from 'node:test';
import check from './d04-read-write-switches.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D04 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'iopat-rw-switch-2m.darshan', expect: { data: { switches: 124, ops: 128, files: 1 } } },
    ],
    quiet: [
    { log: 'iopat-write-then-read-2m.darshan', fired: ['M01 INFO', 'P12 OK', 'P14 OK', 'D18 INFO'] },
    { log: 'iopat-meta-heavy-fpp.darshan', fired: ['M01 INFO', 'D07 HIGH', 'D08 HIGH', 'D10 WARN', 'D11 WARN', 'D18 INFO', 'D20 INFO'] },
    { log: 'ior-healthy-mpiio-coll-large.darshan', fired: ['P12 OK', 'P14 OK', 'M04 OK', 'M05 OK', 'M06 INFO', 'M07 INFO', 'D18 INFO'] },
    ],
  });
});
