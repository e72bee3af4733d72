import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChunkWriter, TableCollector, TraceDicts, Layer, Category } from '../model.js';
import { TraceInputError } from '../errors.js';
import { decodeGrammar, GrammarCursor } from './recorder-decode.js';
import { readRecorder, readRecorderMeta, type RecorderRankStats } from './recorder.js';
import { writeRecorderFolder, DEFAULT_FUNCS, type SynthRank } from '../synth.js';

const FLASH = '../shared/traces/recorder/flash_sedov3d_hdf5-ranks0-3';

function read(dir: string) {
  const d = new TraceDicts();
  const col = new TableCollector();
  const r = readRecorder(dir, new ChunkWriter(d, col.sink, 4096));
  return { r, t: col.table(d) };
}

test('pilgrim layout (FLASH ranks 0-3 of 1024): calls = CST counts = timestamp pairs, missing ranks reported', () => {
  const m = readRecorderMeta(FLASH);
  assert.equal(m.layout, 'per-rank');
  assert.equal(m.version, '2.5.0');
  assert.equal(m.totalRanks, 1024);
  assert.equal(m.funcNames.length, 243);
  assert.equal(m.resolution, 1e-7);
  const { r, t } = read(FLASH);
  const ranks = r.details!.ranks as RecorderRankStats[];
  assert.deepEqual(ranks.map((x) => x.records), [14943, 12329, 11107, 11110]);
  for (const x of ranks) {
    assert.equal(x.cstCalls, x.records, `rank ${x.rank}: CST counts`);
    assert.equal(x.timestamps, x.records, `rank ${x.rank}: timestamps`);
  }
  assert.equal(ranks[0].signatures, 1496);
  assert.equal(ranks[0].rules, 255);
  assert.equal(ranks[3].signatures, 647);
  assert.equal(ranks[3].rules, 228);
  assert.equal(r.events, 49489);
  assert.equal(t.length, 49489);
  assert.deepEqual(r.warnings, ['Recorder folder has data for 4 of 1024 ranks; missing ranks: 4-1023']);
  // MPI-IO calls are resolved to the file opened by MPI_File_open through their handle
  const chk = t.dicts.files.id('/p/lustre2/wang116/applications/FLASH4.4/Sedov_3d_hdf5_ug/sedov_hdf5_chk_0000');
  let mpiWritesOnChk = 0;
  for (let i = 0; i < t.length; i++) if (t.layer[i] === Layer.MPIIO && t.category[i] === Category.WRITE && t.file[i] === chk) mpiWritesOnChk++;
  assert.ok(mpiWritesOnChk > 0);
  // timestamps are non-decreasing starts within a rank and end ≥ start
  for (let i = 1; i < t.length; i++) if (t.proc[i] === t.proc[i - 1]) assert.ok(t.start[i] >= t.start[i - 1] - 1e-9);
});

test('grammar expansion: nested rules with repeats', () => {
  // -1 → a (-2)^3 b ; -2 → c c
  const ints = Int32Array.from([2, -1, 3, 0, 1, -2, 3, 1, 1, -2, 1, 2, 2]);
  const g = decodeGrammar(new Uint8Array(ints.buffer), 'test');
  const cur = new GrammarCursor(g, 'test');
  const out = new Int32Array(3);
  const got: number[] = [];
  for (let n; (n = cur.next(out)) > 0; ) got.push(...out.subarray(0, n));
  assert.deepEqual(got, [0, 2, 2, 2, 2, 2, 2, 1]);
});

function synthRank(rank: number): SynthRank {
  const f = (n: string) => DEFAULT_FUNCS.indexOf(n);
  const path = `/scratch/out_${rank}.dat`;
  const calls = [
    { funcId: f('open'), args: [path, '66'] },
    { funcId: f('write'), args: [path, '%p', '4096'] },
    { funcId: f('lseek'), args: [path, '0', '0'] },
    { funcId: f('read'), args: [path, '%p', '4096'] },
    { funcId: f('fsync'), args: [path] },
    { funcId: f('close'), args: [path] },
  ];
  // open, write×4, lseek, read×4, fsync, close  = 12 calls
  const rules = new Map<number, [number, number][]>([
    [-1, [[0, 1], [1, 4], [2, 1], [-2, 2], [4, 1], [5, 1]]],
    [-2, [[3, 2]]],
  ]);
  const ticks = new Uint32Array(24);
  for (let i = 0; i < 12; i++) {
    ticks[2 * i] = i === 0 ? 10 : 100; // each call starts 10 µs after the previous one
    ticks[2 * i + 1] = (i === 0 ? 10 : 100) + 50; // and lasts 5 µs
  }
  return { calls, rules, ticks };
}

test('final 2.5 layout (zlib blocks, recorder.ts) and per-rank layout decode the same calls', () => {
  for (const [layout, tsCompression] of [['final-2.5', true], ['final-2.5', false], ['per-rank', false]] as const) {
    const dir = mkdtempSync(join(tmpdir(), 'iolens-rec-'));
    try {
      writeRecorderFolder(dir, [synthRank(0), synthRank(1)], { layout, tsCompression });
      assert.equal(readRecorderMeta(dir).layout, layout);
      const { r, t } = read(dir);
      assert.equal(r.events, 24, layout);
      const names = Array.from({ length: 12 }, (_, i) => t.dicts.funcs.get(t.func[i]));
      assert.deepEqual(names, ['open', 'write', 'write', 'write', 'write', 'lseek', 'read', 'read', 'read', 'read', 'fsync', 'close']);
      assert.deepEqual(Array.from(t.offset.subarray(1, 5)), [0, 4096, 8192, 12288]);
      assert.deepEqual(Array.from(t.offset.subarray(6, 10)), [0, 4096, 8192, 12288]);
      assert.ok(Math.abs(t.start[1] - 11e-6) < 1e-12);
      assert.ok(Math.abs(t.end[1] - t.start[1] - 5e-6) < 1e-12);
      assert.equal(t.dicts.files.get(t.file[12]), '/scratch/out_1.dat');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

test('missing folder and truncated timestamps are input errors', () => {
  assert.throws(() => read('/nonexistent/recorder-x'), TraceInputError);
  const dir = mkdtempSync(join(tmpdir(), 'iolens-rec-'));
  try {
    const r = synthRank(0);
    r.ticks = r.ticks.subarray(0, 10);
    writeRecorderFolder(dir, [r], { layout: 'per-rank' });
    assert.throws(() => read(dir), (e: unknown) => e instanceof TraceInputError && /fewer timestamps/.test(e.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
