import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import check from './d13-rank-time-imbalance.js';
import { logFacts, reportOf } from '../../pipeline/diagnose.js';
import { REPO_ROOT } from '../../testing/corpus.js';
import { runCheckCases } from '../testing/check-tester.js';
import { jobFact, posixFiles } from '../testing/diagnosis-facts.js';

test('D13 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    // Without DXT: the slowest rank against the mean of the other three (3.4 s in all: 0.1 s each), 31× > 10 × 3.
    { facts: { job: jobFact(4), 'posix.files': posixFiles({ shared: 1, writes: 40, writeTime: 3.4, slowestRank: 2, slowestRankBytes: 1e6, fastestRankBytes: 1e6, slowestRankTime: 3.1, fastestRankTime: 0.1 }) }, expect: { data: { rank: 2, files: 1, extra: 3 } } },
    // A mechanism for one slow rank (10 of 40 writes synced: one rank's): 3 × the typical rank suffices (5× here).
    { facts: { job: jobFact(4), 'posix.files': posixFiles({ shared: 1, writes: 40, syncs: 10, writeTime: 0.8, slowestRank: 1, slowestRankBytes: 1e6, fastestRankBytes: 1e6, slowestRankTime: 0.5, fastestRankTime: 0.1 }) }, expect: { data: { rank: 1 } } },
    { log: 'iopat-straggler-fsync-write.darshan', expect: { data: { rank: 3, files: 1 } } },
    ],
    quiet: [
    { facts: { job: jobFact(4), 'posix.files': posixFiles({ shared: 1, writes: 40, writeTime: 3.2, slowestRank: 2, slowestRankBytes: 1e6, fastestRankBytes: 1e6, slowestRankTime: 2.9, fastestRankTime: 0.1 }) }, fired: ['D16 INFO'] },
    // Unbalanced bytes: a data imbalance (D14), not a straggler.
    { facts: { job: jobFact(4), 'posix.files': posixFiles({ shared: 1, writes: 40, writeTime: 3.4, slowestRank: 2, slowestRankBytes: 4e6, fastestRankBytes: 1e6, slowestRankTime: 3.1, fastestRankTime: 0.1 }) }, fired: ['D16 INFO'] },
    // The same 5× without syncs: short runs vary that much by noise.
    { facts: { job: jobFact(4), 'posix.files': posixFiles({ shared: 1, writes: 40, writeTime: 0.8, slowestRank: 1, slowestRankBytes: 1e6, fastestRankBytes: 1e6, slowestRankTime: 0.5, fastestRankTime: 0.1 }) }, fired: ['D16 INFO'] },
    // Every write synced (all ranks alike): excessive-fsync, no straggler mechanism.
    { facts: { job: jobFact(4), 'posix.files': posixFiles({ shared: 1, writes: 40, syncs: 40, writeTime: 0.8, slowestRank: 1, slowestRankBytes: 1e6, fastestRankBytes: 1e6, slowestRankTime: 0.5, fastestRankTime: 0.1 }) }, fired: ['D01 INFO', 'D16 INFO'] },
    { log: 'ior-seq-write-2m-np8.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK', 'D18 INFO'] },
    { log: 'ior-aligned-write-2m.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK', 'D18 INFO'] },
    { log: 'iopat-rw-switch-2m.darshan', fired: ['M01 INFO', 'P12 OK', 'P14 OK', 'D04 WARN', 'D18 INFO'] },
    { log: 'ior-random-write-1k-fsync.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'D01 HIGH', 'D10 WARN', 'D16 WARN', 'D18 INFO', 'D20 INFO'] },
    { log: 'iopat-rank0-shared-write.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK', 'D03 WARN', 'D14 HIGH', 'D18 INFO'] },
    ],
  });
});

test('D13 with DXT: time moved between traced writes and untraced syncs is no straggler; a real straggler still is', () => {
  const raised = (path: string) => reportOf(logFacts(path), { snippets: false }).insights.filter((f) => f.code === 'D13' && (f.level === 'HIGH' || f.level === 'WARN'));
  // GlusterFS, 8 ranks syncing every 4 KiB write of a shared file: DXT puts 4.0 s of write calls on rank 6 against
  // 0.6 s, but the counters' slowest and fastest ranks spend 5.39 and 5.33 s on the file (the workload's own clock:
  // within 1 %): the time moved between writes and syncs
  assert.deepEqual(raised(join(REPO_ROOT, 'lab', 'glusterfs', 'logs', 'sync-posix-fdatasync-small-np8-layoutshared-xfer4k-dxt.darshan')), []);
  // the local-disk straggler that syncs every write while the others do not: 3 × the median rank's time
  const straggler = raised(join(REPO_ROOT, 'lab', 'logs', 'imbalance-posix-straggler-fsync-np4-dxt.darshan'));
  assert.equal(straggler.length, 1);
  assert.equal(straggler[0].code, 'D13');
});
