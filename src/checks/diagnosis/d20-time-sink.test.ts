import { test } from 'node:test';
import check from './d20-time-sink.js';
import { runCheckCases } from '../testing/check-tester.js';
import { TimeModelBuilder } from '../../facts/time-model.js';

/** A job's time model from (layer, operation, seconds) parts of one file, all ranks sharing it. */
function model(parts: [string, 'metadata' | 'read' | 'write' | 'sync', number][]) {
  const b = new TimeModelBuilder();
  for (const [layer, op, s] of parts) b.add(1n, -1, layer as 'POSIX', { [op]: s });
  return b.build({ runTime: 10, processes: 4, source: 'counters' });
}

test('D20 names the part of the I/O time that dominates it, when it is not the data moved', () => {
  runCheckCases(check, {
    fires: [
      // HDF5 open/close around MPI-IO's collective ones: the POSIX calls inside take 0.19 ms of 843 ms
      { log: 'ior-hdf5-indep-small-write-4k.darshan', expect: { data: { layer: 'HDF5', what: 'opening, closing, seeking and querying files' }, details: 1, detail: { file: '/scratch/run/testFile.h5' }, recommendations: ['metadata'] } },
      // (not "open each file once": the log shows each file opened once per rank already, src/checks/advice.ts)
      // fsync after every 1 KiB write: DXT separates the syncs from the writes
      { log: 'ior-random-write-1k-fsync.darshan', expect: { data: { layer: 'POSIX', what: 'syncing (fsync, fdatasync, MPI_File_sync)' }, recommendations: ['sync'] } },
      // collective writes over a vector view: MPI-IO's exchange and waiting, 18 ms of POSIX writes inside 1.13 s
      { log: 'iopat-mpiio-strided-coll-4k.darshan', expect: { data: { layer: 'MPI-IO', what: 'writing' }, recommendations: ['collective'] } },
      { log: 'iopat-meta-heavy-fpp.darshan', expect: { data: { layer: 'POSIX' }, recommendations: ['metadata'] } },
      { facts: { 'io.time': model([['MPI-IO', 'metadata', 6], ['POSIX', 'metadata', 0.1], ['MPI-IO', 'write', 4], ['POSIX', 'write', 3.9]]) }, expect: { data: { share: 0.6, cumulative: 6, below: 0.1 } } },
    ],
    quiet: [
      // moving the data takes the time: the job's work, not a sink
      { log: 'ior-aligned-write-2m.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK', 'D18 INFO'] },
      { log: 'ior-healthy-mpiio-coll-large.darshan', fired: ['P12 OK', 'P14 OK', 'M04 OK', 'M05 OK', 'M06 INFO', 'M07 INFO', 'D18 INFO'] },
      // metadata at 40 %: no part dominates
      { facts: { 'io.time': model([['POSIX', 'metadata', 4], ['POSIX', 'write', 6]]) }, fired: [] },
      // a library's writes with its file-system writes inside them: data, not waiting
      { facts: { 'io.time': model([['MPI-IO', 'write', 10], ['POSIX', 'write', 9]]) }, fired: [] },
    ],
  });
});
