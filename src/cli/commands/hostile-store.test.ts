import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT, SHARED } from '../../testing/corpus.js';
import { synthesizeLog } from '../../formats/darshan/synth.js';
import { writeLog } from '../../formats/darshan/writer.js';

/** The read-only store and the JSON outputs against hostile SQL and hostile names (issue 41). */

const BIN = join(REPO_ROOT, 'bin', 'iolens.js');
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
const dir = mkdtempSync(join(tmpdir(), 'iolens-hostile-store-'));
const GEN = join(SHARED, 'darshan-logs', 'generated');

test('query and --where read the store and nothing else: no file written or read, no extension, no second statement', () => {
  const db = join(dir, 'q.duckdb');
  assert.equal(cli('ingest', GEN, '--db', db, '-q').status, 0);
  const out = join(dir, 'stolen.csv');
  const refused: [string, RegExp][] = [
    [`COPY (SELECT 1) TO '${out}'`, /disabled|not allowed|Permission/i],
    [`EXPORT DATABASE '${join(dir, 'dump')}'`, /disabled|not allowed|Permission|read-only/i],
    [`SELECT * FROM read_blob('/etc/hostname')`, /disabled|not allowed|Permission/i],
    [`SELECT * FROM read_csv('${join(GEN, 'MANIFEST.md')}')`, /disabled|not allowed|Permission/i],
    ['INSTALL httpfs', /disabled|not allowed|Permission/i],
    ['SET enable_external_access = true', /lock|disabled|not allowed/i],
    [`ATTACH '${join(dir, 'other.duckdb')}'`, /disabled|not allowed|Permission|read-only/i],
  ];
  for (const [sql, why] of refused) {
    const r = cli('query', '--db', db, sql);
    assert.equal(r.status, 2, `${sql}: ${r.stdout}`);
    assert.match(r.stderr, /^iolens: query failed: /, sql);
    assert.match(r.stderr, why, `${sql}: ${r.stderr}`);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
  assert.ok(!existsSync(out) && !existsSync(join(dir, 'dump')) && !existsSync(join(dir, 'other.duckdb')), 'nothing written');
  // the store's own tables still answer
  const ok = cli('query', '--db', db, 'SELECT count(*) AS n FROM jobs', '--json');
  assert.equal(ok.status, 0, ok.stderr);
  assert.deepEqual(JSON.parse(ok.stdout), [{ n: 33 }]);
  // --where is one expression: a second statement is refused before anything runs
  const model = join(dir, 'm.json');
  const t = cli('train', '--db', db, '--models', 'ridge', '--where', `1=1); COPY (SELECT 1) TO '${out}'; SELECT (1`, '--out', model, '-q');
  assert.equal(t.status, 2, t.stdout);
  assert.match(t.stderr, /^iolens: --where 1=1\); COPY .*: one expression, not several statements\n$/);
  assert.ok(!existsSync(out) && !existsSync(model));
  // export still writes its Parquet files (its own SQL)
  const ex = cli('export', '--db', db, '--parquet', join(dir, 'parquet'));
  assert.equal(ex.status, 0, ex.stderr);
});

test('JSON outputs are terminal-safe: C1 and bidirectional controls from a log come out as \\u escapes, the same values', () => {
  // a log whose file names hold C1 (U+0085, U+009B) and bidirectional (U+202E) controls
  const input = synthesizeLog({ seed: 9, posixFiles: 2, nprocs: 2, dxtSegments: 20 });
  // (names are stored as their bytes: UTF-8, given to the writer byte by byte)
  const utf8 = Buffer.from('\u202e\u0085\u009b', 'utf8').toString('latin1');
  const names = [...input.names].map(([id, n]) => [id, n.replace(/[^/]*$/, (f) => `${utf8}${f}`)] as const);
  const path = join(dir, 'controls.darshan');
  writeFileSync(path, writeLog({ ...input, names: new Map(names) }));
  // (and a file name holding them, which compare shows as the run's name)
  const copy = join(dir, '\u202e\u0085controls-2.darshan');
  copyFileSync(path, copy);
  const raw = /[\u0080-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
  for (const args of [['report', path, '--json'], ['trace', path, '--json'], ['compare', path, copy, '--json']]) {
    const r = cli(...args);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(!raw.test(r.stdout), `${args[0]}: no raw control character`);
    assert.ok(r.stdout.includes('\\u202e'), `${args[0]}: escaped`);
    // parsed back, the names are what the log holds
    assert.ok(JSON.stringify(JSON.parse(r.stdout)).includes('\u202e\u0085'), args[0]);
  }
  const db = join(dir, 'c.duckdb');
  assert.equal(cli('ingest', path, '--db', db, '-q').status, 0);
  const q = cli('query', '--db', db, 'SELECT name FROM files LIMIT 5', '--json');
  assert.equal(q.status, 0, q.stderr);
  assert.ok(!raw.test(q.stdout));
});

test('trace, report and parse read UTF-8 file names as UTF-8 (données, not donnÃ©es)', () => {
  const input = synthesizeLog({ seed: 4, posixFiles: 2, nprocs: 2, dxtSegments: 20 });
  const dirName = Buffer.from('données', 'utf8').toString('latin1');
  const names = [...input.names].map(([id, n]) => [id, n.replace(/[^/]*$/, (f) => `${dirName}/${f}`)] as const);
  const path = join(dir, 'utf8-names.darshan');
  writeFileSync(path, writeLog({ ...input, names: new Map(names) }));
  for (const args of [['trace', path, '--json'], ['report', path, '--json'], ['parse', path, '--json']]) {
    const r = cli(...args);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(r.stdout.includes('données/'), `${args[0]}: the name as UTF-8`);
    assert.ok(!r.stdout.includes('donnÃ©es'), `${args[0]}: never as Latin-1`);
  }
});

test('a DuckDB file IOLens did not create is never written: ingest and cluster refuse it in one line', async () => {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const foreign = join(dir, 'foreign.duckdb');
  const inst = await DuckDBInstance.create(foreign);
  const con = await inst.connect();
  await con.run('CREATE TABLE jobs (id INTEGER, owner VARCHAR)');
  await con.run("INSERT INTO jobs VALUES (1, 'someone else')");
  con.closeSync();
  inst.closeSync();
  const tables = async () => {
    const i = await DuckDBInstance.create(foreign, { access_mode: 'READ_ONLY' });
    const c = await i.connect();
    try {
      return (await c.runAndReadAll("SELECT table_name FROM information_schema.tables ORDER BY table_name")).getRows().map((r) => String(r[0]));
    } finally {
      c.closeSync();
      i.closeSync();
    }
  };
  for (const args of [['ingest', join(GEN, 'ior-seq-write-1m.darshan'), '--db', foreign], ['cluster', '--db', foreign]]) {
    const r = cli(...args);
    assert.equal(r.status, 2, `${args[0]}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /is (a database IOLens did not create \(it holds jobs\): not writing to it|not an IOLens job store)/);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
  assert.deepEqual(await tables(), ['jobs']);
});

test('a disk without room: ingest and serve --write stop with one line before DuckDB writes (it aborts when a disk fills mid-write)', () => {
  const db = join(dir, 'full.duckdb');
  assert.equal(cli('ingest', join(GEN, 'ior-seq-write-1m.darshan'), '--db', db, '-q').status, 0);
  // the spare space the store keeps, set past any disk: every write is refused, as on a full one
  const full = { ...process.env, IOLENS_MIN_FREE_BYTES: String(2 ** 60) };
  const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: full });
  for (const args of [['ingest', GEN, '--db', db, '-q'], ['ingest', GEN, '--db', join(dir, 'new.duckdb'), '-q'], ['serve', '--db', db, '--write', '--port', '0']]) {
    const r = run(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /^iolens: no room to write .*: .* free, and writing to the store needs .* \(it keeps .* spare: DuckDB aborts when a disk fills mid-write\)\n$/);
  }
  assert.ok(!existsSync(join(dir, 'new.duckdb')), 'no store created');
  // the store is as it was
  const q = cli('query', '--db', db, 'SELECT count(*) AS n FROM jobs', '--json');
  assert.deepEqual(JSON.parse(q.stdout), [{ n: 1 }]);
});

test('a disk that fills after the last commit: closing the store keeps its write-ahead log, and nothing is lost', async (t) => {
  // A small file system of its own (tmpfs, 24 MiB): the test needs root's mount; elsewhere it says why it skips.
  const mnt = mkdtempSync(join(tmpdir(), 'iolens-small-fs-'));
  const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mnt], { encoding: 'utf8' });
  if (m.status !== 0) {
    t.skip(`cannot mount a small file system here: ${(m.stderr || m.error?.message || '').trim()}`);
    return;
  }
  // (the store keeps 64 MiB spare before each write: none on this small disk)
  const spareBefore = process.env.IOLENS_MIN_FREE_BYTES;
  process.env.IOLENS_MIN_FREE_BYTES = '0';
  try {
    const { openStore } = await import('../../store/db.js');
    const db = join(mnt, 's.duckdb');
    const store = await openStore(db);
    await store.con.run("SET checkpoint_threshold = '1GB'");
    await store.con.run('CREATE TABLE scratch (a VARCHAR)');
    await store.con.run("INSERT INTO scratch SELECT repeat('x', 1000) || i::VARCHAR FROM range(8000) r(i)");
    // the disk fills: the checkpoint at close cannot write the 8 MB the log holds into the database file
    const { openSync, writeSync, closeSync, rmSync, statSync } = await import('node:fs');
    const fd = openSync(join(mnt, 'filler'), 'w');
    const chunk = Buffer.alloc(1 << 20);
    let full = false;
    try {
      for (let i = 0; i < 64; i++) writeSync(fd, chunk);
    } catch (err) {
      full = (err as NodeJS.ErrnoException).code === 'ENOSPC';
    }
    closeSync(fd);
    assert.ok(full, 'the small file system filled');
    store.close();
    assert.ok(statSync(`${db}.wal`).size > 8_000_000, 'the write-ahead log is kept');
    rmSync(join(mnt, 'filler'));
    // room again: the log is replayed at the next open
    const again = await openStore(db);
    try {
      assert.deepEqual((await again.con.runAndReadAll('SELECT count(*) FROM scratch')).getRows(), [[8000n]]);
    } finally {
      again.close();
    }
  } finally {
    if (spareBefore === undefined) delete process.env.IOLENS_MIN_FREE_BYTES;
    else process.env.IOLENS_MIN_FREE_BYTES = spareBefore;
    spawnSync('umount', [mnt]);
    spawnSync('rmdir', [mnt]);
  }
});

test('a DuckDB file with a foreign iolens_meta, or IOLens stamp over tables of another shape, is refused in one line, never written', async () => {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const { SCHEMA_VERSION } = await import('../../store/schema.js');
  const make = async (file: string, sql: string[]) => {
    const inst = await DuckDBInstance.create(file);
    const con = await inst.connect();
    for (const s of sql) await con.run(s);
    con.closeSync();
    inst.closeSync();
  };
  const cases: [string, string[]][] = [
    ['meta-shape', ['CREATE TABLE iolens_meta (id INTEGER, note VARCHAR)', "INSERT INTO iolens_meta VALUES (1, 'x')"]],
    ['meta-value', ['CREATE TABLE iolens_meta (key VARCHAR, value VARCHAR)', "INSERT INTO iolens_meta VALUES ('schema_version', 'five')"]],
    ['jobs-shape', ['CREATE TABLE iolens_meta (key VARCHAR, value VARCHAR)', `INSERT INTO iolens_meta VALUES ('schema_version', '${SCHEMA_VERSION}')`, 'CREATE TABLE jobs (id INTEGER)']],
  ];
  for (const [name, sql] of cases) {
    const db = join(dir, `${name}.duckdb`);
    await make(db, sql);
    const before = readFileSync(db);
    for (const args of [['ingest', join(GEN, 'ior-seq-write-1m.darshan'), '--db', db, '-q'], ['query', '--db', db, 'SELECT 1'], ['cluster', '--db', db]]) {
      const r = cli(...args);
      assert.equal(r.status, 2, `${name} ${args[0]}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, /^iolens: .*is not an IOLens job store/, `${name} ${args[0]}`);
      assert.doesNotMatch(r.stderr, /internal error|Binder/);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
    assert.ok(readFileSync(db).equals(before), `${name}: not written`);
  }
});

test('a file name that is not UTF-8 is read, stored and shown with its bytes escaped (report, ingest, query)', () => {
  const base = join(dir, 'latin1');
  mkdirSync(base, { recursive: true });
  // donn\xe9es.darshan: the bytes a Latin-1 system writes for "données"
  const raw = Buffer.concat([Buffer.from(`${base}/donn`), Buffer.from([0xe9]), Buffer.from('es.darshan')]);
  copyFileSync(join(GEN, 'ior-seq-write-1m.darshan'), raw);
  const shown = 'donn\\xe9es.darshan';
  // (the argument's bytes as a shell passes them: Node's spawn would send UTF-8)
  const sh = (...args: string[]) =>
    spawnSync('/bin/sh', ['-c', `exec "$0" "$1" "$2" "$(printf 'donn\\351es.darshan')" "$3" "$4"`, process.execPath, BIN, ...args], { cwd: base, encoding: 'utf8', maxBuffer: 1 << 26 });
  const rep = sh('report', '--json', '--charts', '--no-color');
  assert.equal(rep.status, 0, rep.stderr);
  const report = JSON.parse(rep.stdout) as { input: { paths: string[] }; io: { ioTime: number } };
  assert.deepEqual(report.input.paths, [shown]);
  const ref = JSON.parse(cli('report', '--json', join(GEN, 'ior-seq-write-1m.darshan')).stdout) as { io: { ioTime: number } };
  assert.equal(report.io.ioTime, ref.io.ioTime);
  const db = join(dir, 'latin1.duckdb');
  const ing = cli('ingest', base, '--db', db, '-q');
  assert.equal(ing.status, 0, ing.stderr);
  const q = cli('query', '--db', db, "SELECT path, (SELECT count(*) FROM ingest_errors) AS errors FROM jobs", '--json');
  assert.equal(q.status, 0, q.stderr);
  assert.deepEqual(JSON.parse(q.stdout), [{ path: `${base}/${shown}`, errors: 0 }]);
  // the stored path names the file: a second ingest finds it unchanged
  const again = cli('ingest', base, '--db', db);
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stderr + again.stdout, /0 new jobs, 0 duplicates, 0 errors, 1 already ingested/);
});
