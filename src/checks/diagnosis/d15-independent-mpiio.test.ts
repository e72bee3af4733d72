import { test } from 'node:test';
import check from './d15-independent-mpiio.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D15 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'ior-mpiio-indep-small-interleaved-4k.darshan', expect: { data: { count: 4096 } } },
    { log: 'ior-hdf5-indep-small-write-4k.darshan', expect: { data: { layer: 'HDF5' } } },
    { log: 'ior-mpiio-indep-large.darshan', expect: { data: { count: 16 } } },
    ],
    quiet: [
    { log: 'ior-hdf5-coll-write-8m.darshan', fired: ['P01 INFO', 'P03 INFO', 'P14 OK', 'M05 OK', 'M07 INFO', 'D18 INFO', 'D20 INFO'] },
    { log: 'iopat-mpiio-strided-coll-4k.darshan', fired: ['P01 INFO', 'P03 INFO', 'P14 OK', 'M05 OK', 'M07 INFO', 'D18 INFO', 'D20 INFO'] },
    { log: 'ior-healthy-mpiio-coll-large.darshan', fired: ['P12 OK', 'P14 OK', 'M04 OK', 'M05 OK', 'M06 INFO', 'M07 INFO', 'D18 INFO'] },
    ],
  });
});
