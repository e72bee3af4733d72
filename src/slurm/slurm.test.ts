import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, SHARED } from '../testing/corpus.js';
import { arraySpec, loadPlan, parseArraySpec, type RunPlan } from './plan.js';
import { csvRecords, mergeReportParts } from './report-parts.js';
import { finishScript, shQuote, submitScript, taskScript } from './script.js';
import { openStore } from '../store/db.js';

/**
 * The Slurm side without a scheduler: the scripts `iolens slurm … --dry-run` writes are run by hand here, as sbatch
 * would run them (SLURM_ARRAY_TASK_ID and SLURM_JOB_ID set), and the merge step runs as the merge job would. The
 * real scheduler is exercised by `npm run test:slurm` (src/testing/slurm.integration.ts).
 */

const BIN = join(REPO_ROOT, 'bin', 'iolens.js');

/** The CLI, with no Slurm to reach: a submission here fails (it must never reach a real cluster). */
function cli(args: readonly string[], cwd: string) {
  return spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, PATH: '/usr/bin:/bin', SLURM_CONF: '/nonexistent/slurm.conf' } });
}

/** Runs task `id` of a work folder's task.sh as Slurm would (job id 1000 + id + 100 × attempt, output appended to its log). */
function runTask(workdir: string, id: number, attempt = 0) {
  const log = openSync(join(workdir, 'logs', `task-${id}.log`), 'a');
  try {
    return spawnSync('bash', [join(workdir, 'task.sh')], {
      stdio: ['ignore', log, log],
      env: { ...process.env, SLURM_ARRAY_TASK_ID: String(id), SLURM_JOB_ID: String(1000 + id + 100 * attempt), SLURM_CPUS_PER_TASK: '1' },
    });
  } finally {
    closeSync(log);
  }
}

/** Records round 1 as submit.sh does after sbatch. */
function recordRound(workdir: string, tasks: string): void {
  writeFileSync(join(workdir, 'rounds', '1.json'), JSON.stringify({ round: 1, array: '900', tasks, finish: '901', submitted: Math.floor(Date.now() / 1000) }));
}

test('array specifications: ranges collapse and expand again', () => {
  assert.equal(arraySpec([0, 1, 2, 5, 7, 8]), '0-2,5,7-8');
  assert.equal(arraySpec([3]), '3');
  assert.deepEqual(parseArraySpec('0-2,5,7-8%2'), [0, 1, 2, 5, 7, 8]);
  assert.deepEqual(parseArraySpec('none'), []);
  assert.throws(() => parseArraySpec('0-2;rm'), /bad array specification/);
});

test('shell quoting survives bash for awkward words', () => {
  for (const w of ['plain/path.darshan', "it's", 'a b', '$HOME', '`x`', 'tab\there', '--views=file,proc>file', '"q"', '']) {
    const r = spawnSync('bash', ['-c', `printf '%s' ${shQuote(w)}`], { encoding: 'utf8' });
    assert.equal(r.stdout, w);
  }
});

test('the generated scripts are valid bash for every kind of run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-slurm-scripts-'));
  try {
    for (const kind of ['ingest', 'trace', 'report'] as const) {
      const plan: RunPlan = {
        version: 1,
        kind,
        createdMs: 0,
        workdir: dir,
        cwd: dir,
        node: process.execPath,
        iolens: BIN,
        iolensVersion: '0',
        tasks: 3,
        retries: 2,
        sbatch: { cpus: 2, extra: ['--qos=debug'], partition: 'batch', time: '1:00:00', account: 'proj', maxRunning: 2 },
        inputs: ["/data/it's here", '/data/b'],
        forward: ['--views=file,proc>file', '--json'],
        output: join(dir, 'out'),
        format: 'json',
      };
      for (const [name, text] of [
        ['task', taskScript(plan)],
        ['finish', finishScript(plan)],
        ['submit', submitScript(plan)],
      ]) {
        writeFileSync(join(dir, `${name}.sh`), text);
        const r = spawnSync('bash', ['-n', join(dir, `${name}.sh`)], { encoding: 'utf8' });
        assert.equal(r.status, 0, `${kind} ${name}.sh: ${r.stderr}`);
      }
      assert.match(taskScript(plan), /#SBATCH --partition=batch\n#SBATCH --time=1:00:00\n#SBATCH --account=proj\n#SBATCH --qos=debug/);
      assert.match(submitScript(plan), /--array="\$TASKS%2"/);
      assert.match(submitScript(plan), /--dependency="afterany:\$A"/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('CSV records are counted with quoted line breaks', () => {
  assert.equal(csvRecords(''), 0);
  assert.equal(csvRecords('a,b\n'), 1);
  assert.equal(csvRecords('a,b\nc,d'), 2);
  assert.equal(csvRecords('"a\nb",c\n"x""y",z\n'), 2);
});

test('report parts join into one batch: one header, compact JSON lines, every log accounted for', () => {
  const h = 'file,JOB,A\n';
  const csv = mergeReportParts(
    [
      { logs: 2, out: `${h}a,1,True\nb,2,False\n`, err: '' },
      { logs: 1, out: '', err: 'iolens: c: cannot open\n' },
      { logs: 1, out: `${h}"d\nd",4,True\n`, err: '' },
    ],
    'csv',
    4,
    h,
  );
  assert.equal(csv.output, `${h}a,1,True\nb,2,False\n"d\nd",4,True\n`);
  assert.deepEqual(csv.errors, ['iolens: c: cannot open']);
  const json = mergeReportParts(
    [
      { logs: 2, out: '{"a":1}\n{"a":2}\n', err: '' },
      { logs: 1, out: '{\n  "a": 3\n}\n', err: '' },
    ],
    'json',
    3,
    h,
  );
  assert.equal(json.output, '{"a":1}\n{"a":2}\n{"a":3}\n');
  assert.equal(mergeReportParts([{ logs: 1, out: '{\n  "a": 3\n}\n', err: '' }], 'json', 1, h).output, '{\n  "a": 3\n}\n');
  assert.throws(() => mergeReportParts([{ logs: 3, out: `${h}a,1,True\n`, err: '' }], 'csv', 3, h), /1 CSV rows for 3 readable logs/);
  assert.throws(() => mergeReportParts([{ logs: 2, out: 'x,y\n', err: '' }], 'csv', 2, h), /does not start with the batch header/);
});

test('dry run, tasks run by hand, merge step: a report batch equals one process, NDJSON and CSV', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-slurm-report-'));
  try {
    const list = join(dir, 'list.txt');
    const aiio = join(SHARED, 'traces/darshan/aiio-paper');
    writeFileSync(list, ['# logs', `${aiio}/dbin_ior_id66184525-37486_1-22-67323-16349198698853775843_1.darshan`, join(dir, 'missing.darshan'), ''].join('\n'));
    for (const fmt of ['--json', '--csv']) {
      const args = [join(SHARED, 'darshan-logs/generated'), '--from', list, fmt];
      const one = cli(['report', ...args], dir);
      const wd = join(dir, `w${fmt}.slurm`);
      const dry = cli(['slurm', 'report', ...args, '--tasks', '4', '--dry-run', '--workdir', wd], dir);
      assert.equal(dry.status, 0, dry.stderr);
      assert.match(dry.stdout, /# ==> .*task\.sh <==/);
      assert.match(dry.stderr, /^iolens slurm: dry run: wrote /);
      const plan = loadPlan(wd);
      assert.equal(plan.report!.chunks.reduce((a, n) => a + n, 0), one.stdout.split('\n').filter(Boolean).length - (fmt === '--csv' ? 1 : 0) + 1);
      for (let id = 0; id < plan.tasks; id++) assert.equal(runTask(wd, id).status, id === plan.tasks - 1 ? 2 : 0, `task ${id}`);
      recordRound(wd, '0-3');
      const fin = cli(['slurm', 'finish', wd], dir);
      assert.equal(fin.status, 0, fin.stderr);
      assert.match(fin.stderr, /done: .* of \d+ logs reported, 1 could not be read/);
      assert.equal(readFileSync(plan.output, 'utf8'), one.stdout);
      const res = JSON.parse(readFileSync(join(wd, 'result.json'), 'utf8')) as { exit: number; errors: string[] };
      assert.equal(res.exit, one.status);
      assert.deepEqual(res.errors, one.stderr.trim().split('\n'));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('ingest parts made by the task script merge into the store one process makes; a task that did not finish is resubmitted only within the retries', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-slurm-ingest-'));
  try {
    const logs = join(SHARED, 'darshan-logs/generated');
    const one = cli(['ingest', logs, '--db', join(dir, 'one.duckdb'), '-q', '--no-report'], dir);
    assert.equal(one.status, 0, one.stderr);
    const wd = join(dir, 'all.duckdb.slurm');
    const dry = cli(['slurm', 'ingest', logs, '--db', join(dir, 'all.duckdb'), '--no-report', '--tasks', '3', '--retries', '0', '--dry-run'], dir);
    assert.equal(dry.status, 0, dry.stderr);
    assert.match(readFileSync(join(wd, 'task.sh'), 'utf8'), / ingest --no-report --shard "\$ID\/3" --db /);
    assert.equal(runTask(wd, 0).status, 0);
    assert.equal(runTask(wd, 2).status, 0);
    recordRound(wd, '0-2');
    // Task 1 never ran and no retry is left: the run fails, naming it.
    const fail = cli(['slurm', 'finish', wd], dir);
    assert.equal(fail.status, 1);
    assert.match(fail.stderr, /^iolens slurm: failed: task 1 did not complete in 1 rounds/m);
    rmSync(join(wd, 'result.json'));
    assert.equal(runTask(wd, 1, 1).status, 0);
    const fin = cli(['slurm', 'finish', wd], dir);
    assert.equal(fin.status, 0, fin.stderr);
    assert.match(fin.stderr, /done: .*merged 3 parts of \d+ files/);
    const q = 'SELECT * EXCLUDE (ingested_at, path) FROM jobs ORDER BY hash';
    const read = async (db: string) => {
      const s = await openStore(db, { readOnly: true });
      try {
        return JSON.stringify((await s.con.runAndReadAll(q)).getRows(), (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
      } finally {
        s.close();
      }
    };
    assert.equal(await read(join(dir, 'all.duckdb')), await read(join(dir, 'one.duckdb')));
    // A finished run is left alone by a second merge job.
    const again = cli(['slurm', 'finish', wd], dir);
    assert.match(again.stderr, /already finished/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a merge job that cannot submit the next round leaves the run open for resume (no result)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-slurm-nosubmit-'));
  try {
    const wd = join(dir, 'w.slurm');
    const dry = cli(['slurm', 'report', join(SHARED, 'darshan-logs/generated'), '--csv', '--tasks', '2', '--dry-run', '--workdir', wd], dir);
    assert.equal(dry.status, 0, dry.stderr);
    assert.equal(runTask(wd, 0).status, 0);
    recordRound(wd, '0-1');
    const fin = cli(['slurm', 'finish', wd], dir);
    assert.equal(fin.status, 1);
    assert.match(fin.stderr, /^iolens slurm: submitting round 2 failed: .*; the run is kept: iolens slurm resume \S+ submits round 2 from a node that can$/m);
    assert.ok(!existsSync(join(wd, 'result.json')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a trace task that fails on its options fails the run at once (a rerun would fail the same way)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-slurm-trace-'));
  try {
    const trace = join(SHARED, 'traces/recorder/flash_sedov3d_hdf5-ranks0-3');
    const wd = join(dir, 'w.slurm');
    const dry = cli(['slurm', 'trace', trace, '--views', 'file,nosuch', '--tasks', '2', '--dry-run', '--workdir', wd], dir);
    assert.equal(dry.status, 0, dry.stderr);
    assert.equal(runTask(wd, 0).status, 2);
    assert.equal(runTask(wd, 1).status, 2);
    recordRound(wd, '0-1');
    const fin = cli(['slurm', 'finish', wd], dir);
    assert.equal(fin.status, 1);
    assert.match(fin.stderr, /^iolens slurm: failed: task 0 failed with status 2: iolens: --views: unknown view dimension "nosuch"/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad requests are one line and a non-zero exit, before anything is written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-slurm-bad-'));
  try {
    mkdirSync(join(dir, 'taken.slurm', 'x'), { recursive: true });
    writeFileSync(join(dir, 'taken.slurm', 'plan.json'), '{}');
    const logs = join(SHARED, 'darshan-logs/generated');
    const cases: [string[], RegExp][] = [
      [['slurm', 'ingest', logs, '--shard', '0/2', '--dry-run'], /--shard cannot be used with iolens slurm ingest/],
      [['slurm', 'ingest', join(dir, 'nothing'), '--dry-run'], /nothing: no such file or directory/],
      [['slurm', 'ingest', logs, '--tasks', '0', '--dry-run'], /--tasks takes a whole number from 1/],
      [['slurm', 'ingest', logs, '--bogus', '--dry-run'], /iolens ingest: unknown option '--bogus'/],
      [['slurm', 'ingest', logs, '--workdir', join(dir, 'taken.slurm'), '--dry-run'], /holds an earlier run/],
      [['slurm', 'ingest', logs, '--workdir', join(dir, 'a b'), '--dry-run'], /without blanks/],
      [['slurm', 'ingest', logs, '--sbatch', 'qos=x', '--dry-run'], /--sbatch takes one sbatch option/],
      [['slurm', 'ingest', logs, '--sbatch=--comment=a b', '--dry-run'], /without blanks/],
      [['slurm', 'trace', join(SHARED, 'traces/recorder/wisio-cm1-parquet/recorder-parquet.tar.gz'), '--dry-run'], /unpack the archive/],
      [['slurm', 'report', '-', '--dry-run'], /standard input cannot be shared out/],
      [['slurm', 'report', logs, '--html', '--dry-run'], /--html cannot be used with iolens slurm report/],
      [['slurm', 'status', dir], /not an IOLens Slurm work folder/],
    ];
    for (const [args, re] of cases) {
      const r = cli(args, dir);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, re);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
    assert.ok(!existsSync(join(dir, 'iolens.duckdb.slurm')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
