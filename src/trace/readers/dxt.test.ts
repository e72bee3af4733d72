import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDarshanLog } from '../../formats/darshan/index.js';
import { ChunkWriter, TableCollector, TraceDicts, Category, Layer } from '../model.js';
import { readDxt } from './dxt.js';

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
