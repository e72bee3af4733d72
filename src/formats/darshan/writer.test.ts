import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DarshanLog } from './log.js';
import { logToInput, writeLog } from './writer.js';
import { synthesizeLog } from './synth.js';
import { printParserText } from './print/parser-text.js';
import { printDxtText } from './print/dxt-text.js';
import { StringOut } from './print/text-out.js';
import { comparableLines } from '../../testing/parser-compare.js';
import { corpusLogs } from '../../testing/corpus.js';
import type { FixedTable } from './modules/fixed-codec.js';
import type { DxtTable } from './modules/dxt.js';

// Lines that legitimately change when a log is rewritten as 3.41/zlib: version, compression, region sizes and
// versions, and the run time (pre-3.41 logs count whole seconds plus one).
const REWRITTEN = /^# (darshan log version|compression method|run time|header|job data|record table|.+ module: )/;

function lines(log: DarshanLog, print: typeof printParserText): string[] {
  const out = new StringOut();
  print(log, out, () => {});
  return comparableLines(out.toString()).filter((l) => !REWRITTEN.test(l));
}

test('every corpus log survives write and re-read with the same parse and DXT output', () => {
  const failures: string[] = [];
  let n = 0;
  for (const l of corpusLogs()) {
    let a: DarshanLog;
    try {
      a = DarshanLog.open(l.path);
    } catch {
      continue;
    }
    const b = DarshanLog.fromBytes(writeLog(logToInput(a).input));
    assert.equal(b.header.versionString, '3.41');
    for (const print of [printParserText, printDxtText]) {
      const x = lines(a, print);
      const y = lines(b, print);
      const i = x.findIndex((v, k) => v !== y[k]);
      if (i >= 0 || x.length !== y.length) failures.push(`${l.name} (${print.name}): line ${i}: ${x[i]} != ${y[i]}`);
    }
    n++;
  }
  assert.ok(n >= 159, `round-tripped ${n} logs`);
  assert.deepEqual(failures, []);
});

test('synthesized logs are deterministic and read back with the requested contents', () => {
  const opts = { posixFiles: 300, sharedFiles: 2, nprocs: 16, dxtSegments: 5000, mpiio: true, seed: 7 };
  const bytes = writeLog(synthesizeLog(opts));
  assert.deepEqual(writeLog(synthesizeLog(opts)), bytes);
  const log = DarshanLog.fromBytes(bytes);
  assert.equal(log.job.nprocs, 16n);
  const posix = log.table<FixedTable>('POSIX')!;
  assert.equal(posix.length, 300);
  assert.deepEqual([...posix.ranks.col(0).subarray(0, 3)], [-1, -1, 0]);
  assert.equal(log.table<FixedTable>('MPI-IO')!.length, 2);
  const dxt = log.table<DxtTable>('DXT_POSIX')!;
  assert.equal(dxt.segments, 5000);
  let segs = 0;
  for (let r = 0; r < dxt.length; r++) segs += dxt.writeCount[r] + dxt.readCount[r];
  assert.equal(segs, 5000);
  // Names resolve through the ids the writer computed with darshan's hash.
  assert.equal(log.names.get(posix.ids[0]), '/lustre/scratch/synth/shared.0.dat');
  // POSIX byte counters agree with the size histogram totals.
  const writes = posix.int('POSIX_WRITES');
  let hist = 0;
  for (const name of posix.intNames.filter((x) => x.startsWith('POSIX_SIZE_WRITE_'))) hist += posix.int(name as never).reduce((s, v) => s + v, 0);
  assert.equal(hist, writes.reduce((s, v) => s + v, 0));
});
