import { test } from 'node:test';
import check from './d01-sync-per-write.js';
import { runCheckCases } from '../testing/check-tester.js';
import { posixFiles, posixModel } from '../testing/diagnosis-facts.js';

test('D01 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    // DXT separated the syncs' 3 s from the writes: measured; without DXT the write time holds them: a bound
    { facts: { 'posix.files': posixFiles({ writes: 100, syncs: 95, writeTime: 3 }, { writes: 10, readTime: 1 }), 'io.time': posixModel(posixFiles({ writes: 100, syncs: 95, writeTime: 3 }, { writes: 10, readTime: 1 }), 1, 10, true) }, expect: { data: { syncs: 95, writes: 100, files: 1, seconds: 3 } } },
    { facts: { 'posix.files': posixFiles({ writes: 100, syncs: 95, writeTime: 2 }), 'io.time': posixModel(posixFiles({ writes: 100, syncs: 95, writeTime: 2 })) }, expect: { data: { seconds: 2 } } },
    { log: 'ior-small-seq-write-1k-fsync.darshan', expect: { data: { syncs: 8192, writes: 4096, files: 1 }, details: 1 } },
    { log: 'ior-stride-write-1k-fsync.darshan' },
    ],
    quiet: [
    { facts: { 'posix.files': posixFiles({ writes: 100, syncs: 90 }) }, fired: [] },
    { facts: { 'posix.files': posixFiles({ writes: 15, syncs: 15 }) }, fired: [] },
    { log: 'iopat-straggler-fsync-write.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK', 'D13 HIGH', 'D18 INFO'] },
    { log: 'ior-healthy-posix-fpp-large.darshan', fired: ['M01 INFO', 'P12 OK', 'P14 OK', 'D18 INFO'] },
    { log: 'ior-small-seq-write-1k.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK', 'D10 WARN', 'D18 INFO'] },
    ],
  });
});
