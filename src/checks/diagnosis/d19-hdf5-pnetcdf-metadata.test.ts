import { test } from 'node:test';
import check from './d19-hdf5-pnetcdf-metadata.js';
import { runCheckCases } from '../testing/check-tester.js';
import type { HlFilesFact, HlOpensFact, JobFact } from '../../facts/types.js';

const job: JobFact = { jobId: '1', exe: 'app', command: 'app', uid: '0', startSeconds: 0, endSeconds: 10, runSeconds: 10, processes: 4, darshanVersion: '3.41', metadata: [] };
const opens = (n: number): HlOpensFact => ({ ids: BigUint64Array.of(5n), layers: ['HDF5'], opens: Float64Array.of(n), metaSeconds: Float64Array.of(2.5) });
const files = (datasets: number, bytes: number): HlFilesFact => {
  const v = (x: number) => Float64Array.of(x);
  return { ids: BigUint64Array.of(5n), layers: ['HDF5'], datasets: v(datasets), reads: v(0), writes: v(datasets), bytesRead: v(0), bytesWritten: v(bytes), smallReads: v(0), smallWrites: v(datasets), independentOps: v(datasets), collectiveOps: v(0) };
};

test('D19 on HDF5 reopen and small-dataset patterns', () => {
  runCheckCases(check, {
    fires: [
      // 4 processes open the file 100 times each: 25 opens per process.
      { facts: { job, 'hl.opens': opens(100) }, expect: { data: { files: 1, perProcess: 25 }, details: 1, detail: { opens: 100 } } },
      // 1000 datasets of 4 KiB.
      { facts: { job, 'hl.files': files(1000, 4096000) }, expect: { data: { count: 1000 } } },
    ],
    quiet: [
      { facts: { job, 'hl.opens': opens(32) }, fired: [] },
      { facts: { job, 'hl.files': files(1000, 1000 * 4194304) }, fired: ['D10 INFO'] },
      { log: 'ior-hdf5-indep-small-write-4k.darshan', fired: ['P01 INFO', 'P03 INFO', 'P14 OK', 'M07 INFO', 'D10 WARN', 'D12 WARN', 'D15 WARN', 'D18 INFO', 'D20 INFO'] },
      { log: 'ior-hdf5-coll-write-8m.darshan', fired: ['P01 INFO', 'P03 INFO', 'P14 OK', 'M05 OK', 'M07 INFO', 'D18 INFO', 'D20 INFO'] },
    ],
    notApplicable: [{ facts: {} }],
  });
});
