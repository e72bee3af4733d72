import { test } from 'node:test';
import check from './d10-small-writes-by-layer.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D10 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'ior-small-seq-write-1k.darshan', expect: { data: { count: 4096, total: 4096 } } },
    { log: 'ior-hdf5-indep-small-write-4k.darshan', expect: { data: { count: 1024, total: 1024 }, detail: { layer: 'HDF5' } } },
    ],
    quiet: [
    { log: 'ior-seq-write-1m.darshan' },
    { log: 'ior-hdf5-coll-write-8m.darshan' },
    { log: 'iopat-mpiio-strided-coll-4k.darshan' },
    { log: 'iopat-posix-bulk-records.darshan' },
    ],
  });
});
