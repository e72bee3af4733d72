import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { SHARED } from '../testing/corpus.js';
import { diagnoseLog } from '../pipeline/diagnose.js';
import { TimeModelBuilder } from '../facts/time-model.js';

const PUBLIC = join(SHARED, 'darshan-logs', 'public');

/** Sums of counters over every record of a log, from darshan-parser's output beside it. */
function counterSums(log: string, names: readonly string[]): Record<string, number> {
  const text = gunzipSync(readFileSync(join(PUBLIC, log.replace(/\.darshan$/, '.parser.txt.gz')))).toString('utf8');
  const out: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  for (const line of text.split('\n')) {
    const f = line.split('\t');
    if (f.length > 4 && f[3] in out) out[f[3]] += Math.max(0, Number(f[4]));
  }
  return out;
}

test('data an inner layer moved inside an outer layer\'s close counts as the outer layer\'s data I/O, not metadata', () => {
  // H5Fclose (HDF5 metadata, 10 s) flushes datasets through collective MPI-IO writes: of MPI-IO's 9 s of writes, 1 s
  // sits in H5Dwrite (1 s), the other 8 s inside the close; MPI-IO's 0.5 s of opens and closes are HDF5 metadata.
  const b = new TimeModelBuilder();
  b.add(1n, -1, 'HDF5', { metadata: 10, write: 1 });
  b.add(1n, -1, 'MPI-IO', { metadata: 0.5, write: 9 });
  const m = b.build({ runTime: 20, processes: 4, source: 'counters' });
  const part = (op: string) => m.breakdown.find((p) => p.layer === 'HDF5' && p.op === op)!;
  assert.deepEqual(m.breakdown.map((p) => [p.layer, p.op, p.cumulativeSeconds, p.beneath]), [
    ['HDF5', 'write', 9, { 'MPI-IO': 9 }],
    ['HDF5', 'metadata', 2, { 'MPI-IO': 0.5 }],
  ]);
  assert.equal(m.cumulativeIoTime, 11);
  assert.equal(part('write').cumulativeSeconds + part('metadata').cumulativeSeconds, 11);
  // Reads inside a write stay a write (a data-sieving read-modify-write): data ops are never moved between each other.
  const c = new TimeModelBuilder();
  c.add(2n, 0, 'MPI-IO', { write: 5 });
  c.add(2n, 0, 'POSIX', { read: 2, write: 3 });
  assert.deepEqual(c.build({ runTime: 10, processes: 1, source: 'counters' }).breakdown.map((p) => [p.layer, p.op, p.cumulativeSeconds]), [['MPI-IO', 'write', 5]]);
});

test('jlbez: the writes inside HDF5 close are writing, and the verdict says so', () => {
  const log = 'jlbez_8a_benchmark_write_parallel_id1322696_8-21-14519-8141979180909667175_12.darshan';
  const r = diagnoseLog(join(PUBLIC, log));
  assert.equal(r.verdict?.sink?.layer, 'HDF5');
  assert.equal(r.verdict?.sink?.op, 'write');
  assert.match(r.verdict!.text, /of it is writing .*8a_parallel_3Db_0000001\.h5 through HDF5 → MPI-IO → POSIX/);
  // All but what MPI-IO's own opens and closes can hold of its 4,273 s of writes sits beneath HDF5's data I/O.
  const c = counterSums(log, ['MPIIO_F_WRITE_TIME', 'MPIIO_F_META_TIME', 'MPIIO_F_READ_TIME']);
  const write = r.io.breakdown.find((p) => p.layer === 'HDF5' && p.op === 'write')!;
  const meta = r.io.breakdown.find((p) => p.layer === 'HDF5' && p.op === 'metadata')!;
  assert.ok(write.beneath['MPI-IO'] >= c.MPIIO_F_WRITE_TIME - c.MPIIO_F_META_TIME - 1e-6, `${write.beneath['MPI-IO']} of ${c.MPIIO_F_WRITE_TIME}`);
  assert.ok(meta.beneath['MPI-IO'] <= c.MPIIO_F_META_TIME + c.MPIIO_F_READ_TIME + 1e-6);
  assert.ok(write.cumulativeSeconds / r.io.cumulativeIoTime > 0.9);
});

test('every shared HDF5 log: HDF5 metadata holds no more MPI-IO time than MPI-IO\'s own metadata', () => {
  const logs = readdirSync(PUBLIC).filter((f) => f.endsWith('.darshan'));
  let checked = 0;
  for (const log of logs) {
    let r;
    try {
      r = diagnoseLog(join(PUBLIC, log));
    } catch {
      continue; // unreadable logs are other tests' business
    }
    if (!r.job.modules.includes('H5F') || !r.job.modules.includes('MPI-IO')) continue;
    const meta = r.io.breakdown.find((p) => p.layer === 'HDF5' && p.op === 'metadata');
    if (!meta) continue;
    const c = counterSums(log, ['MPIIO_F_META_TIME']);
    assert.ok((meta.beneath['MPI-IO'] ?? 0) <= c.MPIIO_F_META_TIME * (1 + 1e-6) + 1e-4, // (the parser prints 6 decimals)
      `${log}: ${meta.beneath['MPI-IO']} s of MPI-IO beneath HDF5 metadata, MPI-IO metadata ${c.MPIIO_F_META_TIME} s`);
    checked++;
  }
  assert.ok(checked >= 3, `HDF5 logs checked: ${checked}`);
});
