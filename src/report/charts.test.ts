import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { ACCESS_SIZE_BINS, DXT_SEGMENT_CAP, FILE_SIZE_BINS } from '../contract/index.js';
import { diagnoseLog } from '../pipeline/diagnose.js';
import { pickSegments } from '../facts/dxt-segments.js';
import { corpusLogs } from '../testing/corpus.js';
import { reportSchemaErrors } from '../testing/schema.js';

// The charts section against darshan-util's own text output of the same logs (darshan-parser, darshan-dxt-parser).

const LOGS = ['dxt.darshan', 'e3sm_io_heatmap_only.darshan', 'imbalanced-io.darshan', 'ior_hdf5_example.darshan', 'example.darshan'];

interface ParserRow { module: string; rank: number; id: string; counter: string; value: number; name: string }

function parserRows(base: string): ParserRow[] {
  const text = gunzipSync(readFileSync(`${base}.parser.txt.gz`)).toString('utf8');
  const rows: ParserRow[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const f = line.split('\t');
    if (f.length < 6) continue;
    rows.push({ module: f[0], rank: Number(f[1]), id: f[2], counter: f[3], value: Number(f[4]), name: f[5] });
  }
  return rows;
}

/** Σ of a counter over records, Darshan's −1 as 0. */
const sum = (rows: ParserRow[], counter: string) => rows.filter((r) => r.counter === counter).reduce((s, r) => s + Math.max(0, r.value), 0);
/** darshan-parser prints times with 6 decimals: each of `n` summed values may be off by half a unit of the last. */
const close = (a: number, b: number, n: number, what: string) => assert.ok(Math.abs(a - b) <= 5e-7 * n + 1e-12, `${what}: ${a} vs ${b}`);
const count = (rows: ParserRow[], counter: string) => rows.filter((r) => r.counter === counter).length;

test('charts: time split, operations, access sizes and files equal sums of darshan-parser counters', () => {
  const logs = corpusLogs();
  for (const name of LOGS) {
    const log = logs.find((l) => l.name === name)!;
    const report = diagnoseLog(log.path, { charts: true });
    assert.deepEqual(reportSchemaErrors(report), [], name);
    const c = report.charts!;
    const rows = parserRows(log.base);
    const posix = c.ioTime.find((m) => m.module === 'POSIX');
    if (rows.some((r) => r.module === 'POSIX')) {
      close(posix!.read, sum(rows, 'POSIX_F_READ_TIME'), count(rows, 'POSIX_F_READ_TIME'), `${name} POSIX read time`);
      close(posix!.write, sum(rows, 'POSIX_F_WRITE_TIME'), count(rows, 'POSIX_F_WRITE_TIME'), `${name} POSIX write time`);
      close(posix!.metadata, sum(rows, 'POSIX_F_META_TIME'), count(rows, 'POSIX_F_META_TIME'), `${name} POSIX meta time`);
      const ops = Object.fromEntries(c.operations.find((m) => m.module === 'POSIX')!.ops.map((o) => [o.op, o.count]));
      assert.equal(ops.Read, sum(rows, 'POSIX_READS'), name);
      assert.equal(ops.Write, sum(rows, 'POSIX_WRITES'), name);
      assert.equal(ops.Stat, sum(rows, 'POSIX_STATS'), name);
      assert.equal(ops.Fsync, sum(rows, 'POSIX_FSYNCS') + sum(rows, 'POSIX_FDSYNCS'), name);
      const h = c.accessSizes.find((m) => m.module === 'POSIX')!;
      assert.equal(h.read.length, ACCESS_SIZE_BINS.length);
      assert.deepEqual(h.write, ['0_100', '100_1K', '1K_10K', '10K_100K', '100K_1M', '1M_4M', '4M_10M', '10M_100M', '100M_1G', '1G_PLUS'].map((b) => sum(rows, `POSIX_SIZE_WRITE_${b}`)), name);
      const files = c.files.find((m) => m.module === 'POSIX')!;
      const ids = new Set(rows.filter((r) => r.module === 'POSIX').map((r) => r.id));
      assert.equal(files.total, ids.size, `${name} POSIX files`);
      assert.equal(files.sizes.reduce((a, b) => a + b, 0), ids.size);
      assert.equal(files.sizes.length, FILE_SIZE_BINS.length);
      assert.equal(files.readOnly + files.writeOnly + files.readWrite + files.noData, ids.size);
      assert.equal(files.bytesWritten, sum(rows, 'POSIX_BYTES_WRITTEN'));
    }
    if (rows.some((r) => r.module === 'MPI-IO')) {
      const ops = Object.fromEntries(c.operations.find((m) => m.module === 'MPI-IO')!.ops.map((o) => [o.op, o.count]));
      assert.equal(ops['Col. Write'], sum(rows, 'MPIIO_COLL_WRITES'), name);
      assert.equal(ops['Ind. Read'], sum(rows, 'MPIIO_INDEP_READS'), name);
      const h = c.accessSizes.find((m) => m.module === 'MPI-IO')!;
      assert.equal(h.read.reduce((a, b) => a + b, 0), ['0_100', '100_1K', '1K_10K', '10K_100K', '100K_1M', '1M_4M', '4M_10M', '10M_100M', '100M_1G', '1G_PLUS'].reduce((s, b) => s + sum(rows, `MPIIO_SIZE_READ_AGG_${b}`), 0), name);
    }
    const heat = rows.filter((r) => r.module === 'HEATMAP');
    if (heat.length) {
      for (const layer of c.heatmap!.layers) {
        const mine = heat.filter((r) => r.name === `heatmap:${layer.layer}`);
        const read = mine.filter((r) => r.counter.startsWith('HEATMAP_READ_BIN_')).reduce((s, r) => s + r.value, 0);
        const write = mine.filter((r) => r.counter.startsWith('HEATMAP_WRITE_BIN_')).reduce((s, r) => s + r.value, 0);
        assert.equal(layer.read.reduce((a, b) => a + b, 0), read, `${name} ${layer.layer} heatmap read bytes`);
        assert.equal(layer.write.reduce((a, b) => a + b, 0), write, `${name} ${layer.layer} heatmap write bytes`);
        assert.equal(layer.matrix.flat().reduce((a, b) => a + b, 0), read + write, 'the rank matrix holds every byte');
      }
    } else assert.equal(c.heatmap, null, name);
  }
});

test('charts: DXT segments equal darshan-dxt-parser lines; without --charts the report has no charts section', () => {
  const log = corpusLogs().find((l) => l.name === 'dxt.darshan')!;
  const text = gunzipSync(readFileSync(`${log.base}.dxt.txt.gz`)).toString('utf8');
  const lines = text.split('\n').filter((l) => /^\s*X_POSIX\s/.test(l)).map((l) => l.trim().split(/\s+/));
  const report = diagnoseLog(log.path, { charts: true });
  const d = report.charts!.dxt.find((x) => x.module === 'DXT_POSIX')!;
  assert.equal(d.total, lines.length);
  assert.equal(d.shown, Math.min(lines.length, DXT_SEGMENT_CAP));
  assert.equal(d.ranks, new Set(lines.map((f) => f[1])).size);
  // Every kept segment is one of the parser's lines: rank, read/write, offset, length, start (4 decimals).
  const keys = new Set(lines.map((f) => `${f[1]} ${f[2]} ${f[4]} ${f[5]} ${f[6]}`));
  for (let i = 0; i < d.shown; i++) {
    const k = `${d.rank[i]} ${d.write[i] ? 'write' : 'read'} ${d.offset[i]} ${d.length[i]} ${d.start[i].toFixed(4)}`;
    assert.ok(keys.has(k), k);
    if (i > 0) assert.ok(d.start[i] >= d.start[i - 1], 'start-time order');
  }
  assert.equal(diagnoseLog(log.path).charts, undefined);
});

test('pickSegments: all when they fit; else the longest half and an even spread of the rest, in start order', () => {
  const start = Float64Array.from({ length: 100 }, (_, i) => i);
  const end = Float64Array.from({ length: 100 }, (_, i) => i + (i % 10 === 3 ? 5 : 0.5));
  assert.deepEqual([...pickSegments(start, end, 200)], [...Array(100).keys()]);
  const kept = [...pickSegments(start, end, 20)];
  assert.equal(kept.length, 20);
  for (const long of [3, 13, 23, 33, 43, 53, 63, 73, 83, 93]) assert.ok(kept.includes(long), `long call ${long} kept`);
  assert.deepEqual(kept, [...kept].sort((a, b) => a - b));
  const spread = kept.filter((i) => i % 10 !== 3);
  assert.equal(spread.length, 10);
  assert.ok(spread[0] < 10 && spread[9] >= 80, `spread over the run: ${spread}`);
});

test('a trace report with charts: its timeline holds every analysed call, byte and second of the trace', async () => {
  const { diagnoseTrace } = await import('../pipeline/diagnose-trace.js');
  const log = corpusLogs().find((l) => l.name === 'dxt.darshan')!;
  const report = await diagnoseTrace([log.path], { charts: true });
  assert.deepEqual(reportSchemaErrors(report), []);
  const tl = report.charts!.timeline!;
  const c = report.trace!.characteristics;
  const total = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  assert.equal(total(tl.ops), c.ops);
  assert.equal(total(tl.readBytes), c.read.bytes);
  assert.equal(total(tl.writeBytes), c.write.bytes);
  assert.ok(Math.abs(total(tl.readTime) + total(tl.writeTime) + total(tl.metadataTime) - (c.read.time + c.write.time + c.metadata.time)) < 1e-9);
  assert.equal(tl.windowSeconds, report.trace!.options.granularity);
  assert.ok(tl.start.length <= 2000 && tl.start.every((s, i) => s === i * tl.windowSeconds));
  const { charts: _c, ...plain } = report;
  assert.deepEqual(plain, await diagnoseTrace([log.path]), 'the rest of the report is unchanged');
});
