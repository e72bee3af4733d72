import { test } from 'node:test';
import check from './d13-rank-time-imbalance.js';
import { runCheckCases } from '../testing/check-tester.js';
import { jobFact, posixFiles } from '../testing/diagnosis-facts.js';

test('D13 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { facts: { job: jobFact(4), 'posix.files': posixFiles({ shared: 1, writes: 40, slowestRank: 2, slowestRankBytes: 1e6, fastestRankBytes: 1e6, slowestRankTime: 3.1, fastestRankTime: 0.1 }) }, expect: { data: { rank: 2, files: 1 } } },
    { log: 'iopat-straggler-fsync-write.darshan', expect: { data: { rank: 3, files: 1 } } },
    ],
    quiet: [
    { facts: { job: jobFact(4), 'posix.files': posixFiles({ shared: 1, writes: 40, slowestRank: 2, slowestRankBytes: 1e6, fastestRankBytes: 1e6, slowestRankTime: 2.9, fastestRankTime: 0.1 }) } },
    { facts: { job: jobFact(4), 'posix.files': posixFiles({ shared: 1, writes: 40, slowestRank: 2, slowestRankBytes: 4e6, fastestRankBytes: 1e6, slowestRankTime: 3.1, fastestRankTime: 0.1 }) } },
    { log: 'ior-seq-write-2m-np8.darshan' },
    { log: 'ior-aligned-write-2m.darshan' },
    { log: 'iopat-rw-switch-2m.darshan' },
    { log: 'ior-random-write-1k-fsync.darshan' },
    { log: 'iopat-rank0-shared-write.darshan' },
    ],
  });
});
