import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeTrace, type AnalyzeOptions } from './analyze.js';
import { DEFAULT_VIEWS } from '../../trace/view-catalogue.js';
import { defaultConfig } from '../../config/defaults.js';
import { contiguousSlices, partsCubeSource, readPartFile, writeTracePart } from './shards.js';
import { SHARED } from '../../testing/corpus.js';

const opts: AnalyzeOptions = {
  views: [...DEFAULT_VIEWS, 'proc>file', 'time>proc'],
  metric: 'iops_slope',
  top: 0,
};

/** The options with another small-request size (the small_bytes knob, --small-size). */
const withSmall = (o: AnalyzeOptions, bytes: number): AnalyzeOptions => {
  const c = o.config ?? defaultConfig();
  return { ...o, config: { ...c, knobs: { ...c.knobs, small_bytes: bytes } } };
};

/** The report of `count` shards merged, and the one-process report, as JSON text. */
async function both(paths: string[], count: number, o: AnalyzeOptions = opts): Promise<{ one: string; merged: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-shards-'));
  for (let i = 0; i < count; i++) await writeTracePart(paths, o, { index: i, count }, join(dir, `part-${i}.cube`));
  const one = JSON.stringify((await analyzeTrace(paths, { ...o, threads: 1 })).report);
  const merged = JSON.stringify((await analyzeTrace(paths, { ...o, cubeSource: partsCubeSource(dir, paths, o) })).report);
  return { one, merged, dir };
}

test('consecutive slices cover every unit once, are balanced by weight and never empty while units suffice', () => {
  const w = [5, 1, 1, 1, 9, 2, 2, 2, 2, 30, 1, 1];
  for (let count = 1; count <= 14; count++) {
    const s = contiguousSlices(w, count);
    assert.equal(s.length, count);
    assert.equal(s[0].from, 0);
    assert.equal(s[count - 1].to, w.length);
    for (let k = 1; k < count; k++) assert.equal(s[k].from, s[k - 1].to);
    if (count <= w.length) for (const x of s) assert.ok(x.to > x.from, `count ${count}: ${JSON.stringify(s)}`);
  }
  assert.deepEqual(contiguousSlices([1, 1, 1, 1, 1, 1, 1, 1], 4), [
    { from: 0, to: 2 },
    { from: 2, to: 4 },
    { from: 4, to: 6 },
    { from: 6, to: 8 },
  ]);
  // one heavy unit gets a slice of its own
  assert.deepEqual(contiguousSlices([1, 1, 100, 1, 1], 3), [
    { from: 0, to: 2 },
    { from: 2, to: 3 },
    { from: 3, to: 5 },
  ]);
  assert.deepEqual(contiguousSlices([], 2), [
    { from: 0, to: 0 },
    { from: 0, to: 0 },
  ]);
});

const CASES: [string, string[], number, AnalyzeOptions?][] = [
  ['DFTracer, 48 files in 4 shards', [join(SHARED, 'traces/dftracer/cm1_1_48_20240926')], 4],
  ['DFTracer, 48 files in 7 shards with a fixed granularity', [join(SHARED, 'traces/dftracer/cm1_1_48_20240926')], 7, { ...opts, granularity: 0.1 }],
  ['DFTracer, 3 files 20 years apart in 4 shards (one empty)', [join(SHARED, 'traces/dftracer/legacy-string-fields')], 4],
  ['Recorder, 4 ranks in 3 shards', [join(SHARED, 'traces/recorder/flash_sedov3d_hdf5-ranks0-3')], 3],
  ['Recorder, every layer, 6 shards', [join(SHARED, 'traces/recorder/flash_sedov3d_hdf5-ranks0-3')], 6, { ...opts, layers: ['all'] }],
  ['DXT records in 4 shards', [join(SHARED, 'darshan-logs/public/partial_data_dxt.darshan')], 4],
  ['DXT with POSIX and MPI-IO in one cube (read whole)', [join(SHARED, 'darshan-logs/generated/ior-mpiio-indep-small-interleaved-4k.darshan')], 3, { ...opts, layers: ['posix', 'mpiio'] }],
];

for (const [name, paths, count, o] of CASES) {
  test(`merged partial cubes give the one-process report: ${name}`, async () => {
    const r = await both(paths, count, o);
    try {
      assert.ok(r.one.length > 1000);
      assert.equal(r.merged, r.one);
    } finally {
      rmSync(r.dir, { recursive: true, force: true });
    }
  });
}

test('with no POSIX or STDIO calls anywhere, shards fall back to MPI-IO and HDF5 as one process does', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-shards-mpi-'));
  try {
    const ev = (pid: number, name: string, cat: string, ts: number, size: number) =>
      JSON.stringify({ id: String(ts), name, cat, pid, tid: pid, ts, dur: 40 + (ts % 7), ph: 'X', args: { fname: `/scratch/out-${pid % 2}.h5`, size, hostname: 'n1' } });
    // Files 0–1: MPI-IO, file 2: HDF5, file 3: neither (its shard has no MPI-IO or HDF5 call at all).
    const files: string[][] = [[], [], [], []];
    for (let i = 0; i < 60; i++) {
      files[0].push(ev(10, 'MPI_File_write_at', 'MPI', 1000 + i * 50, 4096));
      files[1].push(ev(11, 'MPI_File_read_at', 'MPI', 1200 + i * 70, 512));
      files[2].push(ev(12, 'H5Dwrite', 'HDF5', 900 + i * 40, 65536));
      files[3].push(ev(13, 'compute', 'app', 800 + i * 90, 0));
    }
    files.forEach((lines, i) => writeFileSync(join(dir, `t-${i}.pfw`), `[\n${lines.join('\n')}\n]`));
    const r = await both([dir], 4);
    try {
      assert.match(r.one, /"layers":\["MPI-IO","HDF5"\]/);
      assert.equal(r.merged, r.one);
      const parts = readdirSync(r.dir).sort().map((f) => readPartFile(join(r.dir, f)));
      assert.deepEqual(parts.map((p) => p.builds.length), [2, 2, 2, 1]);
    } finally {
      rmSync(r.dir, { recursive: true, force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('partial cubes that do not make one whole set are refused with one line', async () => {
  const paths = [join(SHARED, 'traces/recorder/flash_sedov3d_hdf5-ranks0-3')];
  const dir = mkdtempSync(join(tmpdir(), 'iolens-shards-bad-'));
  const merge = () => analyzeTrace(paths, { ...opts, cubeSource: partsCubeSource(dir, paths, opts) });
  try {
    await assert.rejects(merge(), /no partial cubes/);
    await writeTracePart(paths, opts, { index: 0, count: 3 }, join(dir, 'part-0.cube'));
    await writeTracePart(paths, opts, { index: 2, count: 3 }, join(dir, 'part-2.cube'));
    await assert.rejects(merge(), /partial cubes of shards 1 \(of 3\) are missing/);
    await writeTracePart(paths, withSmall(opts, 4096), { index: 1, count: 3 }, join(dir, 'part-1.cube'));
    await assert.rejects(merge(), /made with --small-size 4096/);
    await writeTracePart(paths, opts, { index: 1, count: 4 }, join(dir, 'part-1.cube'));
    await assert.rejects(merge(), /does not belong with shards of 3/);
    await writeTracePart(paths, opts, { index: 1, count: 3 }, join(dir, 'part-1.cube'));
    await assert.rejects(analyzeTrace([join(SHARED, 'traces/dftracer/cm1_1_48_20240926')], { ...opts, cubeSource: partsCubeSource(dir, [join(SHARED, 'traces/dftracer/cm1_1_48_20240926')], opts) }), /made from/);
    const bytes = readFileSync(join(dir, 'part-1.cube'));
    bytes[bytes.length - 100] ^= 1;
    writeFileSync(join(dir, 'part-1.cube'), bytes);
    await assert.rejects(merge(), /part-1\.cube: not a usable IOLens partial cube \(checksum mismatch/);
    writeFileSync(join(dir, 'part-1.cube'), bytes.subarray(0, 40));
    await assert.rejects(merge(), /not a usable IOLens partial cube/);
    await assert.rejects(writeTracePart([join(SHARED, 'traces/recorder/wisio-cm1-parquet/recorder-parquet.tar.gz')], opts, { index: 0, count: 2 }, join(dir, 'x.cube')), /unpack the archive/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
