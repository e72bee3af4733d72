import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { logFacts } from '../pipeline/diagnose.js';
import { REPO_ROOT } from '../testing/corpus.js';
import { bytesBelowAtLeast } from './posix-files.js';

// Facts checked against runs of the lab whose construction fixes the answer (lab/README.md, lab/MANIFEST.json).
const lab = (file: string) => logFacts(join(REPO_ROOT, 'lab', 'logs', file)).facts;
const MiB = 1048576;

test('io.sharedRankBytes: HEATMAP bytes per rank on shared files, as the workload skewed them', () => {
  // skew=8 on the last of 8 ranks, 2 MiB per ordinary rank, collective MPI-IO (rank 0 adds one byte of its own).
  const coll = lab('imbalance-mpiio-skew-coll-np8-ioompio-skew8.darshan').get('io.sharedRankBytes');
  assert.deepEqual([coll.layer, coll.nprocs, coll.total, coll.ids.length], ['MPI-IO', 8, 30 * MiB, 1]);
  assert.deepEqual([...coll.bytes], [2 * MiB + 1, 2 * MiB, 2 * MiB, 2 * MiB, 2 * MiB, 2 * MiB, 2 * MiB, 16 * MiB]);
  // POSIX job (no MPI-IO bytes): the POSIX heatmap.
  const posix = lab('imbalance-posix-skew-write-np4-skew4-dxt.darshan').get('io.sharedRankBytes');
  assert.deepEqual([posix.layer, [...posix.bytes]], ['POSIX', [2 * MiB, 2 * MiB, 2 * MiB, 8 * MiB]]);
  // Rank 0 alone writes a file every rank opened.
  assert.deepEqual([...lab('imbalance-mpiio-rank0-shared-np4-ioromio321-xfer4m.darshan').get('io.sharedRankBytes').bytes], [16 * MiB, 0, 0, 0]);
  // A file per process: no shared record, no fact.
  assert.equal(lab('gather-posix-fpp-write-np2-xfer4m-dxt.darshan').tryGet('io.sharedRankBytes'), null);
  // io.rankBytes takes the exact split.
  assert.deepEqual([...lab('imbalance-mpiio-rank0-shared-np4-ioromio321-xfer4m.darshan').get('io.rankBytes').bytes], [16 * MiB, 0, 0, 0]);
});

test('small-request bytes: exact where the common access sizes cover the bin, a lower bound otherwise', () => {
  // HDF5 with 16 KiB chunks: nearly every byte reaches MPI-IO in chunk-sized writes.
  const mp = lab('hdf5-data-indep-chunked-small-np2-ioompio.darshan').get('mpiio.files');
  assert.equal(mp.smallWriteBytes[0], 16818079);
  assert.equal(mp.bytesWritten[0], 16818536);
  // Bins 0..4 (0–100, 101–1K, 1K–10K, 10K–100K, 100K–1M) and up: 10 writes of 16 KiB known exactly, 5 more in the same
  // bin of unknown size counted at the bin's lower edge, 2 reads in the bin ignored, 3 requests of unknown size in the
  // 100K–1M bin (they may be 1 MiB) not counted.
  const bins = [0, 0, 0, 15, 3, 0, 0, 0, 0, 0].map((v) => Float64Array.of(v));
  const other = [0, 0, 0, 2, 0, 0, 0, 0, 0, 0].map((v) => Float64Array.of(v));
  const access = [Float64Array.of(16384), Float64Array.of(0), Float64Array.of(0), Float64Array.of(0)];
  const counts = [Float64Array.of(12), Float64Array.of(0), Float64Array.of(0), Float64Array.of(0)];
  // 12 known requests of 16 KiB, shared by reads and writes in proportion: 12 × 15/17 are writes.
  const known = (12 * 15) / 17;
  assert.equal(bytesBelowAtLeast(MiB, bins, other, access, counts, 0), known * 16384 + (15 - known) * 10241);
});
