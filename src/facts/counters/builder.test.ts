import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Category, ChunkWriter, TraceDicts } from '../../formats/trace/model.js';
import { layerOfName } from '../../formats/trace/classify.js';
import { CounterBuilder, sizeBin } from './builder.js';
import { CommonValues, COMMON_VALUE_LIMIT, updateCommonSlots } from './common-values.js';
import { TraceCounters, type DeriveOptions } from './trace-counters.js';
import type { TraceFormat } from './availability.js';
import { darshanRecordId } from '../../formats/darshan/record-id.js';
import { FactContext, FactUnavailable } from '../fact-context.js';
import { FactSource } from '../source.js';

/** One traced call: process label, function, file, offset, size, start, end. */
type Call = [proc: string, func: string, file: string | null, offset: number, size: number, start: number, end: number];

function derive(calls: Call[], format: TraceFormat = 'recorder', opts: Partial<DeriveOptions> = {}): TraceCounters {
  const b = new CounterBuilder();
  const dicts = new TraceDicts();
  const w = new ChunkWriter(dicts, b.sink, 4); // tiny chunks: state must carry across them
  for (const [proc, func, file, off, size, t1, t2] of calls) {
    const p = dicts.proc(proc, 'host', 'app');
    const layer = layerOfName(func);
    w.push(p, file === null ? -1 : dicts.files.id(file), dicts.funcs.id(func), layer, Category.OTHER, off, size, t1, t2);
  }
  w.flush();
  return new TraceCounters(b, { format, timeOrigin: 0, job: { exe: 'app', startSeconds: 0, endSeconds: 100 }, ...opts });
}

/** The counters of the record of `name` at `rank` (−1: shared) of a module, by counter name. */
function record(tc: TraceCounters, mod: 'POSIX' | 'MPI-IO' | 'STDIO', name: string, rank: number): (counter: string) => number {
  const t = tc.tables.get(mod)!;
  const id = darshanRecordId(name);
  const ranks = t.ranks.col(0);
  let row = -1;
  for (let r = 0; r < t.length; r++) if (t.ids[r] === id && ranks[r] === rank) row = r;
  assert.ok(row >= 0, `no ${mod} record of ${name} at rank ${rank}`);
  return (c) => (t.floatNames.includes(c) ? t.float(c)[row] : t.int(c)[row]);
}

const F = '/data/a';

test('POSIX counters follow darshan-posix.c call by call (hand-computed)', () => {
  const tc = derive([
    ['0', 'open64', F, -1, -1, 1, 2],
    ['0', 'write', F, 0, 100, 2, 3],
    ['0', 'pwrite64', F, 100, 100, 2.5, 4], // overlaps the previous write: only 3 → 4 counts
    ['0', 'write', F, 300, 50, 5, 6], // sequential, not consecutive, stride 300 − 199 − 1 = 100
    ['0', 'read', F, 0, 10, 6, 7], // first read: neither sequential nor consecutive; a read/write switch
    ['0', 'read', F, 10, 10, 7, 7.5],
    ['0', 'lseek64', F, -1, -1, 8, 9],
    ['0', 'fsync', F, -1, -1, 9, 10.5], // write time
    ['0', 'close', F, -1, -1, 11, 12],
    ['0', 'open', F, -1, -1, 13, 14], // resets the last bytes: the next read at 5 is sequential, stride 0
    ['0', 'read', F, 5, 5, 14, 14.25],
    ['0', '__xstat64', F, -1, -1, 15, 16],
  ]);
  const c = record(tc, 'POSIX', F, 0);
  const expect: Record<string, number> = {
    POSIX_OPENS: 2, POSIX_READS: 3, POSIX_WRITES: 3, POSIX_SEEKS: 1, POSIX_STATS: 1, POSIX_FSYNCS: 1, POSIX_FDSYNCS: 0,
    POSIX_BYTES_READ: 25, POSIX_BYTES_WRITTEN: 250, POSIX_MAX_BYTE_READ: 19, POSIX_MAX_BYTE_WRITTEN: 349,
    POSIX_CONSEC_READS: 1, POSIX_CONSEC_WRITES: 1, POSIX_SEQ_READS: 2, POSIX_SEQ_WRITES: 2, POSIX_RW_SWITCHES: 1,
    POSIX_SIZE_READ_0_100: 3, POSIX_SIZE_WRITE_0_100: 3, POSIX_SIZE_WRITE_100_1K: 0,
    POSIX_STRIDE1_STRIDE: 100, POSIX_STRIDE1_COUNT: 1, POSIX_STRIDE2_STRIDE: 0, POSIX_STRIDE2_COUNT: 0,
    POSIX_ACCESS1_ACCESS: 100, POSIX_ACCESS1_COUNT: 2, POSIX_ACCESS2_ACCESS: 10, POSIX_ACCESS2_COUNT: 2,
    POSIX_ACCESS3_ACCESS: 50, POSIX_ACCESS3_COUNT: 1, POSIX_ACCESS4_ACCESS: 5, POSIX_ACCESS4_COUNT: 1,
    POSIX_MAX_READ_TIME_SIZE: 10, POSIX_MAX_WRITE_TIME_SIZE: 100,
    POSIX_F_META_TIME: 5, POSIX_F_WRITE_TIME: 4.5, POSIX_F_READ_TIME: 1.75, POSIX_F_MAX_READ_TIME: 1, POSIX_F_MAX_WRITE_TIME: 1.5,
    POSIX_F_OPEN_START_TIMESTAMP: 1, POSIX_F_OPEN_END_TIMESTAMP: 14, POSIX_F_CLOSE_START_TIMESTAMP: 11, POSIX_F_CLOSE_END_TIMESTAMP: 12,
    POSIX_F_READ_START_TIMESTAMP: 6, POSIX_F_READ_END_TIMESTAMP: 14.25, POSIX_F_WRITE_START_TIMESTAMP: 2, POSIX_F_WRITE_END_TIMESTAMP: 6,
    POSIX_FASTEST_RANK: 0, POSIX_F_FASTEST_RANK_TIME: 0,
  };
  for (const [k, v] of Object.entries(expect)) assert.equal(c(k), v, k);
  assert.equal(tc.job.nprocs, 1n);
  assert.equal(tc.names.get(darshanRecordId(F)), F);
});

test('a file every process touched is reduced to one shared record: sums, extremes and variances as Darshan computes them', () => {
  const tc = derive([
    ['0', 'open', F, -1, -1, 0, 1], // rank 0: 1 s metadata, 2 s reading 100 bytes
    ['0', 'read', F, 0, 100, 1, 3],
    ['1', 'open', F, -1, -1, 0, 0.5], // rank 1: 0.5 s metadata, 0.5 s reading 300 bytes
    ['1', 'read', F, 100, 300, 1, 1.5],
    ['1', 'open', '/data/own', -1, -1, 2, 3], // only rank 1: stays a rank record
  ]);
  assert.equal(tc.sharedFiles.POSIX, 1);
  const s = record(tc, 'POSIX', F, -1);
  assert.equal(s('POSIX_OPENS'), 2);
  assert.equal(s('POSIX_READS'), 2);
  assert.equal(s('POSIX_BYTES_READ'), 400);
  assert.equal(s('POSIX_MAX_BYTE_READ'), 399);
  assert.equal(s('POSIX_F_READ_TIME'), 2.5);
  assert.equal(s('POSIX_F_META_TIME'), 1.5);
  assert.equal(s('POSIX_F_OPEN_START_TIMESTAMP'), 0); // both opens start at 0: "not set" for Darshan too
  assert.equal(s('POSIX_F_READ_START_TIMESTAMP'), 1);
  assert.equal(s('POSIX_F_READ_END_TIMESTAMP'), 3);
  // rank 0 took 3 s for 100 bytes, rank 1 took 1 s for 300 bytes
  assert.equal(s('POSIX_FASTEST_RANK'), 1);
  assert.equal(s('POSIX_FASTEST_RANK_BYTES'), 300);
  assert.equal(s('POSIX_F_FASTEST_RANK_TIME'), 1);
  assert.equal(s('POSIX_SLOWEST_RANK'), 0);
  assert.equal(s('POSIX_SLOWEST_RANK_BYTES'), 100);
  assert.equal(s('POSIX_F_SLOWEST_RANK_TIME'), 3);
  assert.equal(s('POSIX_F_VARIANCE_RANK_TIME'), 1); // population variance of 3 and 1
  assert.equal(s('POSIX_F_VARIANCE_RANK_BYTES'), 10000); // of 100 and 300
  assert.equal(s('POSIX_ACCESS1_ACCESS'), 300); // counts tie at 1: the larger value first
  assert.equal(s('POSIX_ACCESS2_ACCESS'), 100);
  assert.equal(record(tc, 'POSIX', '/data/own', 1)('POSIX_OPENS'), 1);
  // log order: rank 0's records, the shared ones, then the other ranks'
  assert.deepEqual([...tc.tables.get('POSIX')!.ranks.col(0)], [-1, 1]);
});

test("Darshan's default exclusions drop system paths; names are cleaned as darshan_clean_file_path does", () => {
  const tc = derive([
    ['0', 'open', '/proc/self/status', -1, -1, 1, 2],
    ['0', 'open', '/usr/lib/libc.so', -1, -1, 1, 2],
    ['0', 'open', '/var/opt/cray/dws/mounts/x', -1, -1, 1, 2],
    ['0', 'open', '/data//b/./c', -1, -1, 1, 2],
    ['0', 'write', '/data/b/c', 0, 8, 2, 3], // the same record as the uncleaned name
  ]);
  const t = tc.tables.get('POSIX')!;
  assert.deepEqual(new Set(t.ids), new Set([darshanRecordId('/var/opt/cray/dws/mounts/x'), darshanRecordId('/data/b/c')]));
  const c = record(tc, 'POSIX', '/data/b/c', 0);
  assert.equal(c('POSIX_OPENS'), 1);
  assert.equal(c('POSIX_WRITES'), 1);
});

test('STDIO counters follow darshan-stdio.c: flushes are timed as writes, seeks as metadata', () => {
  const f = '/data/log.txt';
  const tc = derive([
    ['0', 'fopen64', f, -1, -1, 1, 2],
    ['0', 'fwrite', f, 0, 40, 2, 3],
    ['0', 'fprintf', f, 40, 10, 3, 3.5],
    ['0', 'fflush', f, -1, -1, 4, 4.5],
    ['0', 'fseek', f, -1, -1, 5, 5.25],
    ['0', 'fread', f, 0, 20, 6, 7],
    ['0', 'fclose', f, -1, -1, 8, 9],
    ['0', 'fileno', f, -1, -1, 9, 9], // a POSIX descriptor on a file Darshan did not open through POSIX: ignored
  ]);
  const c = record(tc, 'STDIO', f, 0);
  const expect: Record<string, number> = {
    STDIO_OPENS: 1, STDIO_FDOPENS: 0, STDIO_WRITES: 2, STDIO_READS: 1, STDIO_FLUSHES: 1, STDIO_SEEKS: 1,
    STDIO_BYTES_WRITTEN: 50, STDIO_BYTES_READ: 20, STDIO_MAX_BYTE_WRITTEN: 49, STDIO_MAX_BYTE_READ: 19,
    STDIO_F_META_TIME: 2.25, STDIO_F_WRITE_TIME: 2, STDIO_F_READ_TIME: 1,
    STDIO_F_WRITE_START_TIMESTAMP: 2, STDIO_F_WRITE_END_TIMESTAMP: 4.5, STDIO_F_CLOSE_END_TIMESTAMP: 9,
  };
  for (const [k, v] of Object.entries(expect)) assert.equal(c(k), v, k);
  assert.equal(tc.tables.has('POSIX'), false);
});

test('MPI-IO counters: the function name says independent, collective, split or non-blocking; sync is write time', () => {
  const f = '/data/out.h5';
  const tc = derive([
    ['0', 'MPI_File_open', f, -1, -1, 1, 2],
    ['0', 'MPI_File_write_at_all', f, 0, 1048576, 2, 4],
    ['0', 'PMPI_File_write', f, -1, 100, 4, 5],
    ['0', 'MPI_File_iwrite_at', f, -1, 2000, 5, 5.5],
    ['0', 'MPI_File_read_all_begin', f, -1, 4096, 6, 6.5],
    ['0', 'MPI_File_read_at_c', f, -1, 4096, 7, 8],
    ['0', 'MPI_File_sync', f, -1, -1, 8, 9],
    ['0', 'MPI_File_close', f, -1, -1, 9, 10],
  ]);
  const c = record(tc, 'MPI-IO', f, 0);
  const expect: Record<string, number> = {
    MPIIO_COLL_WRITES: 1, MPIIO_INDEP_WRITES: 1, MPIIO_NB_WRITES: 1, MPIIO_SPLIT_READS: 1, MPIIO_INDEP_READS: 1, MPIIO_SYNCS: 1,
    MPIIO_BYTES_WRITTEN: 1048676 + 2000, MPIIO_BYTES_READ: 8192, MPIIO_RW_SWITCHES: 1,
    MPIIO_SIZE_WRITE_AGG_100K_1M: 1, MPIIO_SIZE_WRITE_AGG_0_100: 1, MPIIO_SIZE_WRITE_AGG_1K_10K: 1, MPIIO_SIZE_READ_AGG_1K_10K: 2,
    MPIIO_ACCESS1_ACCESS: 4096, MPIIO_ACCESS1_COUNT: 2,
    MPIIO_F_META_TIME: 2, MPIIO_F_WRITE_TIME: 4.5, MPIIO_F_READ_TIME: 1.5, MPIIO_F_MAX_WRITE_TIME: 2, MPIIO_MAX_WRITE_TIME_SIZE: 1048576,
  };
  for (const [k, v] of Object.entries(expect)) assert.equal(c(k), v, k);
  assert.equal(tc.absentReasons.has('MPIIO_COLL_OPENS'), true);
  assert.equal(tc.absentReasons.has('MPIIO_F_META_TIME'), false); // no set_view
});

test('what the events do not carry is absent, not zero: facts withhold the fields, the reason names the cause', () => {
  const tc = derive([
    ['0', 'open', F, -1, -1, 1, 2],
    ['0', 'write', F, 0, 100, 2, 3],
    ['0', 'write', F, -1, 100, 3, 4], // position lost (say, after a seek to the end)
  ]);
  assert.equal(tc.absentReasons.get('POSIX_SEQ_WRITES'), '1 of 2 POSIX reads and writes have no known file offset');
  assert.equal(tc.absentReasons.has('POSIX_WRITES'), false);
  const facts = FactContext.forLog(new FactSource(tc));
  const totals = facts.get('posix.totals');
  assert.equal(totals.writes, 2);
  assert.equal(totals.bytesWritten, 200);
  assert.equal(totals.smallWrites, 2);
  assert.throws(() => totals.seqWrites, (e: unknown) => e instanceof FactUnavailable && e.reason === 'no posix.totals.seqWrites: POSIX_SEQ_WRITES cannot be derived (1 of 2 POSIX reads and writes have no known file offset)');
  assert.throws(() => totals.memNotAligned, FactUnavailable);
  // posix.metaTime declares no fields: with its counter present it exists
  assert.deepEqual([...facts.get('posix.metaTime').metaTime], [1]);
});

test('DXT supplies reads and writes only: the counters of other calls are absent, and facts that need them unavailable', () => {
  const tc = derive([['3', 'write', F, 0, 10, 1, 2], ['3', 'read', F, 0, 10, 2, 3]], 'dxt', { nprocs: 4 });
  assert.equal(tc.nprocs, 4);
  assert.match(tc.absentReasons.get('POSIX_OPENS')!, /DXT traces only reads and writes/);
  assert.match(tc.absentReasons.get('POSIX_SLOWEST_RANK')!, /metadata time/);
  assert.equal(tc.absentReasons.has('POSIX_RW_SWITCHES'), false);
  const facts = FactContext.forLog(new FactSource(tc));
  assert.equal(facts.tryGet('posix.metaTime'), null);
  assert.match(facts.unavailableReason('posix.metaTime')!, /^no posix\.metaTime: POSIX_F_META_TIME cannot be derived \(DXT traces only reads and writes/);
  const files = facts.get('posix.files');
  assert.equal(files.rwSwitches[0], 1);
  assert.throws(() => files.opens, FactUnavailable);
});

test('the size-histogram bins include their upper bound (DARSHAN_BUCKET_INC)', () => {
  const edges = [0, 100, 101, 1024, 1025, 10240, 10241, 102400, 102401, 1048576, 1048577, 4194304, 4194305, 10485760, 10485761, 104857600, 104857601, 1073741824, 1073741825];
  assert.deepEqual(edges.map(sizeBin), [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9]);
});

test('common values: the runtime slot updates after every access end as the top four of the tracked values', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 300 }), (seq) => {
      const cv = new CommonValues();
      const vals = [0, 0, 0, 0];
      const cnts = [0, 0, 0, 0];
      for (const v of seq) {
        const before = cv.values.indexOf(v);
        cv.add(v);
        const i = cv.values.indexOf(v);
        if (i < 0) continue; // tree full: Darshan does not count it
        assert.ok(before >= 0 || cv.values.length <= COMMON_VALUE_LIMIT);
        updateCommonSlots(vals, cnts, v, cv.counts[i], false);
      }
      const top = cv.top4();
      assert.deepEqual(top.values, vals);
      assert.deepEqual(top.counts, cnts);
    }),
  );
});

test('events without a file, or of calls Darshan does not wrap, change nothing', () => {
  const tc = derive([
    ['0', 'open', F, -1, -1, 1, 2],
    ['0', 'MPI_Barrier', null, -1, -1, 2, 3],
    ['0', 'write', null, 0, 100, 3, 4],
    ['0', 'unlink', F, -1, -1, 4, 5],
    ['0', 'H5Fcreate', F, -1, -1, 5, 6],
  ]);
  const c = record(tc, 'POSIX', F, 0);
  assert.equal(c('POSIX_WRITES'), 0);
  assert.equal(c('POSIX_F_META_TIME'), 1);
  assert.equal(tc.has('H5F'), true);
  assert.equal(tc.has('H5D'), false);
  assert.equal(tc.decode('H5F'), null);
});

