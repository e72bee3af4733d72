import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DarshanLog } from './log.js';
import { FixedTable } from './modules/fixed-codec.js';
import { Int64Block } from './int64-block.js';
import { computePerf, computeTablePerf } from './perf.js';
import { SHARED } from '../../testing/corpus.js';

const pub = (f: string) => join(SHARED, 'darshan-logs', 'public', f);
const gen = (f: string) => join(SHARED, 'darshan-logs', 'generated', f);

test('mpi-io-test: one shared file per module, MiB/s from the slowest rank time', () => {
  const perf = computePerf(DarshanLog.open(pub('mpi-io-test.darshan')));
  assert.deepEqual(
    perf.map((e) => e.module),
    ['POSIX', 'MPI-IO', 'STDIO'],
  );
  const [posix, mpiio, stdio] = perf;
  assert.equal(posix.records, 1);
  assert.equal(posix.sharedRecords, 1);
  assert.equal(posix.totalBytes, 134217728);
  assert.equal(posix.totalBytesText, '134217728');
  assert.equal(posix.slowestRankIoTime, 0);
  assert.equal(posix.sharedTimeBySlowest, 1.0147154331207275);
  assert.equal(posix.aggTimeBySlowest, 1.0147154331207275);
  assert.equal(posix.aggPerfBySlowest, 128 / 1.0147154331207275);
  assert.equal(posix.aggPerfBySlowest, 126.14374022708984);
  assert.equal(mpiio.sharedTimeBySlowest, 1.016880989074707);
  assert.equal(mpiio.aggPerfBySlowest, 125.87510374883824);
  assert.equal(stdio.totalBytes, 321);
  assert.equal(stdio.aggPerfBySlowest, 18.08450704225352);
  for (const e of perf) {
    assert.equal(e.partial, false);
    assert.equal(e.decodeError, null);
    assert.equal(e.ranksBeyondNprocs, 0);
  }
});

test('iopat-meta-heavy-fpp: 4000 unique files, the slowest rank and its metadata / read-write split', () => {
  const [posix, stdio] = computePerf(DarshanLog.open(gen('iopat-meta-heavy-fpp.darshan')));
  assert.equal(posix.module, 'POSIX');
  assert.equal(posix.records, 4000);
  assert.equal(posix.sharedRecords, 0);
  assert.equal(posix.totalBytes, 32768000);
  assert.equal(posix.slowestRank, 2);
  assert.equal(posix.slowestRankIoTime, 1.8337080478668213);
  assert.equal(posix.slowestRankMetaOnlyTime, 1.8152289390563965);
  assert.equal(posix.slowestRankRwOnlyTime, 0.018479108810424805);
  assert.equal(posix.sharedTimeBySlowest, 0);
  assert.equal(posix.aggTimeBySlowest, posix.slowestRankIoTime);
  assert.equal(posix.aggPerfBySlowest, 17.041971341268624);
  assert.equal(stdio.module, 'STDIO');
  assert.equal(stdio.slowestRank, 0);
  assert.equal(stdio.aggPerfBySlowest, 2.4571428571428573);
});

test('a log darshan-parser misreads (nprocs garbage, zeroed metrics): the values its records give', () => {
  const log = DarshanLog.open(pub('shane_ior-HDF5_id540575-540575_9-7-54660-17763983738006033572_1.darshan'));
  assert.equal(log.job.legacyJobLayout, true);
  assert.equal(log.job.nprocs, 4n);
  const [posix, mpiio] = computePerf(log);
  assert.equal(posix.totalBytes, 4202504 + 4195800);
  assert.equal(posix.sharedTimeBySlowest, 0.006262779235839844);
  assert.equal(posix.aggPerfBySlowest, 1278.8646261611086);
  assert.equal(mpiio.sharedTimeBySlowest, 0.00803375244140625);
});

test('a record with rank >= nprocs is counted as that rank and flagged (darshan-parser aborts)', () => {
  const perf = computePerf(DarshanLog.open(pub('snyder_ior-DFS_id1057716-201712_11-8-64400-1922568413188514066_1.darshan')));
  assert.deepEqual(
    perf.map((e) => [e.module, e.ranksBeyondNprocs]),
    [
      ['POSIX', 0],
      ['STDIO', 0],
      ['DFS', 0],
      ['DAOS', 1],
    ],
  );
  const daos = perf[3];
  assert.equal(daos.slowestRank, 16);
  assert.equal(daos.slowestRankIoTime, 0.0006885528564453125);
  assert.equal(perf[2].totalBytes, 33554432);
  assert.equal(perf[2].aggPerfBySlowest, 825.4574349007983);
});

/** A POSIX table built by hand: ranks, bytes read per record, and (meta, read, write, slowest) times. */
function posixTable(rows: { rank: number; read: bigint; meta: number; rd: number; wr: number; slowest?: number }[]): FixedTable {
  const intNames = ['POSIX_BYTES_READ', 'POSIX_BYTES_WRITTEN'];
  const floatNames = ['POSIX_F_META_TIME', 'POSIX_F_READ_TIME', 'POSIX_F_WRITE_TIME', 'POSIX_F_SLOWEST_RANK_TIME'];
  const n = rows.length;
  const ranks = new Int64Block(n, 1);
  const ints = new Int64Block(n, 2);
  const floats = new Float64Array(n * 4);
  rows.forEach((r, i) => {
    ranks.setExact(0, i, BigInt(r.rank));
    ints.setExact(0, i, r.read);
    floats[0 * n + i] = r.meta;
    floats[1 * n + i] = r.rd;
    floats[2 * n + i] = r.wr;
    floats[3 * n + i] = r.slowest ?? 0;
  });
  return new FixedTable('POSIX', 1, 4, n, new BigUint64Array(n), ranks, intNames, floatNames, ints, floats, null, null);
}

test('bytes wrap as signed 64-bit sums; ties go to the lowest rank; huge ranks are kept sparse', () => {
  const t = posixTable([
    { rank: 7, read: 1n << 62n, meta: 1, rd: 0.5, wr: 0.5 },
    { rank: 5_000_000, read: 1n << 62n, meta: 0, rd: 2, wr: 0 },
    { rank: 3, read: 5n, meta: 2, rd: 0, wr: 0 },
    { rank: -1, read: -1n, meta: 9, rd: 9, wr: 9, slowest: 0.25 },
  ]);
  const e = computeTablePerf(t, 8n);
  assert.equal(e.totalBytesText, String(-(1n << 63n) + 5n - 1n));
  assert.equal(e.totalBytes, Number(-(1n << 63n) + 4n));
  // ranks 3, 7 and 5,000,000 all spent 2 s in unique files: the lowest one is the slowest
  assert.equal(e.slowestRank, 3);
  assert.equal(e.slowestRankIoTime, 2);
  assert.equal(e.slowestRankMetaOnlyTime, 2);
  assert.equal(e.slowestRankRwOnlyTime, 0);
  assert.equal(e.sharedTimeBySlowest, 0.25);
  assert.equal(e.aggTimeBySlowest, 2.25);
  assert.equal(e.aggPerfBySlowest, Number(-(1n << 63n) + 4n) / 1048576 / 2.25);
  assert.equal(e.ranksBeyondNprocs, 1);
  assert.equal(e.sharedRecords, 1);
});

test('no time at all: zero throughput, not a division by zero', () => {
  const e = computeTablePerf(posixTable([{ rank: 0, read: 100n, meta: 0, rd: 0, wr: 0 }]), 1n);
  assert.equal(e.totalBytes, 100);
  assert.equal(e.aggTimeBySlowest, 0);
  assert.equal(e.aggPerfBySlowest, 0);
  assert.equal(e.slowestRank, 0);
});
