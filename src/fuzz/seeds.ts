import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { DarshanLog } from '../formats/darshan/log.js';
import { synthesizeLog } from '../formats/darshan/synth.js';
import { logToInput, writeLog } from '../formats/darshan/writer.js';
import { SHARED } from '../testing/corpus.js';
import { extractTar } from '../formats/trace/readers/tar.js';
import { synthRank, writeRecorderFolder } from '../formats/trace/synth.js';
import type { FuzzInput, TargetName } from './targets.js';

/**
 * Seed inputs of every target: small logs and traces of ../shared when it is there (the product never needs it),
 * and inputs generated here, so that the fuzzer also runs on a machine without it.
 */

const DARSHAN_PICKS = [
  'mpi-io-test-ppc64-3.0.0.darshan', 'mpi-io-test-x86_64-3.1.2.darshan', 'laytonjb_test1_id28730_6-7-43012-2131301613401632697_1.darshan',
  'pq_app_write_id71303_7-31-5657-2037904274838284930_55623.darshan', 'snyders_ior-POSIX_id531897-30559_8-18-57636-5730483702862695835_1.darshan',
  'dxt.darshan', 'treddy_runtime_heatmap_inactive_ranks.darshan', 'ior-hdf5-indep-small-write-4k.darshan',
];

function bzip2(b: Uint8Array): Uint8Array | null {
  try {
    return execFileSync('bzip2', ['-9', '-c'], { input: b });
  } catch {
    return null;
  }
}

/** A LUSTRE v2 region of two records (one component each) for the generated logs. */
function lustreRegion(ids: bigint[]): Uint8Array {
  const parts = ids.map((id, k) => {
    const b = Buffer.alloc(32 + 72 + 16);
    b.writeBigUInt64LE(id, 0);
    b.writeBigInt64LE(BigInt(k - 1), 8);
    b.writeBigInt64LE(1n, 16);
    b.writeBigInt64LE(2n, 24);
    b.writeBigInt64LE(1n << 20n, 32);
    b.writeBigInt64LE(2n, 40);
    b.writeBigInt64LE(-1n, 72);
    b.writeBigInt64LE(7n, 104);
    b.writeBigInt64LE(9n, 112);
    return b;
  });
  return Buffer.concat(parts);
}

function darshanSeeds(): FuzzInput[] {
  const out: FuzzInput[] = [];
  const add = (b: Uint8Array) => out.push({ 'log.darshan': b });
  const dir = join(SHARED, 'darshan-logs');
  for (const name of DARSHAN_PICKS) {
    for (const set of ['public', 'generated']) {
      const p = join(dir, set, name);
      if (!existsSync(p) || statSync(p).size > 256 << 10) continue;
      const bytes = readFileSync(p);
      add(bytes);
      // uncompressed, so that mutations reach the record decoders directly
      try {
        const log = DarshanLog.open(p);
        if (log.header.byteOrder === 'little') add(writeLog(logToInput(log).input, { compression: 2 }));
      } catch {
        // a seed that does not read is still a seed
      }
    }
  }
  const input = synthesizeLog({ seed: 9, posixFiles: 4, sharedFiles: 1, mpiio: true, stdio: true, dxtSegments: 40, nprocs: 4 });
  const ids = [...input.names].map(([id]) => id).slice(0, 2);
  const withLustre = { ...input, modules: [...input.modules, { id: 8, raw: lustreRegion(ids), version: 2 }] };
  add(writeLog(withLustre));
  add(writeLog(withLustre, { compression: 2 }));
  const bz = bzip2(new Uint8Array(0)) ? writeLog(withLustre, { compression: 1, compress: (b) => bzip2(b)! }) : null;
  if (bz) add(bz);
  return out;
}


function readFolder(dir: string, prefix = ''): FuzzInput {
  const out: FuzzInput = {};
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) Object.assign(out, readFolder(p, `${prefix}${e.name}/`));
    else out[`${prefix}${e.name}`] = readFileSync(p);
  }
  return out;
}

function recorderSeeds(): FuzzInput[] {
  const out: FuzzInput[] = [];
  for (const [layout, tsCompression] of [['per-rank', false], ['final-2.5', true], ['final-2.5', false]] as const) {
    const dir = mkdtempSync(join(tmpdir(), 'iolens-fuzz-seed-'));
    try {
      writeRecorderFolder(dir, [synthRank(0), synthRank(1)], { layout, tsCompression });
      out.push(readFolder(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const flash = join(SHARED, 'traces', 'recorder', 'flash_sedov3d_hdf5-ranks0-3');
  if (existsSync(flash)) {
    const files: FuzzInput = {};
    for (const f of ['recorder.mt', 'VERSION', '3.cfg', '3.cst', '3.ts']) if (existsSync(join(flash, f))) files[f] = readFileSync(join(flash, f));
    out.push(files);
  }
  return out;
}

const EVENTS = [
  '[',
  '{"id":1,"name":"open64","cat":"POSIX","pid":7,"tid":7,"ts":1000,"dur":5,"ph":"X","args":{"fname":"/scratch/a","ret":3,"hostname":"n1"}}',
  '{"id":2,"name":"write","cat":"POSIX","pid":7,"tid":7,"ts":1010,"dur":50,"ph":"X","args":{"fd":3,"ret":4096,"hostname":"n1"}}',
  '{"id":3,"name":"lseek64","cat":"POSIX","pid":7,"tid":7,"ts":1070,"dur":1,"ph":"X","args":{"fd":3,"ret":0}}',
  '{"id":4,"name":"read","cat":"POSIX","pid":7,"tid":7,"ts":1080,"dur":40,"ph":"X","args":{"fd":3,"ret":4096}}',
  '{"id":5,"name":"close","cat":"POSIX","pid":7,"tid":7,"ts":1130,"dur":2,"ph":"X","args":{"fd":3}}',
  ']',
];
const GEN3 = [
  '{"id":1,"name":"FH","cat":"dftracer","pid":7,"tid":7,"ph":4,"args":{"name":"/scratch/b","value":"f1"}}',
  '{"id":2,"name":"HH","cat":"dftracer","pid":7,"tid":7,"ph":4,"args":{"name":"n2","value":"h1"}}',
  '{"id":3,"name":"read","cat":"POSIX","pid":7,"tid":7,"ts":2000,"dur":30,"ph":3,"type":3,"args":{"fhash":"f1","hhash":"h1","fd":4,"ret_sum":40960,"dft_cnt":10}}',
  '{"id":4,"name":"pwrite64","cat":"POSIX","pid":7,"tid":7,"ts":2100,"dur":30,"ph":1,"type":3,"args":{"fhash":"f1","hhash":"h1","fd":4,"ret":512,"offset":1024}}',
];

function dftracerSeeds(): FuzzInput[] {
  const out: FuzzInput[] = [{ 'trace.pfw': Buffer.from(EVENTS.join('\n') + '\n') }, { 'trace.pfw': Buffer.from(GEN3.join('\n') + '\n') }, { 'trace.pfw.gz': gzipSync(GEN3.join('\n') + '\n') }];
  const legacy = join(SHARED, 'traces', 'dftracer', 'legacy-string-fields');
  if (existsSync(legacy)) for (const f of readdirSync(legacy).sort()) if (statSync(join(legacy, f)).size < 256 << 10) out.push({ [f]: readFileSync(join(legacy, f)) });
  const cm1 = join(SHARED, 'traces', 'dftracer', 'cm1_1_48_20240926');
  if (existsSync(cm1)) {
    const first = readdirSync(cm1).sort()[0];
    const text = gunzipSync(readFileSync(join(cm1, first))).toString('utf8').split('\n').slice(0, 300).join('\n');
    out.push({ 'cm1.pfw': Buffer.from(text) });
  }
  return out;
}

/**
 * Parquet traces written by DuckDB in both page versions: version 2 pages bring the encodings the WisIO files lack
 * (DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, BYTE_STREAM_SPLIT), and a nullable column with nulls brings
 * bit-packed definition levels. Written without compression so that mutations reach the encoded values.
 */
async function duckdbParquetSeeds(): Promise<FuzzInput[]> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const dir = mkdtempSync(join(tmpdir(), 'iolens-fuzz-seed-'));
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    const out: FuzzInput[] = [];
    const rows = `SELECT (i % 4)::INTEGER AS rank, (i * 0.5)::FLOAT AS tstart, (i * 0.5 + 0.25)::FLOAT AS tend,
      (['open', 'write', 'read', 'fsync', 'close'])[i % 5 + 1] AS func_id,
      CASE WHEN i % 7 = 0 THEN NULL ELSE '/scratch/run/out.' || (i % 13)::VARCHAR || '.dat' END AS file_name,
      (i * 4096)::BIGINT AS size, (i % 3)::INTEGER AS cat, (i % 6 + 1)::INTEGER AS io_cat FROM range(300) t(i)`;
    for (const version of ['V1', 'V2']) {
      const p = join(dir, `${version}.parquet`);
      await con.run(`COPY (${rows}) TO '${p.replace(/'/g, "''")}' (FORMAT parquet, COMPRESSION uncompressed, PARQUET_VERSION ${version})`);
      out.push({ 'part.0.parquet': readFileSync(p) });
    }
    return out;
  } finally {
    con.closeSync();
    db.closeSync();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function parquetSeeds(): Promise<FuzzInput[]> {
  const written = await duckdbParquetSeeds();
  const tar = join(SHARED, 'traces', 'recorder', 'wisio-cm1-parquet', 'recorder-parquet.tar.gz');
  if (!existsSync(tar)) return written;
  const dir = mkdtempSync(join(tmpdir(), 'iolens-fuzz-seed-'));
  try {
    await extractTar(tar, dir);
    const parts: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name));
        else if (e.name.endsWith('.parquet') && statSync(join(d, e.name)).size < 192 << 10) parts.push(join(d, e.name));
      }
    };
    walk(dir);
    return [...parts.sort().slice(0, 2).map((p) => ({ 'part.0.parquet': readFileSync(p) })), ...written];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A ustar archive of a folder's files (the fuzzer's tar seeds). */
function tarOf(files: FuzzInput, top: string): Buffer {
  const parts: Buffer[] = [];
  for (const [name, data] of Object.entries(files)) {
    const h = Buffer.alloc(512);
    h.write(`${top}/${name}`, 0, 100, 'utf8');
    h.write('0000644\0', 100, 'latin1');
    h.write(data.length.toString(8).padStart(11, '0') + '\0', 124, 'latin1');
    h.write('00000000000\0', 136, 'latin1');
    h.write('0', 156, 'latin1');
    h.write('ustar\0', 257, 'latin1');
    h.write('00', 263, 'latin1');
    h.fill(32, 148, 156);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'latin1');
    parts.push(h, Buffer.from(data), Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

function tarSeeds(): FuzzInput[] {
  const rec = recorderSeeds()[0];
  const pfw = dftracerSeeds()[1];
  return [{ 'trace.tar.gz': gzipSync(tarOf(rec, 'run')) }, { 'trace.tar': tarOf(rec, 'run') }, { 'pfw.tar': tarOf(pfw, 'dft') }];
}

const RULES = `rules:
  - id: tiny-writes
    title: Tiny writes
    views: [file, "proc > file"]
    condition: write_ops >= 100 and not (read_ops > write_ops * 2)
    reasons:
      - condition: write_size_avg < 4 * KiB
        message: "{{ write_ops | int }} writes of {{ write_size_avg | bytes }} on average ({{ time | secs }})"
      - message: "{{ max(write_ops, read_ops, 1) / 2 | num }} in {{ file }} at {{ small_write_share | pct }}"
  - id: meta
    condition: contains(file, "scratch") || startswith(proc, "0") && -time < 0
    reasons:
      - condition: (1 + 2) * 3 % 4 != 0
        message: "{{ 'x' + file | num }} {{ abs(-1.5e3) + sqrt(4) + log10(100) | num }}"
`;

function ruleSeeds(): FuzzInput[] {
  return [{ 'rules.yaml': Buffer.from(RULES) }, { 'rules.yaml': Buffer.from('rules:\n  - id: a\n    reasons:\n      - message: "{{ write_ops }}"\n') }];
}

/** Model files: a small model of every family but the MLP (slow to train) on the synthetic jobs, and a two-member one. */
async function modelSeeds(): Promise<FuzzInput[]> {
  const { train } = await import('../learn/train.js');
  type TrainOptions = import('../learn/train.js').TrainOptions;
  const { serializeModel } = await import('../learn/model-file.js');
  const { SYNTHETIC_FEATURES, syntheticJobs } = await import('../learn/testing/synthetic.js');
  const { table } = syntheticJobs(80, 2);
  const base: TrainOptions = { target: 'throughput', features: SYNTHETIC_FEATURES, seed: 1, overrides: { gbdt: { maxIter: 8 }, forest: { nTrees: 4, selectionTrees: 4 } } };
  const all = await train(table, { ...base, models: ['gbdt', 'forest', 'ridge', 'poly2', 'knn'] });
  const two = await train(table, { ...base, models: ['gbdt', 'ridge'] });
  return [{ 'model.json': Buffer.from(serializeModel(all)) }, { 'model.json': Buffer.from(serializeModel(two)) }];
}

/** Raw HTTP requests to the web service (`{PORT}` becomes its port): every route, an upload of a log and of a trace. */
function httpSeeds(): FuzzInput[] {
  const req = (head: string, body: Uint8Array = new Uint8Array(0)) =>
    ({ 'request.http': Buffer.concat([Buffer.from(`${head}\r\nHost: 127.0.0.1:{PORT}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`, 'latin1'), Buffer.from(body)]) }) as FuzzInput;
  const log = writeLog(synthesizeLog({ seed: 2, posixFiles: 2, nprocs: 2, dxtSegments: 20 }));
  const pfw = dftracerSeeds()[0];
  const hash = 'a'.repeat(64);
  return [
    req('GET /api/health HTTP/1.1'),
    req('GET /api/jobs?q=ior&sort=io_time&order=desc&limit=5&offset=0 HTTP/1.1'),
    req(`GET /api/jobs/${hash} HTTP/1.1`),
    req(`GET /api/compare?base=median&other=${hash} HTTP/1.1`),
    req('GET /api/clusters?run=x HTTP/1.1'),
    req(`GET /jobs/${hash} HTTP/1.1`),
    req('GET /assets/app.css HTTP/1.1'),
    req('POST /api/reports?name=run.darshan HTTP/1.1\r\nContent-Type: application/octet-stream', log),
    req('POST /api/traces?name=t.pfw HTTP/1.1\r\nContent-Type: application/octet-stream', Object.values(pfw)[0]),
    req('POST /api/traces HTTP/1.1\r\nContent-Type: application/octet-stream\r\nX-Filename: run.tar.gz', Object.values(tarSeeds()[0])[0]),
    req(`POST /api/reports HTTP/1.1\r\nContent-Type: application/octet-stream\r\nX-Filename: ${'x'.repeat(300)}.darshan`, log),
    req('GET /api/jobs?run=x&node=1e400 HTTP/1.1'),
    req('GET /api/clusters/x/nodes/1e400 HTTP/1.1'),
  ];
}

/** Sessions of `iolens mcp`: JSON-RPC lines (initialize, the tool list, tool calls on a log and a trace, errors). */
function mcpSeeds(): FuzzInput[] {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-fuzz-mcp-seed-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const log = join(dir, 'run.darshan');
  writeFileSync(log, writeLog(synthesizeLog({ seed: 3, posixFiles: 2, nprocs: 2 })));
  const line = (id: number | string | null, method: string, params?: unknown) => JSON.stringify({ jsonrpc: '2.0', ...(id === null ? {} : { id }), method, ...(params !== undefined ? { params } : {}) });
  const init = line(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } });
  const session = (...lines: string[]) => ({ 'session.jsonl': Buffer.from(`${[init, line(null, 'notifications/initialized'), ...lines].join('\n')}\n`) }) as FuzzInput;
  const call = (id: number, name: string, args: unknown) => line(id, 'tools/call', { name, arguments: args });
  return [
    session(line(2, 'tools/list')),
    session(call(3, 'report', { path: log, all: true })),
    session(call(4, 'trace_summary', { paths: [log] })),
    session(call(5, 'compare', { base: log, others: [log] })),
    session(call(6, 'report', { path: join(dir, 'none.darshan') }), call(7, 'report', { path: 12 })),
    session('not json', JSON.stringify([JSON.parse(line(8, 'tools/list'))]), JSON.stringify({ id: 9 }), line(10, 'no/such/method')),
  ];
}

/** Every target's seeds. */
export async function loadSeeds(): Promise<Record<TargetName, FuzzInput[]>> {
  const darshan = darshanSeeds();
  const dxtOnly = darshan.filter((s) => {
    try {
      const log = DarshanLog.fromBytes(s['log.darshan']);
      return log.has('DXT_POSIX') || log.has('DXT_MPIIO');
    } catch {
      return false;
    }
  });
  return {
    darshan,
    dxt: dxtOnly.map((s) => ({ 'log.darshan': s['log.darshan'] })),
    dftracer: dftracerSeeds(),
    recorder: recorderSeeds(),
    parquet: await parquetSeeds(),
    tar: tarSeeds(),
    rules: ruleSeeds(),
    model: await modelSeeds(),
    http: httpSeeds(),
    mcp: mcpSeeds(),
  };
}

/** Writes an input as files under `dir` (a reproducer). */
export function writeInput(dir: string, input: FuzzInput): void {
  for (const [name, bytes] of Object.entries(input)) {
    const p = join(dir, name);
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(p, bytes);
  }
}

/** Reads a reproducer folder written by writeInput. */
export function readInput(dir: string): FuzzInput {
  return readFolder(dir);
}
