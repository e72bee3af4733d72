import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runChecks } from '../run-checks.js';
import { FactContext } from '../../facts/fact-context.js';
import { defaultConfig } from '../../config/defaults.js';
import { jobFact, posixFiles, posixModel } from '../testing/diagnosis-facts.js';
import check from './d10-small-writes-by-layer.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D10 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'ior-small-seq-write-1k.darshan', expect: { data: { count: 4096, total: 4096 } } },
    { log: 'ior-hdf5-indep-small-write-4k.darshan', expect: { data: { count: 1024, total: 1024 }, detail: { layer: 'HDF5' } } },
    ],
    quiet: [
    { log: 'ior-seq-write-1m.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK', 'D18 INFO'] },
    { log: 'ior-hdf5-coll-write-8m.darshan', fired: ['P01 INFO', 'P03 INFO', 'P14 OK', 'M05 OK', 'M07 INFO', 'D18 INFO', 'D20 INFO'] },
    { log: 'iopat-mpiio-strided-coll-4k.darshan', fired: ['P01 INFO', 'P03 INFO', 'P14 OK', 'M05 OK', 'M07 INFO', 'D18 INFO', 'D20 INFO'] },
    { log: 'iopat-posix-bulk-records.darshan', fired: ['M01 INFO', 'P01 INFO', 'P03 INFO', 'P14 OK', 'D18 INFO'] },
    ],
  });
});

test('D10: collective small writes merged into large POSIX writes are WARN, independent ones HIGH', () => {
  const z = Float64Array.of(0);
  const mpiio = (coll: boolean) => ({
    ids: BigUint64Array.of(1n), shared: Float64Array.of(1), indepReads: z, indepWrites: Float64Array.of(coll ? 0 : 4096), collReads: z, collWrites: Float64Array.of(coll ? 4096 : 0),
    nbReads: z, nbWrites: z, splitReads: z, splitWrites: z, views: z, rwSwitches: z, bytesRead: z, bytesWritten: Float64Array.of(16 << 20), smallReads: z, smallWrites: Float64Array.of(4096), smallReadBytes: z, smallWriteBytes: Float64Array.of(16 << 20),
    readTime: z, writeTime: z, metaTime: z, slowestRankBytes: z, fastestRankBytes: z,
  });
  for (const [coll, level] of [[true, 'WARN'], [false, 'HIGH']] as const) {
    const posix = posixFiles({ shared: 1, writes: coll ? 4 : 4096, smallWrites: coll ? 0 : 4096, bytesWritten: 16 << 20, writeTime: 1 });
    // the file's 1 s of writes is all the job's I/O, a quarter of its 4 × 1 rank-seconds: HIGH where the rule lets it be
    const facts = FactContext.fromValues({ job: jobFact(4), 'mpiio.files': mpiio(coll), 'posix.files': posix, 'io.time': posixModel(posix, 4, 1) });
    const r = runChecks([check], facts, { mode: 'default', config: defaultConfig(), env: { nodes: null, applicationHints: null } });
    assert.equal(r.insights[0]?.level, level);
  }
});
