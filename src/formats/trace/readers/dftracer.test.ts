import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ChunkWriter, TableCollector, TraceDicts, Layer, Category, type EventTable } from '../model.js';
import { TraceInputError } from '../errors.js';
import { readDftracer } from './dftracer.js';
import { resolveSource } from './index.js';

const DF = '../shared/traces/dftracer';

async function read(paths: string[]): Promise<{ t: EventTable; r: Awaited<ReturnType<typeof readDftracer>> }> {
  const d = new TraceDicts();
  const col = new TableCollector();
  const r = await readDftracer(paths, new ChunkWriter(d, col.sink, 1000));
  return { t: col.table(d), r };
}

function countBy(t: EventTable, f: (i: number) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < t.length; i++) m.set(f(i), (m.get(f(i)) ?? 0) + 1);
  return m;
}

test('gen 2 (cm1, 48 gz files): event counts match the JSON lines of the trace', async () => {
  const src = resolveSource([`${DF}/cm1_1_48_20240926`]);
  assert.equal(src.format, 'dftracer');
  const files = (src as { files: string[] }).files;
  assert.equal(files.length, 48);
  const { t, r } = await read(files);
  // 316,702 JSON events (MANIFEST) = 283,945 calls + 32,661 metadata + 96 start/end
  const stats = r.details!.files as { jsonLines: number; metadata: number; lifecycle: number; events: number }[];
  assert.equal(stats.reduce((a, s) => a + s.jsonLines, 0), 316702);
  assert.equal(stats.reduce((a, s) => a + s.metadata, 0), 32661);
  assert.equal(stats.reduce((a, s) => a + s.lifecycle, 0), 96);
  assert.equal(r.events, 283945);
  assert.equal(t.length, 283945);
  const byFunc = countBy(t, (i) => t.dicts.funcs.get(t.func[i]));
  assert.equal(byFunc.get('write'), 112353);
  assert.equal(byFunc.get('__xstat'), 46899);
  assert.equal(byFunc.get('open'), 21814);
  assert.equal(byFunc.get('read'), 13489);
  const byLayer = countBy(t, (i) => String(t.layer[i]));
  assert.equal(byLayer.get(String(Layer.POSIX)), 231337);
  assert.equal(byLayer.get(String(Layer.STDIO)), 52608);
  let written = 0;
  for (let i = 0; i < t.length; i++) if (t.dicts.funcs.get(t.func[i]) === 'write') written += t.size[i];
  // sum of the non-negative `ret` of write calls (96 writes failed with ret -1)
  assert.equal(written, 721730328);
  assert.equal(t.dicts.procs.size, 48);
  assert.deepEqual(t.dicts.hosts.values, ['corona173']);
  assert.deepEqual(t.dicts.apps.values, ['cm1.exe']);
  // file names resolved through FH metadata, never left as hashes
  assert.equal(t.dicts.files.values.filter((f) => f.startsWith('<fhash:')).length, 0);
});

test('gen 1 (string-valued fields): dftracer-test.pfw, dlio .pfw.gz and the tiny graph sample', async () => {
  const a = await read([`${DF}/legacy-string-fields/dftracer-test.pfw`]);
  assert.equal(a.r.events, 1012); // 1,013 lines minus "["
  const reads = countBy(a.t, (i) => a.t.dicts.funcs.get(a.t.func[i])).get('read');
  assert.equal(reads, 1000);
  let rb = 0;
  for (let i = 0; i < a.t.length; i++) if (a.t.category[i] === Category.READ) rb += a.t.size[i];
  assert.equal(rb, 131072000);
  assert.deepEqual(a.t.dicts.hosts.values, ['corona237']);
  const b = await read([`${DF}/legacy-string-fields/dlio-test-trace.pfw.gz`]);
  assert.equal(b.r.events, 93894); // 93,895 lines minus "["
  const byLayer = countBy(b.t, (i) => String(b.t.layer[i]));
  assert.equal(byLayer.get(String(Layer.POSIX)), 88090);
  assert.equal(byLayer.get(String(Layer.OTHER)), 93894 - 88090);
  const c = await read([`${DF}/legacy-string-fields/graph-test_data1.pfw`]);
  assert.equal(c.r.events, 12);
});

test('gen 3: NDJSON, integer ph and type, hex hashes, aggregated events expanded', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-df3-'));
  const lines = [
    { name: 'HH', cat: 'dftracer', pid: 7, tid: 7, ph: 4, args: { name: 'node1', value: 'aa01' } },
    { name: 'FH', cat: 'dftracer', pid: 7, tid: 7, ph: 4, args: { name: '/data/f_001.h5', value: '0f0e' } },
    { id: 1, name: 'start', cat: 'dftracer', type: 1, pid: 7, tid: 7, ts: 1000000, dur: 0, ph: 1, args: { hhash: 'aa01' } },
    { id: 2, name: 'open64', cat: 'POSIX', type: 3, pid: 7, tid: 7, ts: 1000010, dur: 5, ph: 1, args: { hhash: 'aa01', fhash: '0f0e', ret: 3 } },
    { id: 3, name: 'write', cat: 'POSIX', type: 3, pid: 7, tid: 7, ts: 1000020, dur: 30, ph: 3, args: { hhash: 'aa01', fhash: '0f0e', fd: 3, dft_cnt: 3, ret_sum: 3072 } },
    { id: 4, name: 'fsync', cat: 'POSIX', type: 3, pid: 7, tid: 7, ts: 1000060, dur: 100, ph: 1, args: { hhash: 'aa01', fhash: '0f0e', fd: 3 } },
    { name: 'cpu', cat: 'sys', pid: 7, tid: 7, ts: 1000070, ph: 2, args: { cpu: 3 } },
  ];
  const p = join(dir, 'app-7.pfw.gz');
  writeFileSync(p, gzipSync(lines.map((l) => JSON.stringify(l)).join('\n') + '\n'));
  const { t, r } = await read([p]);
  assert.equal(r.events, 5); // open + 3 writes + fsync
  assert.deepEqual(Array.from(t.category.subarray(0, 5)), [Category.METADATA, Category.WRITE, Category.WRITE, Category.WRITE, Category.SYNC]);
  assert.deepEqual(Array.from(t.size.subarray(1, 4)), [1024, 1024, 1024]);
  assert.deepEqual(Array.from(t.offset.subarray(1, 4)), [0, 1024, 2048]);
  assert.equal(t.dicts.files.get(t.file[1]), '/data/f_001.h5');
  assert.equal(t.dicts.hosts.get(t.host[1]), 'node1');
  assert.ok(Math.abs(t.end[3] - t.start[1] - 30e-6) < 1e-9);
});

test('malformed JSON line and corrupt gzip give a TraceInputError naming the file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-dfbad-'));
  const p = join(dir, 'bad.pfw');
  writeFileSync(p, '[\n{"id":1,"name":"read","cat":"POSIX","pid":1,"tid":1,"ts":5,"dur":1,"ph":"X","args":{}}\n{"id":2,"name":\n');
  await assert.rejects(read([p]), (e: unknown) => e instanceof TraceInputError && /bad\.pfw:3: malformed JSON line/.test(e.message));
  const g = join(dir, 'bad.pfw.gz');
  const good = gzipSync(Buffer.from('{"id":1}\n'.repeat(1000)));
  writeFileSync(g, Buffer.concat([good.subarray(0, 20), Buffer.alloc(30, 7)]));
  await assert.rejects(read([g]), (e: unknown) => e instanceof TraceInputError && /bad\.pfw\.gz/.test(e.message));
});

test('file positions, file hashes and host hashes follow descriptors, streams and metadata records in order', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-dfpos-'));
  let ts = 1000;
  const ev = (name: string, args: Record<string, unknown>, cat = 'POSIX') => ({ name, cat, pid: 1, tid: 1, ts: (ts += 10), dur: 1, ph: 'X', args: { hhash: 'aa', ...args } });
  const meta = (name: string, value: string, s: string) => ({ name, cat: 'dftracer', pid: 1, tid: 1, ph: 'M', args: { name: s, value } });
  const lines = [
    meta('HH', 'aa', 'node1'),
    meta('FH', 'f1', '/d/a'),
    meta('FH', 'f2', '/d/b'),
    ev('open64', { fhash: 'f1', ret: 3 }),
    ev('open64', { fhash: 'f2', ret: 4 }),
    ev('write', { fhash: 'f1', fd: 3, ret: 100 }),
    ev('write', { fhash: 'f2', fd: 4, ret: 10 }),
    ev('write', { fhash: 'f1', fd: 3, ret: 100 }),
    ev('lseek64', { fhash: 'f1', fd: 3, ret: 1000 }),
    ev('read', { fhash: 'f1', fd: 3, ret: 50 }),
    ev('close', { fhash: 'f1', fd: 3 }),
    ev('write', { fhash: 'f1', fd: 3, ret: 5 }), // closed: no position
    ev('open', { fhash: 'f2', ret: 3 }), // descriptor 3 again, another file
    ev('write', { fhash: 'f2', fd: 3, ret: 7 }),
    ev('write', { fhash: 'f1', fd: 4, ret: 10 }),
    meta('FH', 'f1', '/d/c'), // the hash names another file from here on
    ev('write', { fhash: 'f1', fd: 4, ret: 1 }),
    meta('HH', 'aa', 'node2'),
    ev('write', { fhash: 'f1', fd: 4, ret: 1 }),
    ev('fopen', { fhash: 'f2', ret: 1 }, 'STDIO'),
    ev('fwrite', { fhash: 'f2', size: 4, ret: 2 }, 'STDIO'),
    ev('fwrite', { fhash: 'f2', size: 4, ret: 2 }, 'STDIO'),
    ev('fclose', { fhash: 'f2' }, 'STDIO'),
    ev('fwrite', { fhash: 'f2', size: 4, ret: 2 }, 'STDIO'), // closed stream
  ];
  const p = join(dir, 'app-1.pfw');
  writeFileSync(p, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const { t } = await read([p]);
  const rows = Array.from({ length: t.length }, (_, i) => [t.dicts.funcs.get(t.func[i]), t.dicts.files.get(t.file[i]), t.dicts.hosts.get(t.host[i]), t.offset[i], t.size[i]]);
  assert.deepEqual(rows, [
    ['open64', '/d/a', 'node1', -1, -1],
    ['open64', '/d/b', 'node1', -1, -1],
    ['write', '/d/a', 'node1', 0, 100],
    ['write', '/d/b', 'node1', 0, 10],
    ['write', '/d/a', 'node1', 100, 100],
    ['lseek64', '/d/a', 'node1', -1, -1],
    ['read', '/d/a', 'node1', 1000, 50],
    ['close', '/d/a', 'node1', -1, -1],
    ['write', '/d/a', 'node1', -1, 5],
    ['open', '/d/b', 'node1', -1, -1],
    ['write', '/d/b', 'node1', 0, 7],
    ['write', '/d/a', 'node1', 10, 10],
    ['write', '/d/c', 'node1', 20, 1],
    ['write', '/d/c', 'node2', 21, 1],
    ['fopen', '/d/b', 'node2', -1, -1],
    ['fwrite', '/d/b', 'node2', 0, 8],
    ['fwrite', '/d/b', 'node2', 8, 8],
    ['fclose', '/d/b', 'node2', -1, -1],
    ['fwrite', '/d/b', 'node2', -1, 8],
  ]);
});
