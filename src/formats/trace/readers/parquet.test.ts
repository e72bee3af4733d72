import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { SHARED } from '../../../testing/corpus.js';
import { analyzeTrace } from '../../../pipeline/trace/analyze.js';
import { TraceInputError } from '../errors.js';
import { Category, ChunkWriter, Layer, TableCollector, TraceDicts, type EventTable } from '../model.js';
import { resolveSource } from './index.js';
import { readRecorderParquet, type ParquetFileStats } from './parquet.js';
import { extractToTemp } from './tar.js';

const TARBALL = join(SHARED, 'traces/recorder/wisio-cm1-parquet/recorder-parquet.tar.gz');

async function readDir(dir: string): Promise<{ t: EventTable; r: Awaited<ReturnType<typeof readRecorderParquet>> }> {
  const src = resolveSource([dir]);
  assert.equal(src.format, 'recorder-parquet');
  const s = src as { files: string[]; dir: string | null };
  const d = new TraceDicts();
  const col = new TableCollector();
  const r = await readRecorderParquet(s.files, s.dir, new ChunkWriter(d, col.sink, 5000));
  return { t: col.table(d), r };
}

function ab(path: string): ArrayBuffer {
  const b = readFileSync(path);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
}

test('WisIO recorder-parquet sample: every row read, counts agree with _metadata and global.json', async () => {
  const tmp = await extractToTemp(TARBALL);
  try {
    assert.deepEqual(readdirSync(tmp.dir).sort(), ['_common_metadata', '_metadata', 'global.json', ...Array.from({ length: 8 }, (_, i) => `part.${i}.parquet`)]);
    const { t, r } = await readDir(tmp.dir);
    const files = r.details!.files as ParquetFileStats[];
    assert.deepEqual(files.map((f) => f.path), Array.from({ length: 8 }, (_, i) => `part.${i}.parquet`));
    assert.deepEqual(files.map((f) => f.rows), [16444, 1574, 1572, 1583, 1573, 1570, 1570, 1577]);
    // the Dask summary file, read independently: 8 row groups whose counts are the parts' counts
    const summary = parquetMetadata(ab(join(tmp.dir, '_metadata')));
    assert.equal(Number(summary.num_rows), 27463);
    assert.deepEqual(summary.row_groups.map((g) => [g.columns[0].file_path, Number(g.num_rows)]), files.map((f) => [f.path, f.rows]));
    assert.equal(r.details!.metadataRows, 27463);
    assert.equal(r.events, 27463);
    assert.equal(t.length, 27463);
    assert.equal(r.sources, 8);
    assert.deepEqual(r.warnings, []);
    // global.json's id ranges (64-bit, compared as text) are the ranges over all parts
    const g = readFileSync(join(tmp.dir, 'global.json'), 'utf8');
    assert.equal(g, '{"file_id":[-9210576409139474804,9214005169356689175],"proc_id":[-929352282003150188,-929352281919329644],"tmid":[0,6683055996]}');
    let fmin = files[0].ids!.file_id[0];
    let fmax = files[0].ids!.file_id[1];
    let pmin = files[0].ids!.proc_id[0];
    let pmax = files[0].ids!.proc_id[1];
    for (const f of files) {
      if (BigInt(f.ids!.file_id[0]) < BigInt(fmin)) fmin = f.ids!.file_id[0];
      if (BigInt(f.ids!.file_id[1]) > BigInt(fmax)) fmax = f.ids!.file_id[1];
      if (BigInt(f.ids!.proc_id[0]) < BigInt(pmin)) pmin = f.ids!.proc_id[0];
      if (BigInt(f.ids!.proc_id[1]) > BigInt(pmax)) pmax = f.ids!.proc_id[1];
    }
    assert.deepEqual([fmin, fmax, pmin, pmax], ['-9210576409139474804', '9214005169356689175', '-929352282003150188', '-929352281919329644']);

    const byFunc = new Map<string, number>();
    for (let i = 0; i < t.length; i++) byFunc.set(t.dicts.funcs.get(t.func[i]), (byFunc.get(t.dicts.funcs.get(t.func[i])) ?? 0) + 1);
    assert.deepEqual([...byFunc].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)), [
      ['__xstat', 5925], ['__fxstat', 5685], ['close', 4646], ['open', 4646], ['write', 2303], ['lseek', 1854], ['read', 1282], ['ftruncate', 1122],
    ]);
    const byCat = [0, 0, 0, 0, 0];
    const byLayer = [0, 0, 0, 0, 0];
    for (let i = 0; i < t.length; i++) {
      byCat[t.category[i]]++;
      byLayer[t.layer[i]]++;
    }
    assert.deepEqual(byCat, [1282, 2303, 23878, 0, 0]); // io_cat 1 / 2 / 3
    assert.deepEqual(byLayer, [27463, 0, 0, 0, 0]); // cat 0 = POSIX, no stdio names
    assert.equal(t.dicts.procs.size, 1280);
    assert.equal(t.dicts.files.size, 775);
    assert.deepEqual(t.dicts.hosts.values, ['localhost']);
    assert.deepEqual(t.dicts.apps.values, ['app1']);

    // row-for-row identity with hyparquet's own object decoding of the same parts
    let i = 0;
    let readBytes = 0;
    let writeBytes = 0;
    for (const f of files) {
      const rows = await parquetReadObjects({ file: ab(join(tmp.dir, f.path)), columns: ['rank', 'func_id', 'file_name', 'tstart', 'tend', 'size', 'io_cat'] });
      for (const row of rows) {
        assert.equal(t.dicts.procs.get(t.proc[i]), String(row.rank));
        assert.equal(t.dicts.funcs.get(t.func[i]), row.func_id);
        assert.equal(t.dicts.files.get(t.file[i]), row.file_name);
        assert.equal(t.start[i], row.tstart);
        assert.equal(t.end[i], row.tend);
        assert.equal(t.offset[i], -1);
        assert.equal(t.size[i], row.io_cat === 1 || row.io_cat === 2 ? Number(row.size) : -1);
        if (row.io_cat === 1) readBytes += Number(row.size);
        if (row.io_cat === 2) writeBytes += Number(row.size);
        i++;
      }
    }
    assert.equal(i, 27463);
    assert.equal(readBytes, 21508390912); // 1,282 reads of 16 MiB (WisIO stores the requested size); both sums also from DuckDB over the parts
    assert.equal(writeBytes, 1230852944);
  } finally {
    tmp.cleanup();
  }
  assert.equal(existsSync(tmp.dir), false);
});

const opts = { top: 0 };

test('iolens trace on the .tar.gz equals iolens trace on the unpacked folder; the temp folder is removed', async () => {
  const before = readdirSync(tmpdir()).filter((n) => n.startsWith('iolens-trace-')).length;
  const fromTar = (await analyzeTrace([TARBALL], opts)).report;
  assert.equal(readdirSync(tmpdir()).filter((n) => n.startsWith('iolens-trace-')).length, before);
  const tmp = await extractToTemp(TARBALL);
  try {
    const fromDir = (await analyzeTrace([tmp.dir], opts)).report;
    const given = (r: typeof fromTar) => ({ ...r, input: { ...r.input, paths: [] }, job: { ...r.job, logName: '' } });
    assert.deepEqual(given(fromTar), given(fromDir));
    assert.equal(fromTar.job.logName, 'recorder-parquet.tar.gz');
    // and single .parquet paths resolve to the same reader
    const one = resolveSource([join(tmp.dir, 'part.1.parquet'), join(tmp.dir, 'part.0.parquet')]);
    assert.deepEqual(one, { format: 'recorder-parquet', dir: null, files: [join(tmp.dir, 'part.1.parquet'), join(tmp.dir, 'part.0.parquet')] });
  } finally {
    tmp.cleanup();
  }
  assert.equal(fromTar.input.format, 'recorder-parquet');
  assert.equal(fromTar.input.events, 27463);
  const t = fromTar.trace!;
  assert.equal(t.characteristics.processes, 1280);
  assert.equal(t.characteristics.files, 775);
  assert.equal(t.characteristics.ops, 27463);
  assert.equal(t.characteristics.read.ops, 1282);
  assert.equal(t.characteristics.write.ops, 2303);
  assert.equal(t.characteristics.metadata.ops, 23878);
  assert.equal(t.characteristics.bytes, 21508390912 + 1230852944);
  const file = t.views.find((v) => v.name === 'file')!;
  assert.equal(file.records, 775);
  const proc = t.views.find((v) => v.name === 'proc')!;
  assert.equal(proc.records, 1280);
});

test("Recorder's own converter layout (rank, thread, tstart, tend, func_id, arg0…), zstd and gzip pages", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-pq-'));
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    const values = [
      `(0, 0, 0.5::FLOAT, 0.75::FLOAT, 'open', '/data/a.dat', '66')`,
      `(0, 0, 1.0::FLOAT, 1.25::FLOAT, 'write', '/data/a.dat', '%p')`,
      `(0, 0, 1.5::FLOAT, 2.0::FLOAT, 'fsync', '/data/a.dat', NULL)`,
      `(1, 0, 0.25::FLOAT, 0.5::FLOAT, 'MPI_Barrier', '???', NULL)`,
      `(1, 0, 0.5::FLOAT, 0.625::FLOAT, 'fopen', '/data/b.txt', 'r')`,
    ].join(', ');
    for (const [name, codec] of [['part.0.parquet', 'zstd'], ['part.1.parquet', 'gzip']] as const) {
      const out = join(dir, name).replace(/'/g, "''");
      await con.run(`COPY (SELECT * FROM (VALUES ${values}) v(rank, thread, tstart, tend, func_id, arg0, arg1)) TO '${out}' (FORMAT parquet, COMPRESSION ${codec})`);
    }
    const { t, r } = await readDir(dir);
    assert.equal(r.events, 10);
    assert.deepEqual(r.warnings, []);
    const names = Array.from({ length: 5 }, (_, i) => t.dicts.funcs.get(t.func[i]));
    assert.deepEqual(names, ['open', 'write', 'fsync', 'MPI_Barrier', 'fopen']);
    assert.deepEqual(Array.from(t.layer.subarray(0, 5)), [Layer.POSIX, Layer.POSIX, Layer.POSIX, Layer.OTHER, Layer.STDIO]);
    assert.deepEqual(Array.from(t.category.subarray(0, 5)), [Category.METADATA, Category.WRITE, Category.SYNC, Category.OTHER, Category.METADATA]);
    assert.deepEqual(Array.from(t.file.subarray(0, 5), (f) => (f < 0 ? null : t.dicts.files.get(f))), ['/data/a.dat', '/data/a.dat', '/data/a.dat', null, '/data/b.txt']);
    assert.deepEqual(Array.from(t.start.subarray(5, 10)), [0.5, 1, 1.5, 0.25, 0.5]);
    assert.deepEqual(Array.from(t.end.subarray(5, 10)), [0.75, 1.25, 2, 0.5, 0.625]);
    assert.deepEqual(t.dicts.procs.values, ['0', '1']);
    // a Parquet file without func_id is refused with a one-line input error
    const bad = join(dir, 'bad');
    rmSync(join(dir, 'part.0.parquet'));
    await con.run(`COPY (SELECT 1 AS x) TO '${join(dir, 'part.0.parquet').replace(/'/g, "''")}' (FORMAT parquet)`);
    await assert.rejects(readDir(dir), (e: unknown) => e instanceof TraceInputError && /part\.0\.parquet: no "func_id" column/.test(e.message));
    writeFileSync(join(dir, 'part.0.parquet'), 'not parquet at all');
    await assert.rejects(readDir(dir), (e: unknown) => e instanceof TraceInputError && /part\.0\.parquet: not a Parquet file/.test(e.message));
    assert.equal(existsSync(bad), false);
  } finally {
    con.closeSync();
    db.closeSync();
    rmSync(dir, { recursive: true, force: true });
  }
});
