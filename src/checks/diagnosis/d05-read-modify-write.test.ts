import { test } from 'node:test';
import check from './d05-read-modify-write.js';
import { runCheckCases } from '../testing/check-tester.js';
import type { MpiioFilesFact, PosixFilesFact } from '../../facts/types.js';

const col = (v: number) => Float64Array.of(v);
const MiB = 1048576;
/** One shared file the application only writes through MPI-IO (64 MiB), while POSIX reads 48 MiB and writes 96 MiB: data sieving. */
function rmw(posixRead: number, posixWritten: number) {
  const z = col(0);
  const posix: PosixFilesFact = {
    ids: BigUint64Array.of(7n), shared: col(1), rankRecords: z, opens: col(4), stats: z, reads: col(24), writes: col(24), syncs: z, rwSwitches: col(40),
    bytesRead: col(posixRead), bytesWritten: col(posixWritten), extent: col(64 * MiB), consecReads: z, consecWrites: z, seqReads: z, seqWrites: z, stridedOps: z,
    notAligned: z, alignment: col(4096), subBlockOps: z, smallReads: z, smallWrites: z, smallReadBytes: z, smallWriteBytes: z, readTime: col(0.5), writeTime: col(1), metaTime: z,
    slowestRank: col(0), slowestRankBytes: z, fastestRankBytes: z, slowestRankTime: z, fastestRankTime: z,
  };
  const mpiio: MpiioFilesFact = {
    ids: BigUint64Array.of(7n), shared: col(1), indepReads: z, indepWrites: col(4096), collReads: z, collWrites: z, nbReads: z, nbWrites: z, splitReads: z, splitWrites: z,
    views: col(4), rwSwitches: z, bytesRead: z, bytesWritten: col(64 * MiB), smallReads: z, smallWrites: col(4096), smallReadBytes: z, smallWriteBytes: col(4096 * 16384), readTime: z, writeTime: col(2), metaTime: z, slowestRankBytes: z, fastestRankBytes: z,
  };
  return { 'posix.files': posix, 'mpiio.files': mpiio };
}

test('D05 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { facts: rmw(48 * MiB, 96 * MiB), expect: { data: { files: 1, read: 48 * MiB, extra: 32 * MiB, app: 64 * MiB }, details: 1 } },
    { facts: rmw(0, 80 * MiB), expect: { data: { read: 0, extra: 16 * MiB } } },
    ],
    quiet: [
    { log: 'ior-hdf5-coll-write-8m.darshan', fired: ['P01 INFO', 'P03 INFO', 'P14 OK', 'M05 OK', 'M07 INFO', 'D18 INFO', 'D20 INFO'] },
    { log: 'iopat-mpiio-strided-coll-4k.darshan', fired: ['P01 INFO', 'P03 INFO', 'P14 OK', 'M05 OK', 'M07 INFO', 'D18 INFO', 'D20 INFO'] },
    { log: 'ior-mpiio-indep-small-interleaved-4k.darshan', fired: ['P01 INFO', 'P03 INFO', 'P14 OK', 'M07 INFO', 'D02 WARN', 'D10 WARN', 'D15 WARN', 'D18 INFO', 'D20 INFO'] },
    { facts: rmw(1024, 64 * MiB), fired: ['D15 INFO'] },
    ],
    notApplicable: [{ facts: {} }],
  });
});
