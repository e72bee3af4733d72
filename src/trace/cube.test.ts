import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handCube, type HandEvent } from '../testing/trace-events.js';
import { Cube, MAX_EVENT_SECONDS, mergeCubes, identityMaps, S_BYTES, S_FIRST, S_KNOWN_OFFSET, S_LAST, S_OPS, S_RANDOM, S_SMALL_READ, S_SMALL_WRITE, S_TIME, STRIDE, type CubeData } from './cube.js';
import { TraceInputError } from '../formats/trace/errors.js';
import { Category, ChunkWriter, Layer, TraceDicts } from '../formats/trace/model.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/** The cell of (proc, file, window) as a plain object (window = index relative to the cube origin). */
function cell(c: CubeData, d: TraceDicts, proc: string, file: string | null, win: number) {
  const p = d.procs.values.indexOf(proc);
  const f = file === null ? -1 : d.files.values.indexOf(file);
  for (let i = 0; i < c.cellPair.length; i++) {
    const pair = c.cellPair[i];
    if (c.pairProc[pair] !== p || c.pairFile[pair] !== f || c.cellWin[i] !== win) continue;
    const o = i * STRIDE;
    const cat = (k: number) => [c.stats[o + S_OPS + k], c.stats[o + S_TIME + k], c.stats[o + S_BYTES + k]];
    return {
      read: cat(Category.READ),
      write: cat(Category.WRITE),
      metadata: cat(Category.METADATA),
      sync: cat(Category.SYNC),
      smallRead: c.stats[o + S_SMALL_READ],
      smallWrite: c.stats[o + S_SMALL_WRITE],
      random: c.stats[o + S_RANDOM],
      knownOffset: c.stats[o + S_KNOWN_OFFSET],
      first: c.stats[o + S_FIRST],
      last: c.stats[o + S_LAST],
    };
  }
  return null;
}

// Times are sums of powers of two so that every expected value is exact.
const EVENTS: HandEvent[] = [
  { proc: '0', file: '/d/a', func: 'open', cat: Category.METADATA, start: 10, end: 10.25 },
  { proc: '0', file: '/d/a', func: 'write', cat: Category.WRITE, offset: 0, size: 100, start: 10.25, end: 10.5 },
  { proc: '0', file: '/d/a', func: 'write', cat: Category.WRITE, offset: 100, size: 100, start: 10.5, end: 10.75 },
  // goes back to 0: random (starts before the end, 200, of the previous access)
  { proc: '0', file: '/d/a', func: 'write', cat: Category.WRITE, offset: 0, size: 2 * MiB, start: 10.75, end: 11.25 },
  { proc: '0', file: '/d/a', func: 'fsync', cat: Category.SYNC, start: 11.25, end: 12.25 },
  // unknown size: a write, not small, no bytes; unknown offset: not in known-offset counts
  { proc: '0', file: '/d/a', func: 'write', cat: Category.WRITE, start: 12.25, end: 12.5 },
  // in the next 1-second window (base 1 s below)
  { proc: '1', file: '/d/a', func: 'pread', cat: Category.READ, offset: 4096, size: 10, start: 13, end: 13.5 },
  // end before start: a zero-length call
  { proc: '1', file: '/d/a', func: 'pread', cat: Category.READ, offset: 0, size: 10, start: 13.5, end: 13 },
  { proc: '1', func: 'umask', cat: Category.METADATA, start: 14, end: 14.25 },
  // MPI-IO: counted in function and layer calls, not folded into the cube (POSIX+STDIO mask)
  { proc: '1', file: '/d/a', func: 'MPI_File_write', cat: Category.WRITE, layer: Layer.MPIIO, offset: 0, size: 10, start: 15, end: 16 },
];

test('cube cells: per (process, file, window) counts, times, bytes, small and random requests, first/last', () => {
  for (const chunk of [1, 3, 1 << 16]) {
    const { cube, dicts } = handCube(EVENTS, { fixedBase: 1, chunk });
    assert.equal(cube.base, 1);
    assert.equal(cube.events, 9, `${chunk}: MPI-IO call not analysed`);
    assert.equal(cube.minStart, 10);
    assert.equal(cube.maxEnd, 16, 'min/max cover every layer');
    assert.deepEqual(Array.from(cube.layerCalls), [9, 1, 0, 0, 0]);
    assert.equal(cube.funcCalls[dicts.funcs.values.indexOf('write')], 4);
    assert.equal(cube.funcCalls[dicts.funcs.values.indexOf('MPI_File_write')], 1);
    assert.equal(cube.originWin, 10);
    // proc 0's calls start at 10 … 12.25: windows 0, 1 and 2 (base 1 s)
    assert.deepEqual(cell(cube, dicts, '0', '/d/a', 0), {
      read: [0, 0, 0], write: [3, 0.25 + 0.25 + 0.5, 200 + 2 * MiB], metadata: [1, 0.25, 0], sync: [0, 0, 0],
      smallRead: 0, smallWrite: 2, random: 1, knownOffset: 3, first: 10, last: 11.25,
    });
    assert.deepEqual(cell(cube, dicts, '0', '/d/a', 1), {
      read: [0, 0, 0], write: [0, 0, 0], metadata: [0, 0, 0], sync: [1, 1, 0],
      smallRead: 0, smallWrite: 0, random: 0, knownOffset: 0, first: 11.25, last: 12.25,
    });
    assert.deepEqual(cell(cube, dicts, '0', '/d/a', 2), {
      read: [0, 0, 0], write: [1, 0.25, 0], metadata: [0, 0, 0], sync: [0, 0, 0],
      smallRead: 0, smallWrite: 0, random: 0, knownOffset: 0, first: 12.25, last: 12.5,
    });
    // proc 1: the second pread (offset 0 < 4106) is random; its end is clamped to its start
    assert.deepEqual(cell(cube, dicts, '1', '/d/a', 3), {
      read: [2, 0.5, 20], write: [0, 0, 0], metadata: [0, 0, 0], sync: [0, 0, 0],
      smallRead: 2, smallWrite: 0, random: 1, knownOffset: 2, first: 13, last: 13.5,
    });
    assert.deepEqual(cell(cube, dicts, '1', null, 4)?.metadata, [1, 0.25, 0]);
    assert.equal(cube.cellPair.length, 5);
    assert.equal(cube.pairProc.length, 3);
  }
});

test('the adaptive base window: 1 ms, coarsened ×10 while the trace spans more than 20,000 windows', () => {
  const ev = (start: number): HandEvent => ({ proc: '0', file: '/f', func: 'write', cat: Category.WRITE, offset: 0, size: 1, start, end: start + 0.001 });
  assert.equal(handCube([ev(0), ev(19.999)]).cube.base, 1e-3);
  const wide = handCube([ev(0), ev(30.002), ev(30.005)]).cube;
  assert.equal(wide.base, 1e-3 * 10);
  // the two calls at 30.002 s and 30.005 s now share one 10 ms window; stats survive the coarsening
  assert.equal(wide.cellPair.length, 2);
  let ops = 0;
  for (let i = 0; i < wide.cellPair.length; i++) ops += wide.stats[i * STRIDE + S_OPS + Category.WRITE];
  assert.equal(ops, 3);
  // 500 s: 10 ms would still give 50,000 windows, 100 ms gives 5,000
  assert.equal(handCube([ev(0), ev(500)]).cube.base, 1e-3 * 10 * 10);
});

test('the adaptive base window is also coarsened when the cells would pass the budget, never past the default time view', () => {
  // 8 processes × 4 files, each pair writing once every 2 ms for 10 s: 32 pairs × 5,000 windows = 160,000 cells at 1 ms
  const events: HandEvent[] = [];
  for (let t = 0; t < 5000; t++) {
    for (let p = 0; p < 8; p++) for (let f = 0; f < 4; f++) events.push({ proc: String(p), file: `/f${f}`, func: 'write', cat: Category.WRITE, offset: t * 8, size: 8, start: t * 0.002 + 0.0001, end: t * 0.002 + 0.0002 });
  }
  const free = handCube(events, { maxCells: 1 << 20 }).cube;
  assert.equal(free.base, 1e-3);
  assert.equal(free.cellPair.length, 160_000);
  const sum = (c: CubeData, k: number) => {
    let s = 0;
    for (let i = 0; i < c.cellPair.length; i++) s += c.stats[i * STRIDE + k];
    return s;
  };
  for (const chunk of [7, 1 << 16]) {
    const capped = handCube(events, { maxCells: 40_000, chunk }).cube;
    // 10 ms windows: 32 pairs × 1,000 windows = 32,000 cells, within the budget
    assert.equal(capped.base, 1e-3 * 10);
    assert.equal(capped.cellPair.length, 32_000);
    for (const k of [S_OPS + Category.WRITE, S_BYTES + Category.WRITE, S_SMALL_WRITE, S_KNOWN_OFFSET, S_RANDOM]) assert.equal(sum(capped, k), sum(free, k), `stat ${k}`);
    assert.equal(sum(capped, S_OPS + Category.WRITE), 160_000);
    assert.equal(sum(capped, S_RANDOM), 0, 'each pair writes forward: no random access');
  }
  // a budget that cannot be kept: the base stays within the default time view's window (the span so far / 100,
  // just under 100 ms here, so 10 ms) and the budget grows instead
  const tiny = handCube(events, { maxCells: 10 }).cube;
  assert.equal(tiny.base, 1e-3 * 10);
  assert.equal(tiny.cellPair.length, 32_000);
  assert.equal(sum(tiny, S_OPS + Category.WRITE), 160_000);
});

test('a fixed granularity never coarsens; too many windows is an input error', () => {
  const ev = (start: number): HandEvent => ({ proc: '0', file: '/f', func: 'read', cat: Category.READ, offset: 0, size: 1, start, end: start });
  assert.equal(handCube([ev(0), ev(100)], { fixedBase: 0.5 }).cube.base, 0.5);
  assert.throws(() => handCube([ev(0), ev(1e6)], { fixedBase: 1 }), (e: unknown) => e instanceof TraceInputError && /choose a coarser one/.test(e.message));
});

test('an event time past MAX_EVENT_SECONDS is an input error, not an endless coarsening (fuzz finding)', () => {
  const ev = (start: number, end = start): HandEvent => ({ proc: '0', file: '/f', func: 'write', cat: Category.WRITE, offset: 0, size: 1, start, end });
  // The fuzzed DXT log: an ordinary segment, then one starting at 1.73e308 s (its window number overflowed to Infinity).
  for (const bad of [[ev(0.016), ev(1.73e308)], [ev(1.73e308)], [ev(-1e13)], [ev(0.5, 1e300)]]) {
    assert.throws(() => handCube(bad), (e: unknown) => e instanceof TraceInputError && /past the 9\.0e\+12 s/.test(e.message));
  }
  // Epoch seconds and the bound itself are times like any other.
  const epoch = handCube([ev(1.7e9), ev(1.7e9 + 60), ev(MAX_EVENT_SECONDS)]);
  assert.equal(epoch.cube.cellPair.length, 2);
});

/** Merges cubes built with their own dictionaries into one over new global dictionaries, as the workers' cubes are. */
function mergeOwn(parts: ReturnType<typeof handCube>[]): { merged: CubeData; global: TraceDicts } {
  const global = new TraceDicts();
  const merged = mergeCubes(
    parts.map(({ cube, dicts }) => ({
      data: cube,
      procMap: Int32Array.from(dicts.procs.values, (label, i) => global.proc(label, dicts.hosts.get(dicts.procHost[i]), dicts.apps.get(dicts.procApp[i]))),
      fileMap: Int32Array.from(dicts.files.values, (f) => global.files.id(f)),
      funcMap: Int32Array.from(dicts.funcs.values, (f) => global.funcs.id(f)),
    })),
  );
  return { merged, global };
}

test('mergeCubes: cubes built with their own dictionaries merge into the cube of all the calls', () => {
  const whole = handCube(EVENTS, { fixedBase: 1 });
  // split by process, as worker threads split by rank: each part has its own dictionaries
  const parts = ['0', '1'].map((p) => handCube(EVENTS.filter((e) => e.proc === p), { fixedBase: 1 }));
  const { merged, global } = mergeOwn(parts);
  assert.equal(merged.events, whole.cube.events);
  assert.equal(merged.minStart, whole.cube.minStart);
  assert.equal(merged.maxEnd, whole.cube.maxEnd);
  assert.deepEqual(Array.from(merged.layerCalls), Array.from(whole.cube.layerCalls));
  for (const [p, f, w] of [['0', '/d/a', 0], ['0', '/d/a', 1], ['0', '/d/a', 2], ['1', '/d/a', 3], ['1', null, 4]] as const) {
    assert.deepEqual(cell(merged, global, p, f, w), cell(whole.cube, whole.dicts, p, f, w), `${p} ${f} ${w}`);
  }
  // identity maps leave a cube unchanged
  const same = mergeCubes([{ data: whole.cube, ...identityMaps(whole.dicts) }]);
  assert.deepEqual(Array.from(same.stats), Array.from(whole.cube.stats));
});

test('mergeCubes: parts that share pairs and windows, one with a finer base, add up cell by cell', () => {
  const whole = handCube(EVENTS, { fixedBase: 1 });
  // split in time: the first two calls in one part, the rest (same pairs, one window shared) in a part of half-second
  // windows, which the merge brings to whole seconds (two of its cells fall into one)
  const parts = [handCube(EVENTS.slice(0, 2), { fixedBase: 1 }), handCube(EVENTS.slice(2), { fixedBase: 0.5 })];
  const { merged, global } = mergeOwn(parts);
  assert.equal(merged.base, 1);
  assert.equal(merged.cellPair.length, whole.cube.cellPair.length);
  for (const [p, f] of [['0', '/d/a'], ['1', '/d/a'], ['1', null]] as const) {
    for (let w = 0; w < 7; w++) assert.deepEqual(cell(merged, global, p, f, w), cell(whole.cube, whole.dicts, p, f, w), `${p} ${f} ${w}`);
  }
});

test('Cube.add through a ChunkWriter: the chunk arrays are reused and nothing is kept from them', () => {
  const dicts = new TraceDicts();
  const cube = new Cube({ layerMask: 1 << Layer.POSIX, smallBytes: 64 * KiB });
  const w = new ChunkWriter(dicts, (c) => cube.add(c), 2);
  const p = dicts.proc('7', 'h', 'a');
  const f = dicts.files.id('/x');
  const rd = dicts.funcs.id('read');
  for (let i = 0; i < 5; i++) w.push(p, f, rd, Layer.POSIX, Category.READ, i * 64 * KiB, 64 * KiB, i, i + 0.5);
  w.flush();
  const s = cube.snapshot();
  let ops = 0;
  let small = 0;
  for (let i = 0; i < s.cellPair.length; i++) {
    ops += s.stats[i * STRIDE + S_OPS + Category.READ];
    small += s.stats[i * STRIDE + S_SMALL_READ];
  }
  assert.equal(ops, 5);
  assert.equal(small, 0, '64 KiB is not below a 64 KiB small size');
});

test('an event on a window edge written in decimal lies in the window that starts there, whatever the base and whenever it widened', () => {
  // rank 0 calls at exactly k / 10 s (16.4 / 0.1 is 163.99999999999997); 40 other ranks fill cells so that a small
  // budget widens the base part way through
  const events: HandEvent[] = [];
  for (let k = 0; k <= 300; k++) {
    events.push({ proc: 'edge', file: '/f', func: 'write', cat: Category.WRITE, offset: k, size: 1, start: k / 10, end: k / 10 });
    for (let p = 0; p < 40; p++) events.push({ proc: String(p), file: '/f', func: 'write', cat: Category.WRITE, offset: k, size: 1, start: k / 10 + 0.0517, end: k / 10 + 0.0517 });
  }
  const cubes: [string, CubeData, TraceDicts][] = [];
  for (const [name, opts] of [
    ['adaptive', {}],
    ['adaptive, small budget', { maxCells: 64 }],
    ['fixed 0.1 s', { fixedBase: 0.1 }],
    ['fixed 0.01 s', { fixedBase: 0.01 }],
    ['fixed 0.05 s', { fixedBase: 0.05 }],
  ] as const) {
    const { cube, dicts } = handCube(events, { ...opts, chunk: 1000 });
    cubes.push([name, cube, dicts]);
  }
  assert.deepEqual(cubes.map(([, c]) => c.base), [0.01, 0.1, 0.1, 0.01, 0.05]);
  for (const [name, c, d] of cubes) {
    const edge = d.procs.values.indexOf('edge');
    const per = Math.round(0.1 / c.base);
    const byWindow = new Map<number, number>();
    for (let i = 0; i < c.cellPair.length; i++) {
      if (c.pairProc[c.cellPair[i]] !== edge) continue;
      const w = Math.floor((c.originWin + c.cellWin[i]) / per);
      byWindow.set(w, (byWindow.get(w) ?? 0) + c.stats[i * STRIDE + S_OPS + Category.WRITE]);
    }
    assert.deepEqual([...byWindow].sort((a, b) => a[0] - b[0]), Array.from({ length: 301 }, (_, k) => [k, 1]), name);
  }
});
