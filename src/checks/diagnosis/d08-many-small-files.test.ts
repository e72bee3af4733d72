import { test } from 'node:test';
import check from './d08-many-small-files.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D08 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'iopat-meta-heavy-fpp.darshan', expect: { data: { small: 4000, files: 4000 } } },
    ],
    quiet: [
    { log: 'iopat-meta-light.darshan', fired: ['M01 INFO', 'P12 OK', 'P14 OK', 'D18 INFO'] },
    { log: 'ior-seq-write-2m-np8.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK', 'D18 INFO'] },
    { log: 'ior-healthy-posix-fpp-large.darshan', fired: ['M01 INFO', 'P12 OK', 'P14 OK', 'D18 INFO'] },
    ],
  });
});
