import { test } from 'node:test';
import check from './d03-single-rank-io.js';
import { runCheckCases } from '../testing/check-tester.js';
import { rankBytes } from '../testing/diagnosis-facts.js';

test('D03 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { facts: { 'io.rankBytes': rankBytes([0, 95e6, 2.5e6, 2.5e6]) }, expect: { data: { rank: 1, share: 0.95 } } },
    { log: 'iopat-rank0-shared-write.darshan', expect: { data: { rank: 0, share: 1, nprocs: 4 } } },
    ],
    quiet: [
    { facts: { 'io.rankBytes': rankBytes([90e6, 5e6, 5e6]) }, fired: [] },
    { facts: { 'io.rankBytes': rankBytes([64e6]) }, fired: [] },
    { facts: { 'io.rankBytes': rankBytes([1e5, 0, 0, 0]) }, fired: [] },
    { log: 'iopat-mpiio-strided-coll-4k.darshan', fired: ['P01 INFO', 'P03 INFO', 'P14 OK', 'M05 OK', 'M07 INFO', 'D18 INFO', 'D20 INFO'] },
    { log: 'iopat-balanced-shared-write.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK', 'D18 INFO'] },
    { log: 'ior-healthy-posix-fpp-large.darshan', fired: ['M01 INFO', 'P12 OK', 'P14 OK', 'D18 INFO'] },
    ],
  });
});
