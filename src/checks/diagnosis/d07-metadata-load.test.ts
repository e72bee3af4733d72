import { test } from 'node:test';
import check from './d07-metadata-load.js';
import { runCheckCases } from '../testing/check-tester.js';
import { posixFiles } from '../testing/diagnosis-facts.js';

test('D07 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { facts: { 'posix.files': posixFiles({ opens: 200, stats: 100, reads: 100, writes: 100, metaTime: 1, writeTime: 1 }) }, expect: { data: { meta: 300, data: 200, perData: 1.5, timeShare: 0.5 } } },
    { log: 'iopat-meta-heavy-fpp.darshan', expect: { data: { meta: 20000, data: 8000 } } },
    { log: 'iopat-meta-heavy-fpp-dxt-truncated.darshan' },
    ],
    quiet: [
    { facts: { 'posix.files': posixFiles({ opens: 200, stats: 55, reads: 100, writes: 100, metaTime: 1, writeTime: 1 }) }, fired: [] },
    { facts: { 'posix.files': posixFiles({ opens: 300, reads: 1000, writes: 1000, metaTime: 0.3, writeTime: 0.7 }) }, fired: [] },
    { log: 'iopat-meta-light.darshan', fired: ['M01 INFO', 'P12 OK', 'P14 OK', 'D18 INFO'] },
    { log: 'ior-healthy-posix-fpp-large.darshan', fired: ['M01 INFO', 'P12 OK', 'P14 OK', 'D18 INFO'] },
    { log: 'ior-small-seq-write-1k.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK', 'D10 WARN', 'D18 INFO'] },
    ],
  });
});
