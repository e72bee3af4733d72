import { test } from 'node:test';
import check from './d01-sync-per-write.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D01 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'ior-small-seq-write-1k-fsync.darshan', expect: { data: { syncs: 8192, writes: 4096, files: 1 }, details: 1 } },
    { log: 'ior-stride-write-1k-fsync.darshan' },
    ],
    quiet: [
    { log: 'iopat-straggler-fsync-write.darshan' },
    { log: 'ior-healthy-posix-fpp-large.darshan' },
    { log: 'ior-small-seq-write-1k.darshan' },
    ],
  });
});
