import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { LimitError } from '../../../contract/errors.js';
import { InflateBudget } from '../../../util/limits.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChunkWriter, TableCollector, TraceDicts, Layer, Category } from '../model.js';
import { TraceInputError } from '../errors.js';
import { decodeGrammar, GrammarCursor, readZlibBlock } from './recorder-decode.js';
import { readRecorder, readRecorderMeta, type RecorderRankStats } from './recorder.js';
import { writeRecorderFolder, synthRank } from '../synth.js';

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

/** Grammar bytes from (rule id, [(symbol, repeat)…]) pairs; rule references are rule ids (< 0). */
function cfg(rules: [number, [number, number][]][]): Buffer {
  const ints: number[] = [rules.length];
  for (const [id, syms] of rules) ints.push(id, syms.length, ...syms.flat());
  return Buffer.from(Int32Array.from(ints).buffer);
}

test('item 4: grammars with huge repeat counts or cycles are refused before any expansion', { timeout: 60_000 }, () => {
  // Rules that expand to nothing, repeated 2^31 × 2^31 times: nothing to emit, and no time spent on it.
  const empty = decodeGrammar(cfg([[-1, [[-2, 0x7fffffff], [0, 1]]], [-2, [[-3, 0x7fffffff]]], [-3, []]]), 'empty');
  assert.equal(empty.calls, 1);
  const out = new Int32Array(16);
  const cur = new GrammarCursor(empty, 'empty');
  assert.equal(cur.next(out), 1);
  assert.equal(cur.next(out), 0);
  // Calls as declared by the counts, even when they pass 2^53.
  assert.equal(decodeGrammar(cfg([[-1, [[-2, 0x7fffffff]]], [-2, [[-3, 0x7fffffff], [1, 1]]], [-3, [[0, 0x7fffffff], [1, 2]]]]), 'big').calls, 0x7fffffff * (0x7fffffff * 0x80000001 + 1));
  // A rule that refers to itself (directly or through another rule) is found at once.
  for (const rules of [
    [[-1, [[-2, 1]]], [-2, [[-2, 1], [0, 1]]]],
    [[-1, [[-2, 3]]], [-2, [[0, 1], [-3, 1]]], [-3, [[1, 1], [-2, 2]]]],
  ] as [number, [number, number][]][][]) {
    assert.throws(() => decodeGrammar(cfg(rules), 'cyclic'), (e: unknown) => e instanceof TraceInputError && /rule cycle/.test(e.message));
  }
  assert.throws(() => decodeGrammar(cfg([[-1, [[0, 0]]]]), 'zero'), (e: unknown) => e instanceof TraceInputError && /bad repeat count 0/.test(e.message));
  // In a folder: three changed bytes give a rank 2^31 calls against 12 timestamps: refused before expanding.
  const dir = mkdtempSync(join(tmpdir(), 'iolens-rec-'));
  try {
    writeRecorderFolder(dir, [synthRank(0)], { layout: 'per-rank' });
    const p = join(dir, '0.cfg');
    const b = readFileSync(p);
    b.writeInt32LE(0x7fffffff, 4 * 4); // repeat of the start rule's first symbol
    writeFileSync(p, b);
    assert.throws(() => read(dir), (e: unknown) => e instanceof TraceInputError && /rank 0 has fewer timestamps \(12\) than calls \(2147483658\)/.test(e.message));
    // A cyclic grammar in the folder
    writeFileSync(p, cfg([[-1, [[-2, 1]]], [-2, [[0, 1], [-2, 1]]]]));
    assert.throws(() => read(dir), (e: unknown) => e instanceof TraceInputError && /rule cycle/.test(e.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('item 4: a damaged recorder.mt gives a trace error, not a raw file error', () => {
  for (const layout of ['per-rank', 'final-2.5'] as const) {
    const dir = mkdtempSync(join(tmpdir(), 'iolens-rec-'));
    try {
      writeRecorderFolder(dir, [synthRank(0), synthRank(1)], { layout });
      const p = join(dir, 'recorder.mt');
      const mt = readFileSync(p);
      // per-rank: the inter-process flag (then 0.cst and ug.mt are looked for); final: the rank count
      if (layout === 'per-rank') mt.writeInt32LE(1, 32);
      else mt.writeInt32LE(3, 0);
      writeFileSync(p, mt);
      assert.throws(() => read(dir), (e: unknown) => e instanceof TraceInputError && /recorder|cst|ug\.mt|truncated/.test(e.message), layout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

test('item 4: Recorder zlib blocks inflate no further than declared, and within the budget', () => {
  const data = Buffer.alloc(1 << 20);
  const z = deflateSync(data);
  const block = (declared: number) => {
    const h = Buffer.alloc(16);
    h.writeBigUInt64LE(BigInt(z.length), 0);
    h.writeBigUInt64LE(BigInt(declared), 8);
    return Buffer.concat([h, z]);
  };
  assert.equal(readZlibBlock(block(1 << 20), 0, 'ok').data.length, 1 << 20);
  assert.throws(() => readZlibBlock(block(1000), 0, 'lie'), (e: unknown) => e instanceof TraceInputError && /inflates past its declared 1000 bytes/.test(e.message));
  assert.throws(() => readZlibBlock(block(1 << 20), 0, 'small', new InflateBudget(1 << 19, 'trace')), (e: unknown) => e instanceof LimitError && /decompression budget of 512 KiB/.test(e.message));
});
