import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { openDarshanLog, type DxtTable } from '../../darshan/index.js';
import { dxtPosix } from '../../darshan/modules/dxt.js';
import { synthesizeLog } from '../../darshan/synth.js';
import { writeLog } from '../../darshan/writer.js';
import { LimitError } from '../../../contract/errors.js';
import { writeLogWithDxtRegion } from '../../../testing/dxt-region.js';
import { ChunkWriter, TableCollector, TraceDicts, Category, Layer } from '../model.js';
import { readDxt, readDxtStreaming } from './dxt.js';
import type { ReadResult } from './types.js';

const LOGS = [
  '../shared/traces/darshan/wisio-tests/unet3d_a100.darshan',
  '../shared/darshan-logs/public/treddy_mpi-io-test_id4373053_6-2-60198-9815401321915095332_1.darshan',
  '../shared/darshan-logs/public/hdf5_diagonal_write_half_flush_dxt.darshan',
  '../shared/darshan-logs/public/dxt.darshan',
];

function sumInt(t: { int(n: string): Float64Array }, n: string): number {
  return t.int(n).reduce((a, b) => a + b, 0);
}

for (const path of LOGS) {
  test(`DXT_POSIX totals equal the POSIX counters: ${path.split('/').pop()}`, () => {
    const d = new TraceDicts();
    const col = new TableCollector();
    readDxt(path, new ChunkWriter(d, col.sink));
    const t = col.table(d);
    let reads = 0;
    let writes = 0;
    let rb = 0;
    let wb = 0;
    for (let i = 0; i < t.length; i++) {
      if (t.layer[i] !== Layer.POSIX) continue;
      if (t.category[i] === Category.READ) {
        reads++;
        rb += t.size[i];
      } else if (t.category[i] === Category.WRITE) {
        writes++;
        wb += t.size[i];
      }
    }
    const posix = openDarshanLog(path).table('POSIX') as unknown as { int(n: string): Float64Array };
    assert.equal(reads, sumInt(posix, 'POSIX_READS'));
    assert.equal(writes, sumInt(posix, 'POSIX_WRITES'));
    assert.equal(rb, sumInt(posix, 'POSIX_BYTES_READ'));
    assert.equal(wb, sumInt(posix, 'POSIX_BYTES_WRITTEN'));
  });
}

test('DXT_MPIIO segments equal the MPI-IO independent operation counters (treddy mpi-io-test)', () => {
  const path = LOGS[1];
  const d = new TraceDicts();
  const col = new TableCollector();
  const r = readDxt(path, new ChunkWriter(d, col.sink));
  const t = col.table(d);
  let w = 0;
  let rd = 0;
  for (let i = 0; i < t.length; i++) {
    if (t.layer[i] !== Layer.MPIIO) continue;
    if (t.category[i] === Category.WRITE) w++;
    else rd++;
  }
  assert.equal(w, 128);
  assert.equal(rd, 128);
  assert.equal(r.events, 320 + 256);
  assert.equal(r.details!.nprocs, 32);
});

/**
 * Reads `path` with the decoding reader and with the streaming one (pieces of 1 MiB, and small odd sizes so that
 * records and segments straddle pieces; inflating in the main thread and on a thread of its own); all must give the
 * same result, events and dictionaries.
 */
async function sameAsDecoding(path: string): Promise<ReadResult> {
  const d0 = new TraceDicts();
  const c0 = new TableCollector();
  const r0 = readDxt(path, new ChunkWriter(d0, c0.sink));
  for (const [chunk, offThread] of [[1 << 20, false], [4099, false], [104, false], [1 << 20, 'always'], [4099, 'always']] as const) {
    const d1 = new TraceDicts();
    const c1 = new TableCollector();
    const r1 = await readDxtStreaming(path, new ChunkWriter(d1, c1.sink), {}, offThread, chunk);
    assert.deepEqual(r1, r0, `${path} ${chunk} ${offThread}`);
    assert.deepEqual(c1.table(d1), c0.table(d0), `${path} ${chunk} ${offThread}`);
  }
  return r0;
}

test('streaming DXT reading gives the same events, dictionaries and result as decoding whole regions', async () => {
  const logs = [
    ...LOGS,
    '../shared/darshan-logs/public/partial_data_dxt.darshan',
    '../shared/darshan-logs/public/shared_writer.darshan',
    // DXT regions made of many zlib streams (one per rank)
    '../shared/darshan-logs/public/jlbez_8a_benchmark_write_parallel_id1322696_8-21-14519-8141979180909667175_12.darshan',
  ];
  for (const path of logs) {
    assert.ok((await sameAsDecoding(path)).events > 0, path);
  }
});

test('streaming DXT reading keeps the log errors: budget and missing DXT', async () => {
  const path = '../shared/darshan-logs/public/partial_data_dxt.darshan';
  const msg = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return (e as Error).message;
    }
    return '';
  };
  const old = msg(() => readDxt(path, new ChunkWriter(new TraceDicts(), () => {}), undefined, { maxInflate: 1 << 20 }));
  assert.match(old, /decompression budget/);
  for (const offThread of [false, 'always'] as const) {
    await assert.rejects(readDxtStreaming(path, new ChunkWriter(new TraceDicts(), () => {}), { maxInflate: 1 << 20 }, offThread), (e: Error) => e.message === old);
  }
  const noDxt = '../shared/traces/darshan/polaris-cug25/1982294-18188572978586438489.darshan';
  const old2 = msg(() => readDxt(noDxt, new ChunkWriter(new TraceDicts(), () => {})));
  assert.match(old2, /no DXT_POSIX or DXT_MPIIO records/);
  await assert.rejects(readDxtStreaming(noDxt, new ChunkWriter(new TraceDicts(), () => {})), (e: Error) => e.message === old2);
});

test('streaming DXT reading of damaged regions: a record cut short, and several zlib streams, as the decoding reader', async () => {
  const input = synthesizeLog({ seed: 3, posixFiles: 4, nprocs: 3, dxtSegments: 5000 });
  const dxt = input.modules.find((m) => m.id === 10)!;
  const table = dxt.table as DxtTable;
  const raw = dxtPosix.encode!(table);
  // where the last record starts (104-byte head, 40 bytes per segment)
  let last = 0;
  for (let r = 0; r < table.length - 1; r++) last += 104 + 40 * (table.writeCount[r] + table.readCount[r]);
  const second = 104 + 40 * (table.writeCount[0] + table.readCount[0]);
  const damagedHead = Buffer.from(raw);
  damagedHead.writeBigInt64LE(-1n, second + 88);
  const hugeHead = Buffer.from(raw);
  hugeHead.writeBigInt64LE(1n << 40n, second + 88);
  const dir = mkdtempSync(join(tmpdir(), 'iolens-dxt-'));
  const cases: [string, Uint8Array][] = [
    // two zlib streams (as two ranks write them), the whole region
    ['two streams', Buffer.concat([deflateSync(raw.subarray(0, 40_000)), deflateSync(raw.subarray(40_000))])],
    // the last record's segments cut short, then a cut inside a record head (fewer than 104 bytes left)
    ['segments cut', Buffer.concat([deflateSync(raw.subarray(0, 40_000)), deflateSync(raw.subarray(40_000, raw.length - 100))])],
    ['head cut', deflateSync(raw.subarray(0, last + 50))],
    // the second record's head claims -1 writes: what follows is not records (the stream itself is sound)
    ['damaged head', deflateSync(damagedHead)],
    // the second record claims 2^40 writes, more than any region holds (not waited for: the rest is not kept)
    ['huge head', deflateSync(hugeHead)],
    // the second record's head claims -1 writes, and the stream's checksum (its last 4 bytes) is wrong
    ['damaged head, bad checksum', Buffer.concat([deflateSync(damagedHead).subarray(0, -4), Buffer.from([1, 2, 3, 4])])],
  ];
  for (const [name, stored] of cases) {
    const path = join(dir, `${name}.darshan`);
    writeLogWithDxtRegion(input, stored, path);
    if (name === 'damaged head, bad checksum') {
      // the decoding reader inflates the whole region first and meets the checksum; reading in pieces reaches the
      // damaged head earlier but must fail the same way, whichever thread inflates
      const msg = (() => {
        try {
          readDxt(path, new ChunkWriter(new TraceDicts(), () => {}));
        } catch (e) {
          return (e as Error).message;
        }
        return '';
      })();
      assert.match(msg, /corrupt DXT_POSIX region \(zlib: incorrect data check\)/);
      for (const offThread of [false, 'always'] as const) {
        await assert.rejects(readDxtStreaming(path, new ChunkWriter(new TraceDicts(), () => {}), {}, offThread, 4099), (e: Error) => e.message === msg, `${name} ${offThread}`);
      }
      continue;
    }
    const r0 = await sameAsDecoding(path);
    if (name === 'damaged head' || name === 'huge head') assert.match(r0.warnings.join('\n'), /DXT_POSIX record's segments extend past the end of its region/);
    if (name === 'head cut') assert.deepEqual(r0.warnings, [], name);
    if (name === 'segments cut') assert.match(r0.warnings.join('\n'), /DXT_POSIX record's segments extend past the end of its region/);
    assert.ok(r0.events > 0, name);
  }
});

test('a log larger than 2 GiB is streamed (its head read, its DXT region inflated piece by piece), not read whole', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-dxt-big-'));
  try {
    const path = join(dir, 'big.darshan');
    writeFileSync(path, writeLog(synthesizeLog({ dxtSegments: 5000, seed: 9 })));
    // bytes after the last region (a sparse file: no disk space) take the log past what IOLens reads whole
    truncateSync(path, 2 ** 31 + 4096);
    assert.throws(() => openDarshanLog(path), LimitError);
    const d = new TraceDicts();
    const col = new TableCollector();
    const res = await readDxtStreaming(path, new ChunkWriter(d, col.sink), {}, 'always');
    assert.equal(res.events, 5000);
    assert.equal(col.table(d).length, 5000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
