import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, SHARED } from '../testing/corpus.js';
import { synthesizeLog } from '../formats/darshan/synth.js';
import { writeLog } from '../formats/darshan/writer.js';
import { openStore } from './db.js';
import { ingest } from './ingest.js';
import { loadFsMetrics } from './fs-metrics.js';

const PUBLIC = join(SHARED, 'darshan-logs', 'public');

test('storage targets in a real store: per-OST rows per job, slow OSTs over time, server metrics beside them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-targets-'));
  try {
    const db = join(dir, 'jobs.duckdb');
    // Two synthetic jobs in the same hour with OST 5 slow (file per process, 10 files per OST), one healthy.
    const synth = (name: string, seed: number, slowOsts: number[]) => {
      const p = join(dir, name);
      writeFileSync(p, writeLog(synthesizeLog({ seed, posixFiles: 240, sharedFiles: 0, nprocs: 240, lustreOsts: 24, accessBytes: 1 << 24, slowOsts, startTime: 1_700_000_000 + seed, jobid: seed })));
      return p;
    };
    const inputs = [join(PUBLIC, 'sample-badost.darshan'), join(PUBLIC, 'sample-goodost.darshan'), synth('a.darshan', 1, [5]), synth('b.darshan', 2, [5]), synth('c.darshan', 3, [])];
    await ingest({ db, inputs, jobs: 0 });
    const s = await openStore(db);
    try {
      const q = async (sql: string) => (await s.con.runAndReadAll(sql)).getRowObjectsJson();
      // One row per job and OST: 24 OSTs in each of the five jobs.
      const perJob = await q(`SELECT app, count(*) AS osts, count(*) FILTER (WHERE slow) AS slow FROM targets GROUP BY hash, app ORDER BY app, slow`);
      assert.deepEqual(perJob.map((r) => [r.app, Number(r.osts), Number(r.slow)]), [['ior', 24, 0], ['ior', 24, 1], ['synth_app', 24, 0], ['synth_app', 24, 1], ['synth_app', 24, 1]]);
      const [bad] = await q(`SELECT fs, ost, files, mibs, median_file_mibs, waited_s FROM targets WHERE slow AND app = 'ior'`);
      assert.equal(bad.fs, '/scratch1');
      assert.equal(Number(bad.ost), 14);
      assert.equal(Number(bad.files), 85);
      assert.ok(Number(bad.median_file_mibs) > 0.45 && Number(bad.median_file_mibs) < 0.55, String(bad.median_file_mibs));
      assert.ok(Number(bad.waited_s) > 700 && Number(bad.waited_s) < 800, String(bad.waited_s));
    } finally {
      s.close();
    }
    // Server-side metrics per OST over the jobs' windows (LMT-style names: OST index in hex).
    const csv = join(dir, 'fs.csv');
    writeFileSync(csv, 'timestamp,target,metric,value\n1497981000,snx11025-OST000e,oss_cpu,97.5\n1497981100,snx11025-OST000e,oss_cpu,95.5\n1497981000,snx11025-OST0003,oss_cpu,20\n');
    await loadFsMetrics(db, csv, { perTarget: true });
    // The facility view through the CLI: slow OSTs by hour, ranked by job-seconds lost.
    const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'summary', '--db', db, '--json', '--section', 'targets'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const rows = (JSON.parse(r.stdout) as { targets: { rows: Record<string, unknown>[] } }).targets.rows;
    assert.deepEqual(rows.map((x) => [x.fs, x.ost, x.jobs, x.slow_jobs, x.server_metrics]), [
      ['/scratch1', 14, 1, 1, 'oss_cpu=96.5'],
      ['/lustre/scratch', 5, 3, 2, null],
    ]);
    assert.equal(rows[1].hour, '2023-11-14 22:00');
    // `iolens query` reads the same view.
    const qr = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'query', '--db', db, '--csv', "SELECT ost, count(*) AS jobs FROM targets WHERE slow GROUP BY ost ORDER BY ost"], { encoding: 'utf8' });
    assert.equal(qr.status, 0, qr.stderr);
    assert.deepEqual(qr.stdout.trim().split(/\r?\n/), ['ost,jobs', '5,2', '14,1']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
