import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { corpusLogs, REPO_ROOT, SHARED } from '../testing/corpus.js';
import { synthesizeLog } from '../formats/darshan/synth.js';
import { writeLog } from '../formats/darshan/writer.js';
import { ensureSchema, openStore, schemaVersion } from './db.js';
import { exportParquet } from './export.js';
import { importFeatures } from './import-features.js';
import { ingest } from './ingest.js';
import { mergeStores } from './merge.js';
import { loadFsMetrics } from './fs-metrics.js';
import { logToRow } from './row.js';
import { loadSacct, parseElapsed, parseSacct } from './sacct.js';
import { CLUSTER_COLUMNS, CLUSTER_MEMBER_COLUMNS, CLUSTER_RUN_COLUMNS, JOB_COLUMNS, MIGRATIONS, REPORT_COLUMNS, SCHEMA_VERSION } from './schema.js';
import { buildSummary, renderSummary } from './summary.js';
import { makeArchive } from './synth-archive.js';
import { expandInputs, globToRegExp, shardOf } from './walk.js';

const BIN = join(REPO_ROOT, 'bin', 'iolens.js');

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'iolens-store-'));
}

async function q(db: string, sql: string): Promise<unknown[][]> {
  const s = await openStore(db, { readOnly: true });
  try {
    return (await s.con.runAndReadAll(sql)).getRows();
  } finally {
    s.close();
  }
}
const n = (x: unknown) => Number(x);

/** `# agg_perf_by_slowest` per module section of a stored darshan-parser --perf output. */
function perfFromText(text: string): Map<string, number> {
  const out = new Map<string, number>();
  let mod = '';
  for (const line of text.split('\n')) {
    const m = /^# (\S+) module data$/.exec(line);
    if (m) mod = m[1];
    const p = /^# agg_perf_by_slowest: (\S+) # MiB\/s$/.exec(line);
    if (p && mod) out.set(mod, Number(p[1]));
  }
  return out;
}

test('ingest of the whole shared corpus: one jobs row per log, values as darshan-parser', async () => {
  const dir = tmp();
  try {
    const logs = corpusLogs();
    assert.equal(logs.length, 180);
    const db = join(dir, 'c.duckdb');
    const st = await ingest({ db, inputs: [join(SHARED, 'darshan-logs'), join(SHARED, 'traces', 'darshan')], jobs: 2 });
    assert.deepEqual({ c: st.candidates, i: st.inserted, d: st.duplicates, e: st.errors }, { c: 180, i: 180, d: 0, e: 0 });
    const [[jobs, errors, sources, withErr]] = await q(db, `SELECT (SELECT count(*) FROM jobs), (SELECT count(*) FROM ingest_errors), (SELECT count(*) FROM sources), (SELECT count(*) FROM jobs WHERE decode_errors IS NOT NULL)`);
    assert.deepEqual([jobs, errors, sources, withErr].map(n), [180, 0, 180, 2]);
    const damaged = await q(db, `SELECT regexp_extract(path, '[^/]+$'), decode_errors FROM jobs WHERE decode_errors IS NOT NULL ORDER BY 1`);
    assert.deepEqual(damaged.map((r) => String(r[0]).slice(0, 24)), ['snyders_ior-DFS_id531897', 'snyders_ior-dfs_id529735']);
    for (const r of damaged) assert.match(String(r[1]), /^LUSTRE: LUSTRE record extends past the end of its region; HEATMAP: HEATMAP record of \d+ bins is larger than darshan-util accepts$/);
    // Every log whose --perf output has module sections: the stored estimates match to the printed precision.
    const rows = await q(db, `SELECT path, job_id, nprocs, posix_perf_mibs, mpiio_perf_mibs, stdio_perf_mibs FROM jobs`);
    const byPath = new Map(rows.map((r) => [String(r[0]), r]));
    let compared = 0;
    for (const l of logs) {
      const r = byPath.get(l.path);
      assert.ok(r, l.path);
      const perfFile = `${l.base}.perf.txt`;
      if (!existsSync(perfFile)) continue;
      const text = readFileSync(perfFile, 'latin1');
      const jobid = /^# jobid: (\d+)$/m.exec(text);
      const nprocs = /^# nprocs: (\d+)$/m.exec(text);
      if (/^# nprocs: 4427712942739450220$/m.test(text)) {
        // darshan-parser misreads this "3.41" log's older job record layout (and then prints zeroed metrics);
        // IOLens reads it as written: the job id is the one in the file name.
        assert.equal(String(r[1]), /_id(\d+)-/.exec(l.name)![1], l.name);
        assert.equal(String(r[2]), '4', l.name);
        continue;
      }
      if (jobid) assert.equal(String(r[1]), jobid[1], l.name);
      if (nprocs) assert.equal(String(r[2]), nprocs[1], l.name);
      const perf = perfFromText(text);
      for (const [mod, col] of [['POSIX', 3], ['MPI-IO', 4], ['STDIO', 5]] as const) {
        const want = perf.get(mod);
        if (want === undefined) continue;
        assert.ok(Math.abs(Number(r[col]) - want) <= 5e-7 + want * 1e-12, `${l.name} ${mod}: ${r[col]} vs ${want}`);
        compared++;
      }
    }
    assert.ok(compared >= 250, `compared ${compared}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('logToRow: exact values for a generated MPI-IO log', () => {
  const path = join(SHARED, 'darshan-logs', 'generated', 'iopat-mpiio-strided-coll-4k.darshan');
  const r = logToRow(path, { now: () => 0 });
  assert.ok(r.ok);
  const v = (name: string) => r.row[JOB_COLUMNS.findIndex((c) => c.name === name)];
  assert.equal(v('job_id'), 3048n);
  assert.equal(v('nprocs'), 4);
  assert.equal(v('app'), 'iopat');
  assert.equal(v('exe'), r.ok ? String(v('command')).split(' ')[0] : '');
  assert.deepEqual(v('modules'), ['POSIX', 'MPI-IO', 'STDIO', 'DXT_POSIX', 'DXT_MPIIO', 'HEATMAP']);
  assert.deepEqual(v('interfaces'), ['POSIX', 'MPI-IO', 'STDIO']);
  assert.equal(v('posix_bytes_written'), 16777216);
  assert.equal(v('mpiio_bytes_written'), 16777216);
  assert.equal(v('posix_files'), 1);
  assert.equal(v('aiio_nprocs'), Math.log10(5));
  assert.equal(v('aiio_posix_bytes_written'), Math.log10(16777217));
  assert.equal(v('gauge_bytes_written_perc'), 1);
  assert.equal(v('gauge_shared_files_perc'), 1);
  assert.equal(v('ingested_at'), 0);
  assert.equal(r.hash, '1ec97f731e2c5c33ef71c91e45682be036a2c3aba36054c5fe3f8c4ba5fbbc6f');
});

test('idempotent, and bad files land in ingest_errors without stopping the batch', async () => {
  const dir = tmp();
  try {
    const src = join(SHARED, 'darshan-logs', 'generated', 'iopat-meta-light.darshan');
    const arch = join(dir, 'arch', '2024', '1', '2');
    mkdirSync(arch, { recursive: true });
    copyFileSync(src, join(arch, 'a.darshan'));
    copyFileSync(src, join(arch, 'b-same-content.darshan'));
    writeFileSync(join(arch, 'not-a-log.darshan'), 'hello\n');
    writeFileSync(join(arch, 'empty.darshan'), '');
    writeFileSync(join(arch, 'truncated.darshan'), readFileSync(src).subarray(0, 600));
    writeFileSync(join(arch, 'ignored.txt'), 'not walked');
    const db = join(dir, 's.duckdb');
    const first = await ingest({ db, inputs: [join(dir, 'arch')], jobs: 0 });
    assert.deepEqual([first.candidates, first.inserted, first.duplicates, first.errors, first.skipped], [5, 1, 1, 3, 0]);
    const errs = await q(db, `SELECT regexp_extract(path, '[^/]+$'), error FROM ingest_errors ORDER BY 1`);
    assert.deepEqual(errs.map((e) => e[0]), ['empty.darshan', 'not-a-log.darshan', 'truncated.darshan']);
    for (const e of errs) assert.ok(String(e[1]).length > 0 && !String(e[1]).includes('\n'));
    const again = await ingest({ db, inputs: [join(dir, 'arch')], jobs: 0 });
    assert.deepEqual([again.inserted, again.duplicates, again.errors, again.skipped], [0, 0, 0, 5]);
    // Same content under a new path: recorded as a duplicate source, no new job.
    copyFileSync(src, join(arch, 'c.darshan'));
    const third = await ingest({ db, inputs: [join(arch, 'c.darshan')], jobs: 0 });
    assert.deepEqual([third.inserted, third.duplicates], [0, 1]);
    const [[jobs, dups, errors]] = await q(db, `SELECT (SELECT count(*) FROM jobs), (SELECT count(*) FROM sources WHERE status = 'duplicate'), (SELECT count(*) FROM ingest_errors)`);
    assert.deepEqual([jobs, dups, errors].map(n), [1, 2, 3]);
    // A file changed since it was seen is read again: its old outcome (an error) is forgotten, the rest skipped.
    writeFileSync(join(arch, 'not-a-log.darshan'), writeLog(synthesizeLog({ seed: 11, posixFiles: 2 })));
    const fourth = await ingest({ db, inputs: [join(dir, 'arch')], jobs: 0 });
    assert.deepEqual([fourth.candidates, fourth.skipped, fourth.inserted, fourth.duplicates, fourth.errors], [6, 5, 1, 0, 0]);
    const after = await q(db, `SELECT (SELECT count(*) FROM jobs), (SELECT count(*) FROM ingest_errors), (SELECT status FROM sources WHERE path LIKE '%/not-a-log.darshan')`);
    assert.deepEqual([n(after[0][0]), n(after[0][1]), after[0][2]], [2, 2, 'ingested']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a second writer on the same database is refused with one clear line', async () => {
  const dir = tmp();
  try {
    const db = join(dir, 'l.duckdb');
    const holder = await openStore(db);
    try {
      // (an open waits for the lock at most IOLENS_STORE_WAIT seconds, then fails)
      const r = spawnSync(process.execPath, [BIN, 'ingest', join(SHARED, 'darshan-logs', 'generated', 'iopat-meta-light.darshan'), '--db', db], { encoding: 'utf8', env: { ...process.env, IOLENS_STORE_WAIT: '1' } });
      assert.equal(r.status, 2);
      const lines = r.stderr.trim().split('\n');
      assert.equal(lines.length, 1);
      assert.match(lines[0], /^iolens: database .* is in use by another process \(PID \d+\)/);
    } finally {
      holder.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('schema: version stamped, migrations run in order, newer databases refused', async () => {
  const dir = tmp();
  try {
    const db = join(dir, 'm.duckdb');
    const s = await openStore(db);
    try {
      assert.equal(await schemaVersion(s.con), SCHEMA_VERSION);
      const added = await ensureSchema(s, [...MIGRATIONS, async (sql) => sql('ALTER TABLE jobs ADD COLUMN extra DOUBLE')], SCHEMA_VERSION + 1);
      assert.deepEqual(added, { from: SCHEMA_VERSION, to: SCHEMA_VERSION + 1 });
      const cols = (await s.con.runAndReadAll(`SELECT count(*) FROM information_schema.columns WHERE table_name = 'jobs' AND column_name = 'extra'`)).getRows();
      assert.equal(Number(cols[0][0]), 1);
      await assert.rejects(ensureSchema(s), /newer than this IOLens understands/);
    } finally {
      s.close();
    }
    await assert.rejects(openStore(db, { readOnly: true }), /newer than this IOLens understands/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('migration 1 -> 2: exe becomes the executable and the command line moves to command', async () => {
  const dir = tmp();
  try {
    const db = join(dir, 'v1.duckdb');
    await ingest({ db, inputs: [join(SHARED, 'darshan-logs', 'generated', 'iopat-meta-light.darshan')], jobs: 0 });
    const [[command]] = await q(db, 'SELECT command FROM jobs');
    // Turn it back into a schema 1 store: no command column, the whole command line in exe.
    const s = await openStore(db);
    try {
      await s.con.run(`UPDATE jobs SET exe = command`);
      await s.con.run('ALTER TABLE jobs DROP COLUMN command');
      await s.con.run(`UPDATE iolens_meta SET value = '1' WHERE key = 'schema_version'`);
    } finally {
      s.close();
    }
    await assert.rejects(openStore(db, { readOnly: true }), /has store schema 1; run any iolens ingest on it/);
    (await openStore(db)).close();
    const [[exe, cmd, v]] = await q(db, `SELECT exe, command, (SELECT value FROM iolens_meta WHERE key = 'schema_version') FROM jobs`);
    assert.equal(cmd, command);
    assert.equal(exe, String(command).trim().split(/\s+/)[0]);
    assert.equal(v, String(SCHEMA_VERSION));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('shards cover the archive exactly once and merge back to the single-ingest table', async () => {
  const dir = tmp();
  try {
    const arch = join(dir, 'arch');
    const info = makeArchive(arch, { logs: 150, seed: 7, duplicateEvery: 25, junkEvery: 30 });
    assert.deepEqual([info.logs, info.duplicates, info.junk], [150, 6, 5]);
    const whole = join(dir, 'whole.duckdb');
    await ingest({ db: whole, inputs: [arch], jobs: 0 });
    const parts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const p = join(dir, `part-${i}.duckdb`);
      parts.push(p);
      await ingest({ db: p, inputs: [arch], jobs: 0, shard: { index: i, count: 3 } });
    }
    const counts = await Promise.all(parts.map(async (p) => n((await q(p, 'SELECT count(*) FROM sources'))[0][0])));
    assert.equal(counts.reduce((a, b) => a + b, 0), 161);
    const merged = join(dir, 'merged.duckdb');
    const m = await mergeStores(merged, parts);
    assert.equal(m.parts, 3);
    const again = await mergeStores(merged, parts);
    assert.equal(again.jobs, 0);
    const a = await q(whole, 'SELECT hash FROM jobs ORDER BY hash');
    const b = await q(merged, 'SELECT hash FROM jobs ORDER BY hash');
    assert.equal(a.length, 150);
    assert.deepEqual(b, a);
    const [[errs, srcs]] = await q(merged, 'SELECT (SELECT count(*) FROM ingest_errors), (SELECT count(*) FROM sources)');
    assert.deepEqual([n(errs), n(srcs)], [5, 161]);
    assert.equal(shardOf('2023/1/1/x.darshan', 1), 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('walk: directories, globs, stable order', () => {
  const dir = tmp();
  try {
    for (const p of ['2024/1/2', '2024/1/10', '2023/12/31']) mkdirSync(join(dir, p), { recursive: true });
    for (const p of ['2024/1/2/b.darshan', '2024/1/2/a.darshan', '2024/1/10/c.darshan', '2023/12/31/d.darshan', '2023/12/31/e.txt']) writeFileSync(join(dir, p), 'x');
    const keys = expandInputs([dir]).map((c) => c.key);
    assert.deepEqual(keys, ['2023/12/31/d.darshan', '2024/1/10/c.darshan', '2024/1/2/a.darshan', '2024/1/2/b.darshan']);
    const g = expandInputs([join(dir, '2024', '**', '*.darshan')]).map((c) => c.path.slice(dir.length + 1));
    assert.deepEqual(g, ['2024/1/10/c.darshan', '2024/1/2/a.darshan', '2024/1/2/b.darshan']);
    assert.ok(globToRegExp('/a/*/x?.darshan').test('/a/b/x1.darshan'));
    assert.ok(!globToRegExp('/a/*/x?.darshan').test('/a/b/c/x1.darshan'));
    assert.equal(expandInputs([dir], { allFiles: true }).length, 5);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sacct --parsable2: allocations only, array and het ids, elapsed formats; joined by job id', async () => {
  assert.equal(parseElapsed('1-02:03:04'), 93784);
  assert.equal(parseElapsed('02:03:04'), 7384);
  assert.equal(parseElapsed('03:04.5'), 184.5);
  assert.equal(parseElapsed('Unknown'), null);
  const text = [
    'JobID|JobIDRaw|JobName|Partition|Account|User|NNodes|NCPUS|State|Elapsed|Start|End|ExitCode',
    '1000001|1000001|vasp|regular|m1234|alice|4|256|COMPLETED|00:10:00|2023-01-01T00:00:10|2023-01-01T00:10:10|0:0',
    '1000001.batch|1000001.batch|batch||m1234||1|64|COMPLETED|00:10:00|2023-01-01T00:00:10|2023-01-01T00:10:10|0:0',
    '1000001.0|1000001.0|vasp||m1234||4|256|COMPLETED|00:09:58|2023-01-01T00:00:11|2023-01-01T00:10:09|0:0',
    '555_3|1000002|arr|debug|m9|bob|1|32|CANCELLED by 12|1-00:00:00|2023-01-02T00:00:00|2023-01-03T00:00:00|0:15',
  ].join('\n');
  const rows = parseSacct(text);
  assert.equal(rows.length, 2);
  assert.deepEqual(rows[0].slice(0, 8), [1000001n, '1000001', 4n, 'regular', 'alice', 'm1234', 'COMPLETED', 600]);
  assert.deepEqual(rows[1].slice(0, 8), [1000002n, '555_3', 1n, 'debug', 'bob', 'm9', 'CANCELLED', 86400]);
  const dir = tmp();
  try {
    const arch = join(dir, 'arch');
    makeArchive(arch, { logs: 3, seed: 3 });
    const db = join(dir, 's.duckdb');
    await ingest({ db, inputs: [arch], jobs: 0 });
    writeFileSync(join(dir, 'sacct.txt'), text);
    assert.deepEqual(await loadSacct(db, join(dir, 'sacct.txt')), { rows: 2, matched: 2 });
    assert.deepEqual(await loadSacct(db, join(dir, 'sacct.txt')), { rows: 2, matched: 2 });
    const j = await q(db, `SELECT j.job_id, s.nodes, s.partition, s.elapsed_s FROM jobs j JOIN sacct s USING (job_id) ORDER BY 1`);
    assert.deepEqual(j.map((r) => r.map(String)), [['1000001', '4', 'regular', '600'], ['1000002', '1', 'debug', '86400']]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('fs metrics: mean and 95th percentile over each job window', async () => {
  const dir = tmp();
  try {
    const arch = join(dir, 'arch');
    makeArchive(arch, { logs: 1, seed: 5 });
    const db = join(dir, 'f.duckdb');
    await ingest({ db, inputs: [arch], jobs: 0 });
    const [[start, end]] = await q(db, 'SELECT start_epoch, end_epoch FROM jobs');
    const s = Number(start);
    const e = Number(end);
    const lines = ['timestamp,target,metric,value'];
    for (let i = 0; i <= 10; i++) lines.push(`${s + ((e - s) * i) / 10},OST000${i % 2},read_bytes_per_s,${i * 10}`);
    lines.push(`${s - 100},OST0000,read_bytes_per_s,1000`, `${e + 100},OST0001,read_bytes_per_s,1000`);
    lines.push(`${new Date(s * 1000 + 1000).toISOString()},MDT0000,opens_per_s,7`);
    writeFileSync(join(dir, 'fs.csv'), lines.join('\n') + '\n');
    const r = await loadFsMetrics(db, join(dir, 'fs.csv'));
    assert.deepEqual(r, { samples: 14, jobs: 1, rows: 2 });
    const m = await q(db, 'SELECT metric, samples, mean, p95 FROM fs_job_metrics ORDER BY metric');
    assert.deepEqual(m.map((x) => [x[0], n(x[1]), n(x[2]), n(x[3])]), [['opens_per_s', 1, 7, 7], ['read_bytes_per_s', 11, 50, 95]]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('TOKIO-ABC: import-features loads 8,080 jobs past the index-column trap and joins by job id', async () => {
  const file = join(SHARED, 'datasets', 'tokio-abc', 'cori-summaries_2017-02-14-2017-11-14.csv.gz');
  const csv = gunzipSync(readFileSync(file)).toString('utf8').split('\n').filter((l) => l !== '');
  const header = csv[0].split(',');
  const jobCol = header.indexOf('_jobid') + 1; // data rows have the extra leading index field
  const ids = [...new Set(csv.slice(1, 400).map((l) => l.split(',')[jobCol]))].slice(0, 4);
  const expectMatched = csv.slice(1).filter((l) => ids.includes(l.split(',')[jobCol])).length;
  const dir = tmp();
  try {
    // Logs of four TOKIO jobs, written with their job ids.
    const arch = join(dir, 'arch');
    mkdirSync(arch);
    ids.forEach((id, i) => writeFileSync(join(arch, `tokio-${id}.darshan`), writeLog(synthesizeLog({ seed: i + 1, jobid: Number(id), nprocs: 4 }))));
    const db = join(dir, 't.duckdb');
    await ingest({ db, inputs: [arch], jobs: 0 });
    const r = await importFeatures({ db, file, table: 'tokio' });
    assert.deepEqual(r, { table: 'features_tokio', view: 'jobs_features_tokio', rows: 8080, columns: 187, key: '_jobid', matched: expectMatched, indexColumn: true });
    const [[first, jobs, joined]] = await q(db, `SELECT (SELECT _row FROM features_tokio LIMIT 1), (SELECT count(DISTINCT _jobid) FROM jobs_features_tokio WHERE hash IS NOT NULL), (SELECT count(*) FROM jobs_features_tokio WHERE hash IS NOT NULL)`);
    assert.deepEqual([n(first), n(jobs), n(joined)], [88, 4, expectMatched]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('summary and export on a synthetic archive', async () => {
  const dir = tmp();
  try {
    const arch = join(dir, 'arch');
    makeArchive(arch, { logs: 40, seed: 11, junkEvery: 20 });
    const db = join(dir, 's.duckdb');
    await ingest({ db, inputs: [arch], jobs: 0 });
    const s = await openStore(db, { readOnly: true, external: true }) // (reads the exported Parquet files);
    try {
      const sum = await buildSummary(s.con, 5);
      assert.equal(sum.overview.jobs, 40);
      assert.equal(sum.overview.ingest_errors, 2);
      const iface = sum.sections.find((x) => x.id === 'interfaces')!;
      const posix = iface.rows.find((r) => r[0] === 'POSIX')!;
      assert.equal(posix[1], 40);
      const apps = sum.sections.find((x) => x.id === 'apps')!;
      assert.equal(apps.rows.length, 5);
      const json = JSON.parse(renderSummary(sum, 'json')) as { overview: { jobs: number } };
      assert.equal(json.overview.jobs, 40);
      assert.match(renderSummary(sum, 'md'), /^# IOLens facility summary/);
      const csv = renderSummary(sum, 'csv', 'interfaces');
      assert.match(csv, /^interface,jobs,pct_jobs\r\nPOSIX,40,100\r\n/);
      const out = await exportParquet(s.con, join(dir, 'pq'));
      const [[nInsights]] = (await s.con.runAndReadAll('SELECT count(*) FROM insights')).getRows();
      assert.ok(Number(nInsights) > 40);
      assert.deepEqual(out.map((o) => [o.table, o.rows]), [['jobs', 40], ['insights', Number(nInsights)], ['ingest_errors', 2]]);
      const ins = (await s.con.runAndReadAll(`SELECT count(*) FILTER (WHERE problem IS NOT NULL), count(*) FROM read_parquet('${join(dir, 'pq', 'insights.parquet')}')`)).getRows();
      assert.equal(Number(ins[0][1]), Number(nInsights));
      assert.ok(Number(ins[0][0]) > 0, 'insights carry their problem tag');
      // Problems count only HIGH and WARN findings (an OK 'writes are sequential' is not a random-write problem).
      const probs = sum.sections.find((x) => x.id === 'problems')!;
      const [[okRandom]] = (await s.con.runAndReadAll(`SELECT count(DISTINCT hash) FROM insights WHERE problem = 'random-write' AND level NOT IN ('HIGH', 'WARN')`)).getRows();
      assert.ok(Number(okRandom) > 0);
      const rw = probs.rows.find((r) => r[0] === 'random-write');
      const [[raised]] = (await s.con.runAndReadAll(`SELECT count(DISTINCT hash) FROM insights WHERE problem = 'random-write' AND level IN ('HIGH', 'WARN')`)).getRows();
      assert.equal(rw ? rw[1] : 0, Number(raised));
      // Human units in text: bytes and durations, never raw numbers like 591417908404375.
      const text = renderSummary(sum, 'text');
      assert.match(text, /total_bytes +\d+(\.\d+)? (B|KiB|MiB|GiB|TiB)\n/);
      assert.match(text, /io_time_s +\d+(\.\d+)? (µs|ms|s)\n|io_time_s +\d+ h \d\d min\n/);
      const back = (await s.con.runAndReadAll(`SELECT count(*), count(DISTINCT hash) FROM read_parquet('${join(dir, 'pq', 'jobs.parquet')}')`)).getRows();
      assert.deepEqual(back[0].map(Number), [40, 40]);
    } finally {
      s.close();
    }
    assert.deepEqual(readdirSync(join(dir, 'pq')).sort(), ['ingest_errors.parquet', 'insights.parquet', 'jobs.parquet']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('docs/store.md documents every jobs column and every clustering table column', () => {
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'store.md'), 'utf8');
  const missing = JOB_COLUMNS.map((c) => c.name).filter((name) => !doc.includes(`\`${name}\``));
  assert.deepEqual(missing, []);
  for (const [table, cols] of [['cluster_runs', CLUSTER_RUN_COLUMNS], ['clusters', CLUSTER_COLUMNS], ['cluster_members', CLUSTER_MEMBER_COLUMNS], ['reports', REPORT_COLUMNS]] as const) {
    const section = doc.slice(doc.indexOf(`### \`${table}\``));
    assert.ok(section.length > 0, table);
    for (const col of cols) assert.ok(section.includes(`| \`${col.name}\` | ${col.type} |`), `${table}.${col.name}`);
  }
});
