import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TRACE_METRICS } from '../contract/index.js';
import { REPO_ROOT, SHARED } from '../testing/corpus.js';
import { handCube, type HandEvent } from '../testing/trace-events.js';
import { identityMaps, mergeCubes } from './cube.js';
import { CATEGORY_NAMES, Category } from '../formats/trace/model.js';
import { DEFAULT_VIEWS, DIMENSIONS, parseView, VIEWS } from './view-catalogue.js';
import { computeView, defaultGranularity, firstDimIds, ViewContext, viewTables, type Metrics } from './views.js';

const MiB = 1024 * 1024;
const T0 = 1000;

/**
 * Two processes on two hosts, three files in two directories, and one call without a file; times are quarter
 * seconds after T0 so that every sum is exact.
 */
const EVENTS: HandEvent[] = [
  { proc: '0', host: 'h0', app: 'A', file: '/d1/f1', func: 'open', cat: Category.METADATA, start: T0, end: T0 + 0.25 },
  { proc: '0', host: 'h0', app: 'A', file: '/d1/f1', func: 'write', cat: Category.WRITE, offset: 0, size: 100, start: T0 + 0.25, end: T0 + 0.5 },
  { proc: '0', host: 'h0', app: 'A', file: '/d1/f1', func: 'write', cat: Category.WRITE, offset: 100, size: 100, start: T0 + 0.5, end: T0 + 0.75 },
  { proc: '0', host: 'h0', app: 'A', file: '/d1/f1', func: 'write', cat: Category.WRITE, offset: 0, size: 50, start: T0 + 0.75, end: T0 + 1.25 },
  { proc: '0', host: 'h0', app: 'A', file: '/d1/f1', func: 'fsync', cat: Category.SYNC, start: T0 + 1.25, end: T0 + 2.25 },
  { proc: '0', host: 'h0', app: 'A', file: '/d1/f1', func: 'close', cat: Category.METADATA, start: T0 + 2.25, end: T0 + 2.5 },
  { proc: '0', host: 'h0', app: 'A', file: '/d1/f2', func: 'write', cat: Category.WRITE, offset: 0, size: 10, start: T0 + 3, end: T0 + 3.25 },
  { proc: '1', host: 'h1', app: 'A', file: '/d1/f1', func: 'read', cat: Category.READ, offset: 0, size: 2 * MiB, start: T0 + 4, end: T0 + 5 },
  { proc: '1', host: 'h1', app: 'A', file: '/d1/f1', func: 'read', cat: Category.READ, offset: 5, size: 10, start: T0 + 5, end: T0 + 5.5 },
  { proc: '1', host: 'h1', app: 'A', file: '/d2/g1', func: 'read', cat: Category.READ, offset: 0, size: 10, start: T0 + 6, end: T0 + 6.25 },
  { proc: '1', host: 'h1', app: 'A', func: 'umask', cat: Category.METADATA, start: T0 + 6.5, end: T0 + 6.75 },
];
const TOTAL = { time: 4.75, ops: 11, bytes: 2 * MiB + 280 };

function context(granularity = 2): ViewContext {
  const { cube, dicts } = handCube(EVENTS, { fixedBase: 0.25 });
  return new ViewContext(cube, dicts, granularity);
}

function view(ctx: ViewContext, name: string, allowed?: Set<number>): Map<string, Metrics> {
  const r = computeView(ctx, parseView(name), allowed);
  return new Map(r.records.map((x) => [JSON.stringify(x.key), x.metrics]));
}

test('the file view of the hand trace: every column, exactly', () => {
  const ctx = context();
  assert.deepEqual(ctx.totals, TOTAL);
  const files = view(ctx, 'file');
  assert.deepEqual([...files.keys()], ['{"file":"/d1/f1"}', '{"file":"/d1/f2"}', '{"file":"/d2/g1"}', '{"file":"<no file>"}']);
  const readBytes = 2 * MiB + 10;
  const f1: Metrics = {
    time: 4, ops: 8, bytes: readBytes + 250, iops: 2, bandwidth: (readBytes + 250) / 2.5,
    read_time: 1.5, read_ops: 2, read_bytes: readBytes,
    write_time: 1, write_ops: 3, write_bytes: 250,
    metadata_time: 0.5, metadata_ops: 2, metadata_bytes: 0,
    sync_time: 1, sync_ops: 1, sync_bytes: 0,
    other_time: 0, other_ops: 0, other_bytes: 0,
    data_time: 2.5, data_ops: 5, data_bytes: readBytes + 250,
    read_size_avg: readBytes / 2, write_size_avg: 250 / 3,
    small_read_ops: 1, small_write_ops: 3, small_read_share: 0.5, small_write_share: 1,
    random_ops: 2, offset_ops: 5, random_share: 0.4,
    metadata_time_share: 0.125, metadata_ops_share: 0.25, sync_time_share: 0.25, sync_ops_share: 0.125,
    nprocs: 2, nfiles: 1, top_proc_time_share: 2.5 / 4, top_proc_bytes_share: readBytes / (readBytes + 250),
    proc_ops_imbalance: 6 / (8 / 2), proc_bytes_imbalance: readBytes / ((readBytes + 250) / 2), proc_time_imbalance: 2.5 / (4 / 2),
    time_share: 4 / TOTAL.time, ops_share: 8 / TOTAL.ops, bytes_share: (readBytes + 250) / TOTAL.bytes,
    first_start: 0, last_end: 5.5, span: 5.5,
  };
  assert.deepEqual(files.get('{"file":"/d1/f1"}'), f1);
  assert.deepEqual(Object.keys(files.get('{"file":"/d1/f1"}')!).sort(), [...TRACE_METRICS].sort(), 'a record carries exactly the contract metrics');
  const none = files.get('{"file":"<no file>"}')!;
  assert.deepEqual([none.ops, none.metadata_ops, none.time, none.nfiles, none.nprocs, none.first_start], [1, 1, 0.25, 0, 1, 6.5]);
  for (const c of CATEGORY_NAMES) for (const k of ['time', 'ops', 'bytes']) assert.ok((TRACE_METRICS as readonly string[]).includes(`${c}_${k}`));
});

test('process, host, app, directory and pattern views group the same calls', () => {
  const ctx = context();
  const procs = view(ctx, 'proc');
  const p0 = procs.get('{"proc":"0"}')!;
  const p1 = procs.get('{"proc":"1"}')!;
  assert.deepEqual([p0.ops, p0.time, p0.bytes, p0.nfiles, p0.nprocs], [7, 2.75, 260, 2, 1]);
  assert.deepEqual([p1.ops, p1.time, p1.bytes, p1.nfiles, p1.nprocs], [4, 2, 2 * MiB + 20, 2, 1]);
  assert.equal(p0.proc_ops_imbalance, 1);
  assert.deepEqual([...view(ctx, 'host').entries()].map(([k, m]) => [k, m.ops]), [['{"host":"h0"}', 7], ['{"host":"h1"}', 4]]);
  assert.deepEqual([...view(ctx, 'app').entries()].map(([k, m]) => [k, m.ops, m.nprocs, m.nfiles, m.time_share]), [['{"app":"A"}', 11, 2, 3, 1]]);
  const dirs = view(ctx, 'dir');
  assert.deepEqual([...dirs.keys()], ['{"dir":"/d1"}', '{"dir":"/d2"}', '{"dir":"<no file>"}']);
  assert.deepEqual([dirs.get('{"dir":"/d1"}')!.ops, dirs.get('{"dir":"/d1"}')!.time, dirs.get('{"dir":"/d1"}')!.nfiles], [9, 4.25, 2]);
  const patterns = view(ctx, 'pattern');
  assert.deepEqual([...patterns.keys()], ['{"pattern":"/d*/f*"}', '{"pattern":"/d*/g*"}', '{"pattern":"<no file>"}']);
  assert.equal(patterns.get('{"pattern":"/d*/f*"}')!.nfiles, 2);
});

test('time windows: calls binned by their start, labels relative to the first window', () => {
  const windows = view(context(2), 'time');
  // [0,2): open + 3 writes + fsync; [2,4): close + the f2 write; [4,6): the two f1 reads; [6,8): g1 read + umask
  assert.deepEqual(
    [...windows.entries()].map(([k, m]) => [k, m.ops, m.time, m.nfiles, m.nprocs]),
    [['{"time":0}', 5, 2.25, 1, 1], ['{"time":2}', 2, 0.5, 2, 1], ['{"time":4}', 2, 1.5, 1, 1], ['{"time":6}', 2, 0.5, 1, 1]],
  );
  const quarter = view(context(0.25), 'time');
  assert.equal(quarter.size, 11, 'one call per quarter-second window');
  assert.deepEqual([...quarter.keys()].slice(0, 3), ['{"time":0}', '{"time":0.25}', '{"time":0.5}']);
});

test('ordered combinations: proc>file inside an allowed set of processes; time>file', () => {
  const ctx = context();
  const procs = computeView(ctx, ['proc']);
  const allowed = firstDimIds(ctx, procs, (r) => r.key.proc === '1');
  const pf = view(ctx, 'proc>file', allowed);
  assert.deepEqual([...pf.keys()], ['{"proc":"1","file":"/d1/f1"}', '{"proc":"1","file":"/d2/g1"}', '{"proc":"1","file":"<no file>"}']);
  assert.deepEqual([pf.get('{"proc":"1","file":"/d1/f1"}')!.ops, pf.get('{"proc":"1","file":"/d1/f1"}')!.random_ops], [2, 1]);
  const tf = view(ctx, 'time>file');
  assert.equal(tf.get('{"time":2,"file":"/d1/f2"}')!.ops, 1);
  assert.equal(tf.get('{"time":2,"file":"/d1/f1"}')!.metadata_ops, 1);
  let ops = 0;
  for (const m of tf.values()) ops += m.ops;
  assert.equal(ops, TOTAL.ops, 'the records of one view partition the calls');
});

test('a cube summed into the report\'s windows first gives the views of the finer cube (what buildTraceReport does)', () => {
  const { cube, dicts } = handCube(EVENTS, { fixedBase: 0.25 });
  for (const g of [0.5, 2, 5]) {
    const fine = new ViewContext(cube, dicts, g);
    const wide = new ViewContext(mergeCubes([{ data: cube, ...identityMaps(dicts) }], g), dicts, g);
    assert.equal(wide.cube.base, g);
    assert.ok(wide.cube.cellPair.length < cube.cellPair.length);
    const procs = computeView(fine, ['proc']);
    const allowed = firstDimIds(fine, procs, (r) => r.key.proc === '1');
    for (const name of [...DEFAULT_VIEWS, 'proc>time>file']) {
      const dims = parseView(name);
      // times are quarter seconds: every sum is exact in any order, so the records are equal, not just close
      assert.deepEqual(computeView(wide, dims).records, computeView(fine, dims).records, `${name} at ${g} s`);
      if (dims[0] === 'proc') assert.deepEqual(computeView(wide, dims, allowed).records, computeView(fine, dims, allowed).records, `${name} at ${g} s, process 1`);
    }
  }
});

test('default granularity: the smallest 1, 2, 5 × 10^k seconds giving at most 100 windows', () => {
  assert.equal(defaultGranularity(6.75, 1e-3), 0.1);
  assert.equal(defaultGranularity(1000, 1e-3), 10);
  assert.equal(defaultGranularity(180, 1e-3), 2);
  assert.equal(defaultGranularity(0.05, 1e-3), 0.001);
  assert.equal(defaultGranularity(0, 0.5), 0.5, 'never below the cube base');
});

test('the view catalogue: names, aliases, defaults, and docs/trace.md lists every view and alias', () => {
  assert.deepEqual(parseView('process > FILE'), ['proc', 'file']);
  assert.deepEqual(parseView('window>rank>file_name'), ['time', 'proc', 'file']);
  assert.throws(() => parseView('file>disk'), /unknown view dimension "disk"/);
  assert.throws(() => parseView('file>files'), /repeats "files"/);
  assert.throws(() => parseView('file>proc>time>app'), /1 to 3 dimensions/);
  assert.deepEqual(DEFAULT_VIEWS, ['file', 'proc', 'time', 'app', 'host', 'dir', 'pattern', 'proc>file', 'file>proc', 'time>file', 'file>time', 'time>proc', 'proc>time']);
  for (const v of VIEWS) {
    assert.deepEqual(parseView(v.name), [...v.dims], v.name);
    assert.equal(v.kind === 'secondary', v.dims.length > 1, v.name);
  }
  assert.equal(new Set(VIEWS.map((v) => v.name)).size, VIEWS.length);
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'trace.md'), 'utf8');
  for (const v of VIEWS) assert.ok(doc.includes(`\`${v.name}\``), `docs/trace.md names the ${v.name} view`);
  for (const d of DIMENSIONS) for (const a of d.aliases) assert.ok(doc.includes(`\`${a}\``), `docs/trace.md names the alias ${a}`);
});

/** The view context of each real trace (one thread, windows of ten base units). */
async function* realContexts(traces: readonly string[]): AsyncGenerator<{ path: string; ctx: ViewContext }> {
  const { analyzeTrace } = await import('../pipeline/trace/analyze.js');
  for (const t of traces) {
    const path = join(SHARED, 'traces', t);
    const { cube, dicts } = await analyzeTrace([path], { threads: 1, views: ['file'] });
    yield { path, ctx: new ViewContext(cube, dicts, cube.base * 10) };
  }
}

/**
 * Computes a view, and the view restricted to every `nth` record's first-dimension value, again after `change` (which
 * returns its undo): both must be equal.
 */
function sameAfter(ctx: ViewContext, name: string, nth: number, change: () => () => void, what: string): void {
  const dims = parseView(name);
  const all = computeView(ctx, dims);
  const first = all.records.filter((_, i) => i % nth === 0).map((r) => r.key[dims[0]]);
  const allowed = firstDimIds(ctx, { ...all, records: all.records.filter((r) => first.includes(r.key[dims[0]])) }, () => true);
  const some = computeView(ctx, dims, allowed);
  const undo = change();
  try {
    assert.deepEqual(computeView(ctx, dims), all, `${what} ${name}`);
    assert.deepEqual(computeView(ctx, dims, allowed), some, `${what} ${name} (restricted)`);
  } finally {
    undo();
  }
  assert.ok(all.records.length > 0 && some.records.length > 0, `${what} ${name}`);
}

test('views are the same with dense id tables and with maps (real traces, every view of up to three dimensions)', async () => {
  const traces = ['recorder/flash_sedov3d_hdf5-ranks0-3', 'darshan/wisio-tests/unet3d_a100.darshan', 'dftracer/legacy-string-fields/dftracer-test.pfw'];
  const names = [...VIEWS.map((v) => v.name), 'time>file>proc', 'proc>time>file', 'host>dir>pattern'];
  for await (const { path, ctx } of realContexts(traces)) {
    const maps = () => {
      const saved = viewTables.denseSlots;
      viewTables.denseSlots = 0;
      return () => void (viewTables.denseSlots = saved);
    };
    for (const name of names) sameAfter(ctx, name, 2, maps, path);
  }
});

/** Views sum cell by cell until the undo it returns. */
function cellByCell(): () => void {
  viewTables.byPair = false;
  return () => void (viewTables.byPair = true);
}

test('views without a time dimension are the same summed pair by pair as cell by cell (real traces, restricted too)', async () => {
  const traces = ['recorder/flash_sedov3d_hdf5-ranks0-3', 'darshan/wisio-tests/unet3d_a100.darshan', 'dftracer/cm1_1_48_20240926'];
  const names = [...VIEWS.map((v) => v.name), 'host>dir>pattern', 'app>proc>file'].filter((n) => !parseView(n).includes('time'));
  assert.ok(names.length >= 8, names.join(' '));
  for await (const { path, ctx } of realContexts(traces)) {
    assert.ok(ctx.pairSums() !== null, `${path}: counts are exact integers`);
    assert.ok(ctx.cube.cellPair.length > ctx.cube.pairProc.length, `${path}: some pairs span several cells`);
    for (const name of names) sameAfter(ctx, name, 3, cellByCell, path);
  }
});

test('counts that are not exact integers are summed cell by cell: a fractional size, counts past 2^53 together', () => {
  const fractional = EVENTS.map((e, i) => (i === 1 ? { ...e, size: 100.5 } : e));
  // a write and a read of 2^52 bytes each: each category's bytes stay below 2^53, a process's bytes over both do not
  const huge = EVENTS.map((e, i) => (i === 1 || i === 7 ? { ...e, size: 2 ** 52 } : e));
  for (const events of [fractional, huge]) {
    const { cube, dicts } = handCube(events, { fixedBase: 0.25 });
    const ctx = new ViewContext(cube, dicts, 2);
    assert.equal(ctx.pairSums(), null);
    const r = computeView(ctx, parseView('file'));
    const undo = cellByCell();
    try {
      assert.deepEqual(computeView(ctx, parseView('file')), r);
    } finally {
      undo();
    }
  }
  assert.ok(context().pairSums() !== null);
});
