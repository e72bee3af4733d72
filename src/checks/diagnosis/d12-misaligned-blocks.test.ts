import { test } from 'node:test';
import check from './d12-misaligned-blocks.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D12 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'ior-misaligned-write-2000000.darshan', expect: { data: { count: 38, large: 40, alignment: 4096 } } },
    { log: 'ior-hdf5-indep-small-write-4k.darshan' },
    ],
    quiet: [
    { log: 'ior-small-seq-write-1k.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK', 'D10 WARN', 'D18 INFO'] },
    { log: 'ior-hdf5-coll-write-8m.darshan', fired: ['P01 INFO', 'P03 INFO', 'P14 OK', 'M05 OK', 'M07 INFO', 'D18 INFO', 'D20 INFO'] },
    { log: 'ior-aligned-write-2m.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK', 'D18 INFO'] },
    ],
  });
});
