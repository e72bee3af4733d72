import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO_ROOT, SHARED } from './corpus.js';
import { ensureSlurm, startCluster, type SlurmCluster } from './slurm-cluster.js';
import { makeArchive } from '../store/synth-archive.js';
import { openStore } from '../store/db.js';
import { expandInputs } from '../store/walk.js';

/**
 * `npm run test:slurm`: IOLens as Slurm job arrays on a real slurmctld and slurmd (a private one-node cluster this
 * test starts and stops; Debian's slurm-wlm and munge are installed when missing). Not part of `npm test`: it
 * needs root and takes a few minutes.
 */

const BIN = join(REPO_ROOT, 'bin', 'iolens.js');
const LOGS = join(SHARED, 'darshan-logs');
const DXT_SAMPLES = join(SHARED, 'traces', 'darshan');

let cluster: SlurmCluster | null = null;
let work = '';
const unavailable = process.getuid?.() === 0 ? null : 'needs root: it installs Slurm when missing and runs slurmctld, slurmd and munged';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs iolens with the cluster's environment; `onStart` gets the child (to watch it); killed past `timeoutMs`. */
function iolens(args: readonly string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: work, env: { ...(cluster?.env ?? process.env), ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 240_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function explain(r: Run): string {
  return `status ${r.code}\n--- stderr\n${r.stderr.slice(-4000)}\n--- cluster\n${cluster?.logs() ?? ''}`;
}

before(async () => {
  if (unavailable) return;
  const why = ensureSlurm();
  if (why) throw new Error(why);
  work = mkdtempSync(join(tmpdir(), 'iolens-slurm-work-'));
  cluster = await startCluster({ cpus: 8 });
});

after(async () => {
  await cluster?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const big = (v: unknown) => (typeof v === 'bigint' ? v.toString() : v);

async function rows(db: string, sql: string): Promise<string[]> {
  const s = await openStore(db, { readOnly: true });
  try {
    return (await s.con.runAndReadAll(sql)).getRows().map((r) => JSON.stringify(r, (_k, v: unknown) => big(v)));
  } finally {
    s.close();
  }
}

test('a job array of 4 ingest tasks, one cancelled mid-way and resubmitted, gives the store one process gives', { skip: unavailable ?? false, timeout: 420_000 }, async () => {
  const arch = join(work, 'archive');
  const info = makeArchive(arch, { logs: 2500, seed: 17, duplicateEvery: 40, junkEvery: 100 });
  const inputs = [LOGS, DXT_SAMPLES, arch];
  const ref = await iolens(['ingest', ...inputs, '--db', join(work, 'one.duckdb'), '--files', '--quiet']);
  assert.equal(ref.code, 0, explain(ref));

  const db = join(work, 'all.duckdb');
  const wd = `${db}.slurm`;
  // Small commits, one line each, so that the cancel lands after some of task 1's work is committed.
  const running = iolens(['slurm', 'ingest', ...inputs, '--db', db, '--files', '--tasks', '4', '--poll', '1'], {
    env: { IOLENS_INGEST_BATCH: '50', IOLENS_INGEST_TRACE: '1' },
  });
  const log1 = join(wd, 'logs', 'task-1.log');
  const end = Date.now() + 120_000;
  let cancelled = '';
  while (Date.now() < end) {
    const text = existsSync(log1) ? readFileSync(log1, 'utf8') : '';
    if (/^committed /m.test(text) && existsSync(join(wd, 'rounds', '1.json'))) {
      const r1 = JSON.parse(readFileSync(join(wd, 'rounds', '1.json'), 'utf8')) as { array: string };
      cancelled = `${r1.array}_1`;
      const sc = await new Promise<number | null>((res) => spawn('scancel', [cancelled], { env: cluster!.env, stdio: 'ignore' }).on('close', res));
      assert.equal(sc, 0, 'scancel');
      break;
    }
    await sleep(100);
  }
  assert.ok(cancelled, 'task 1 never committed a batch');
  const run = await running;
  assert.equal(run.code, 0, explain(run));
  assert.match(run.stderr, /task 1: CANCELLED/, explain(run));
  assert.match(run.stderr, /round 2: array job \d+ \(tasks 1\)/, explain(run));
  assert.match(run.stderr, /done: .*merged 4 parts/, explain(run));
  // The second attempt resumed the part: it skipped what the cancelled one had committed.
  const resumed = /part-1\.duckdb: \d+ new jobs, \d+ duplicates, \d+ errors, (\d+) already ingested/.exec(readFileSync(log1, 'utf8'));
  assert.ok(resumed && Number(resumed[1]) > 0, `task 1 did not resume: ${readFileSync(log1, 'utf8').slice(-2000)}`);

  const one = join(work, 'one.duckdb');
  const jobs = 'SELECT * EXCLUDE (ingested_at, path) FROM jobs ORDER BY hash';
  const a = await rows(one, jobs);
  assert.ok(a.length >= info.logs, `${a.length} jobs`);
  assert.deepEqual(await rows(db, jobs), a, 'jobs rows');
  for (const sql of [
    'SELECT count(*), count(DISTINCT hash) FROM jobs',
    'SELECT * FROM files ORDER BY ALL',
    'SELECT path, file_bytes, mtime_ms, hash FROM sources ORDER BY path',
    'SELECT path, error, file_bytes, mtime_ms FROM ingest_errors ORDER BY path',
  ]) {
    assert.deepEqual(await rows(db, sql), await rows(one, sql), sql);
  }
  const [count] = await rows(db, 'SELECT count(*) FROM sources');
  assert.equal(Number(JSON.parse(count)[0]), expandInputs(inputs).length, 'every file once');
});

test('sharded trace analysis gives the report one process gives (DFTracer files, Recorder ranks, DXT records)', { skip: unavailable ?? false, timeout: 300_000 }, async () => {
  const traces = [
    [join(SHARED, 'traces', 'dftracer', 'cm1_1_48_20240926'), '--json'],
    [join(SHARED, 'traces', 'recorder', 'flash_sedov3d_hdf5-ranks0-3'), '--json'],
    [join(LOGS, 'public', 'partial_data_dxt.darshan'), '--json'],
    [join(SHARED, 'traces', 'dftracer', 'cm1_1_48_20240926'), '--csv'],
  ];
  await Promise.all(
    traces.map(async ([input, format], i) => {
      const args = [input, format, '--top', '0', '--views', 'file,proc,time,proc>file,time>proc'];
      const one = await iolens(['trace', ...args]);
      assert.equal(one.code, 0, explain(one));
      const sharded = await iolens(['slurm', 'trace', ...args, '--tasks', '4', '--poll', '1', '--workdir', join(work, `trace-${i}.slurm`)]);
      assert.equal(sharded.code, 0, explain(sharded));
      assert.ok(sharded.stdout.length > 1000);
      assert.equal(sharded.stdout, one.stdout, `${input} ${format}`);
      assert.equal(readdirSync(join(work, `trace-${i}.slurm`, 'parts')).filter((f) => f.endsWith('.cube')).length, 4);
    }),
  );
});

test('a sharded report batch prints what one process prints: one CSV header, NDJSON in input order, the same errors', { skip: unavailable ?? false, timeout: 300_000 }, async () => {
  const csvArgs = [LOGS, '--csv'];
  const list = join(work, 'list.txt');
  const logs = readdirSync(join(DXT_SAMPLES, 'aiio-paper')).filter((f) => f.endsWith('.darshan')).map((f) => join(DXT_SAMPLES, 'aiio-paper', f));
  writeFileSync(list, [...logs.slice(0, 5), join(work, 'no-such.darshan'), ...logs.slice(5)].join('\n'));
  const jsonArgs = ['--from', list, join(DXT_SAMPLES, 'wisio-tests'), '--json'];
  const [csvOne, csvSharded, jsonOne, jsonSharded] = await Promise.all([
    iolens(['report', ...csvArgs]),
    iolens(['slurm', 'report', ...csvArgs, '--tasks', '4', '--poll', '1', '--workdir', join(work, 'report-csv.slurm')]),
    iolens(['report', ...jsonArgs]),
    iolens(['slurm', 'report', ...jsonArgs, '--tasks', '5', '--poll', '1', '--out', join(work, 'report.ndjson')]),
  ]);
  assert.equal(csvOne.code, 0, explain(csvOne));
  assert.equal(csvSharded.code, 0, explain(csvSharded));
  assert.equal(csvSharded.stdout, csvOne.stdout);
  assert.equal(csvOne.stdout.split('\n').filter((l) => l.startsWith('file,JOB,')).length, 1);
  assert.equal(jsonOne.code, 2, 'one log is missing');
  assert.equal(jsonSharded.code, 2, explain(jsonSharded));
  assert.equal(readFileSync(join(work, 'report.ndjson'), 'utf8'), jsonOne.stdout);
  assert.equal(jsonSharded.stdout, '', 'with --out nothing goes to standard output');
  const missing = jsonOne.stderr.split('\n').filter((l) => l.includes('no-such.darshan'));
  assert.equal(missing.length, 1);
  assert.ok(jsonSharded.stderr.includes(missing[0]), explain(jsonSharded));
});

test('--dry-run writes the scripts and submits nothing', { skip: unavailable ?? false, timeout: 60_000 }, async () => {
  const wd = join(work, 'dry.slurm');
  const r = await iolens(['slurm', 'ingest', LOGS, '--db', join(work, 'dry.duckdb'), '--tasks', '3', '--partition', 'debug', '--time', '10:00', '--dry-run', '--workdir', wd]);
  assert.equal(r.code, 0, explain(r));
  assert.match(r.stdout, /#SBATCH --partition=debug/);
  assert.match(r.stdout, /ingest .*--shard "\$ID\/3" --db \S+\/parts\/part-"\$ID"\.duckdb/);
  assert.match(r.stdout, /--dependency="afterany:\$A"/);
  assert.deepEqual(readdirSync(join(wd, 'rounds')), []);
  assert.match(r.stderr, /^iolens slurm: dry run: wrote .* submit with: bash \S+submit\.sh/m);
  // The printed scripts run as they are: submit them by hand and follow the run.
  const sub = await new Promise<number | null>((res) => spawn('bash', [join(wd, 'submit.sh')], { env: cluster!.env, stdio: 'ignore' }).on('close', res));
  assert.equal(sub, 0);
  const st = await iolens(['slurm', 'status', wd, '--follow', '--poll', '1']);
  assert.equal(st.code, 0, explain(st));
  assert.match(st.stderr, /done: .*merged 3 parts of 159 files: 159 new jobs/);
});

test('--no-follow, cancel and resume: a cancelled run, resumed, prints what one process prints', { skip: unavailable ?? false, timeout: 180_000 }, async () => {
  const wd = join(work, 'resume.slurm');
  const args = [join(LOGS, 'generated'), '--csv'];
  const one = await iolens(['report', ...args]);
  assert.equal(one.code, 0, explain(one));
  const sub = await iolens(['slurm', 'report', ...args, '--tasks', '3', '--no-follow', '--workdir', wd]);
  assert.equal(sub.code, 0, explain(sub));
  assert.match(sub.stderr, /^iolens slurm: round 1: array job \d+ \(tasks 0-2\), merge job \d+; follow with: iolens slurm status /m);
  const cancelled = await iolens(['slurm', 'cancel', wd]);
  assert.equal(cancelled.code, 0, explain(cancelled));
  assert.match(cancelled.stderr, /^iolens slurm: cancelled 2 jobs of /m);
  const st = await iolens(['slurm', 'status', wd]);
  assert.match(st.stderr, /^iolens slurm: failed: cancelled with iolens slurm cancel$/m, explain(st));
  // scancel returns before the jobs are gone; resume refuses while any is still queued or running.
  let resumed: Run | null = null;
  for (let i = 0; i < 60; i++) {
    resumed = await iolens(['slurm', 'resume', wd, '--poll', '1']);
    if (!/still queued or running/.test(resumed.stderr)) break;
    await sleep(500);
  }
  assert.equal(resumed!.code, 0, explain(resumed!));
  assert.match(resumed!.stderr, /round 2: /);
  assert.equal(resumed!.stdout, one.stdout);
});

test('a merge job cancelled while its tasks run: the follower submits a new one once the tasks have ended', { skip: unavailable ?? false, timeout: 180_000 }, async () => {
  const wd = join(work, 'chain.slurm');
  const args = [DXT_SAMPLES, '--json'];
  const one = await iolens(['report', ...args]);
  const running = iolens(['slurm', 'report', ...args, '--tasks', '3', '--poll', '1', '--workdir', wd]);
  const r1 = join(wd, 'rounds', '1.json');
  for (let i = 0; i < 600 && !existsSync(r1); i++) await sleep(100);
  const { finish } = JSON.parse(readFileSync(r1, 'utf8')) as { finish: string };
  const sc = await new Promise<number | null>((res) => spawn('scancel', [finish], { env: cluster!.env, stdio: 'ignore' }).on('close', res));
  assert.equal(sc, 0);
  const r = await running;
  assert.equal(r.code, one.code, explain(r));
  assert.match(r.stderr, new RegExp(`merge job ${finish} ended \\(CANCELLED\\) without a result or a new round`), explain(r));
  assert.match(r.stderr, /round 2: merge job \d+/);
  assert.equal(r.stdout, one.stdout);
});
