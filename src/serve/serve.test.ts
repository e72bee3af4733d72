import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { once } from 'node:events';
import { synthesizeLog } from '../formats/darshan/synth.js';
import { writeLog } from '../formats/darshan/writer.js';
import { diagnoseLog } from '../pipeline/diagnose.js';
import { ingest } from '../store/ingest.js';
import { openStore } from '../store/db.js';
import { makeArchive } from '../store/synth-archive.js';
import { plain } from '../store/values.js';
import { saveBundle } from '../models/index.js';
import { corpusLogs, REPO_ROOT } from '../testing/corpus.js';
import { reportSchemaErrors } from '../testing/schema.js';
import { startServer, type ServeOptions, type Server } from './app.js';
import { prepareStore } from './sample.js';

const BIN = join(REPO_ROOT, 'bin', 'iolens.js');
const SAMPLE = corpusLogs().find((l) => l.name === 'ior-hdf5-indep-small-write-4k.darshan')!.path;
const tmp = () => mkdtempSync(join(tmpdir(), 'iolens-serve-'));

async function withServer<T>(opts: ServeOptions, fn: (s: Server) => Promise<T>): Promise<T> {
  const s = await startServer({ port: 0, threads: 2, ...opts });
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

async function post(s: Server, bytes: Uint8Array | string, name?: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown>; text: string; headers: Headers }> {
  const r = await fetch(`${s.url}/api/reports${name ? `?name=${encodeURIComponent(name)}` : ''}`, { method: 'POST', body: bytes, headers: { 'content-type': 'application/octet-stream', ...headers } });
  const text = await r.text();
  return { status: r.status, body: JSON.parse(text) as Record<string, unknown>, text, headers: r.headers };
}

const get = async (s: Server, path: string) => {
  const r = await fetch(`${s.url}${path}`);
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};

async function rows(db: string, sql: string): Promise<Record<string, unknown>[]> {
  const st = await openStore(db, { readOnly: true });
  try {
    const r = await st.con.runAndReadAll(sql);
    const names = r.columnNames();
    return r.getRows().map((row) => Object.fromEntries(row.map((v, i) => [names[i], plain(v)])));
  } finally {
    st.close();
  }
}

test('POST /api/reports answers what iolens report --json --charts prints, stores what iolens ingest writes, idempotently', async () => {
  const dir = tmp();
  try {
    const db = join(dir, 'up.duckdb');
    const name = basename(SAMPLE);
    await withServer({ db, write: true }, async (s) => {
      const first = await post(s, readFileSync(SAMPLE), name);
      assert.equal(first.status, 201);
      assert.equal(first.headers.get('location'), first.body.url);
      assert.match(String(first.body.url), /^\/jobs\/[0-9a-f]{64}$/);
      assert.deepEqual([first.body.stored, first.body.new], [true, true]);
      const cli = spawnSync(process.execPath, [BIN, 'report', name, '--json', '--charts'], { cwd: dirname(SAMPLE), encoding: 'utf8', maxBuffer: 1 << 26 });
      assert.equal(cli.status, 0, cli.stderr);
      assert.deepEqual(first.body.report, JSON.parse(cli.stdout), 'the same report as the CLI');
      assert.deepEqual(reportSchemaErrors(first.body.report), []);
      const again = await post(s, readFileSync(SAMPLE), 'other-name.darshan');
      assert.equal(again.status, 200);
      assert.deepEqual([again.body.hash, again.body.stored, again.body.new], [first.body.hash, true, false]);
      const job = await get(s, String(first.body.url).replace('/jobs/', '/api/jobs/'));
      assert.equal(job.body.reportSource, 'store');
      assert.deepEqual(job.body.report, first.body.report);
      // Concurrent uploads (committed together): each distinct log is new exactly once.
      const logs = Array.from({ length: 6 }, (_, i) => writeLog(synthesizeLog({ seed: 200 + i, posixFiles: 3 })));
      const answers = await Promise.all([...logs, ...logs].map((l, i) => post(s, l, `c${i}.darshan`)));
      const news = new Map<string, number>();
      for (const a of answers) news.set(String(a.body.hash), (news.get(String(a.body.hash)) ?? 0) + (a.body.new ? 1 : 0));
      assert.deepEqual([...news.values()], [1, 1, 1, 1, 1, 1]);
    });
    // The stored row is the ingest row of the same log (its path column names the upload).
    const ref = join(dir, 'ref.duckdb');
    await ingest({ db: ref, inputs: [SAMPLE], jobs: 0 });
    const [mine] = await rows(db, `SELECT * EXCLUDE (path, ingested_at) FROM jobs WHERE path = '${name}'`);
    const [theirs] = await rows(ref, 'SELECT * EXCLUDE (path, ingested_at) FROM jobs');
    assert.deepEqual(mine, theirs);
    assert.deepEqual(await rows(db, `SELECT count(*)::INTEGER AS n FROM jobs WHERE path = '${name}'`), [{ n: 1 }]);
    assert.deepEqual(await rows(db, 'SELECT (SELECT count(*) FROM jobs)::INTEGER AS jobs, (SELECT count(*) FROM reports)::INTEGER AS reports'), [{ jobs: 7, reports: 7 }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('upload bodies go to disk as they arrive, not into memory, and are removed however the upload ends', async () => {
  const MiB = 2 ** 20;
  const tmp = mkdtempSync(join(tmpdir(), 'iolens-spool-test-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  try {
    const spooled = () => {
      const dirs = readdirSync(tmp).filter((d) => d.startsWith('iolens-uploads-'));
      assert.equal(dirs.length, 1, `one spool folder: ${dirs.join(', ')}`);
      const dir = join(tmp, dirs[0]);
      assert.equal(statSync(dir).mode & 0o777, 0o700);
      return readdirSync(dir).map((f) => statSync(join(dir, f)).size);
    };
    await withServer({ maxUpload: MiB }, async (s) => {
      const { request } = await import('node:http');
      const url = new URL(s.url);
      // an upload that declares 1 MiB and sends half: the half is on disk while the rest is awaited
      const q = request({ host: url.hostname, port: Number(url.port), path: '/api/reports?name=slow.darshan', method: 'POST', headers: { 'content-length': String(MiB), 'content-type': 'application/octet-stream' } });
      q.on('error', () => undefined);
      q.write(Buffer.alloc(MiB / 2, 1));
      // (waits on what the disk holds, not on a clock)
      while (spooled()[0] !== MiB / 2) await new Promise((r) => setTimeout(r, 5));
      q.destroy();
      while (spooled().length) await new Promise((r) => setTimeout(r, 5));
      // a whole upload: diagnosed from its file, which is gone once answered
      const r = await post(s, readFileSync(SAMPLE), 'whole.darshan');
      assert.equal(r.status, 200);
      assert.equal((r.body.report as { input: { paths: string[] } }).input.paths[0], 'whole.darshan');
      assert.deepEqual(spooled(), []);
      // past the limit: stopped at the limit, nothing kept
      const big = await post(s, new Uint8Array(MiB + 1), 'big.darshan');
      assert.equal(big.status, 413);
      assert.deepEqual(spooled(), []);
      // without the token: 401 before the body is read
    });
    await withServer({ maxUpload: MiB, token: 'sesame' }, async (s) => {
      const r = await post(s, readFileSync(SAMPLE), 'nope.darshan');
      assert.equal(r.status, 401);
      assert.deepEqual(spooled(), []);
    });
    assert.deepEqual(readdirSync(tmp).filter((d) => d.startsWith('iolens-uploads-')), [], 'the spool folder goes with the service');
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('an upload the spool\'s disk has no room for: 507 in one line before its body is written', async (t) => {
  const small = mkdtempSync(join(tmpdir(), 'iolens-small-spool-'));
  const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', small], { encoding: 'utf8' });
  if (m.status !== 0) {
    rmSync(small, { recursive: true, force: true });
    t.skip(`cannot mount a small file system here: ${(m.stderr || m.error?.message || '').trim()}`);
    return;
  }
  const before = process.env.TMPDIR;
  process.env.TMPDIR = small;
  try {
    await withServer({ maxUpload: 4 * 2 ** 20 }, async (s) => {
      const r = await post(s, new Uint8Array(2 * 2 ** 20), 'big.darshan');
      assert.equal(r.status, 507, r.text);
      assert.match(String(r.body.error), /^no room to write an upload: .* has .* free, and it needs 2 MiB$/);
      // nothing was left in the spool, and a log that fits is still diagnosed
      const spool = readdirSync(small).find((d) => d.startsWith('iolens-uploads-'))!;
      assert.deepEqual(readdirSync(join(small, spool)), []);
      assert.equal((await post(s, readFileSync(SAMPLE), 'fits.darshan')).status, 200);
    });
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    spawnSync('umount', [small]);
    rmSync(small, { recursive: true, force: true });
  }
});

test('bad uploads: one-line JSON errors with 4xx, 413 past the limit, and the service keeps answering', async () => {
  const bytes = readFileSync(SAMPLE);
  await withServer({ maxUpload: 64 * 1024 }, async (s) => {
    const cases: [string, Uint8Array | string, number, RegExp][] = [
      ['empty', new Uint8Array(0), 400, /^empty upload/],
      ['garbage', 'this is not a log at all', 422, /^g\.darshan: not a Darshan log/],
      ['truncated', bytes.subarray(0, 5000), 422, /^g\.darshan: truncated or corrupt Darshan log/],
      ['header only', bytes.subarray(0, 300), 422, /^g\.darshan: /],
      ['too large', new Uint8Array(64 * 1024 + 1), 413, /^upload larger than the limit of 65536 bytes/],
    ];
    for (const [what, body, status, message] of cases) {
      const r = await post(s, body, 'g.darshan');
      assert.equal(r.status, status, `${what}: ${r.text}`);
      assert.deepEqual(Object.keys(r.body), ['error'], what);
      assert.match(String(r.body.error), message, what);
      assert.ok(!r.text.includes('\n') && !/at .*\.js:\d+/.test(r.text), `${what}: one line, no stack`);
    }
    assert.equal((await get(s, '/api/health')).body.ok, true);
    assert.equal((await post(s, bytes, 'fine.darshan')).status, 200);
    assert.equal((await get(s, '/api/nope')).status, 404);
    assert.equal((await get(s, `/api/jobs/${'0'.repeat(64)}`)).status, 404);
    assert.equal((await get(s, '/api/jobs/..%2f..%2fetc')).status, 400);
  });
});

test('parallel uploads mixed with garbage all get their answer; a full queue answers 503 with Retry-After; a slow diagnosis 504', async () => {
  const logs = Array.from({ length: 6 }, (_, i) => writeLog(synthesizeLog({ seed: 100 + i, posixFiles: 4 + i, nprocs: 2 })));
  const bad = ['', 'junk', Buffer.from(logs[0]).subarray(0, 700).toString('latin1')];
  await withServer({ threads: 2 }, async (s) => {
    const answers = await Promise.all([...logs.map((l, i) => post(s, l, `ok-${i}.darshan`)), ...bad.map((b) => post(s, b, 'bad.darshan'))]);
    answers.slice(0, logs.length).forEach((a, i) => {
      assert.equal(a.status, 200, a.text.slice(0, 200));
      assert.deepEqual((a.body.report as { job: unknown }).job, diagnoseLog({ path: `ok-${i}.darshan`, bytes: logs[i] }).job);
    });
    for (const a of answers.slice(logs.length)) assert.ok(a.status === 400 || a.status === 422, a.text);
  });
  // One thread, one waiting place: of four slow uploads sent together, two are refused at once.
  const big = writeLog(synthesizeLog({ seed: 7, posixFiles: 5000, nprocs: 4 }));
  await withServer({ threads: 1, maxQueued: 1 }, async (s) => {
    const answers = await Promise.all([0, 1, 2, 3].map(() => post(s, big, 'big.darshan')));
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [200, 200, 503, 503], answers.map((a) => a.text.slice(0, 100)).join(' | '));
    const busy = answers.find((a) => a.status === 503)!;
    assert.equal(busy.headers.get('retry-after'), '1');
    assert.match(String(busy.body.error), /^busy: 1 tasks running and 1 waiting/);
  });
  // A diagnosis past the time limit is stopped; the next upload is served. This log takes about a second to
  // diagnose (60,000 files, report, charts and store row), five times the limit even on a fast machine.
  const huge = writeLog(synthesizeLog({ seed: 8, posixFiles: 60000, nprocs: 4 }));
  await withServer({ threads: 1, timeoutMs: 200 }, async (s) => {
    const slow = await post(s, huge, 'huge.darshan');
    assert.equal(slow.status, 504, slow.text);
    assert.equal(slow.body.error, 'took longer than 0.2 s (the time limit of one request)');
    const health = (await get(s, '/api/health')).body;
    assert.deepEqual([health.ok, health.running, health.queued], [true, 0, 0], 'the thread was replaced, nothing is left running');
  });
});

test('writes need the token when one is set; without --write the store is read-only and uploads are kept in memory', async () => {
  const dir = tmp();
  try {
    const db = join(dir, 'ro.duckdb');
    await ingest({ db, inputs: [SAMPLE], jobs: 0 });
    const bytes = readFileSync(SAMPLE);
    const log = writeLog(synthesizeLog({ seed: 3 }));
    await withServer({ db, token: 's3cret' }, async (s) => {
      assert.equal((await post(s, bytes, 'a.darshan')).status, 401);
      assert.equal((await post(s, bytes, 'a.darshan', { authorization: 'Bearer wrong!' })).status, 401);
      const ok = await post(s, log, 'new.darshan', { authorization: 'Bearer s3cret' });
      assert.equal(ok.status, 200);
      assert.deepEqual([ok.body.stored, ok.body.new], [false, false]);
      const page = await get(s, String(ok.body.url).replace('/jobs/', '/api/jobs/'));
      assert.deepEqual([page.status, page.body.reportSource, page.body.row], [200, 'memory', null]);
      assert.equal((await get(s, '/api/jobs')).body.total, 1, 'reads need no token');
    });
    assert.deepEqual(await rows(db, 'SELECT count(*)::INTEGER AS n FROM jobs'), [{ n: 1 }], 'nothing written');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('jobs explorer API: filter, sort, paginate; an ingested job gets its report from its log; clusters and their rows', async () => {
  const dir = tmp();
  try {
    const arch = join(dir, 'arch');
    makeArchive(arch, { logs: 300, seed: 5 });
    const db = join(dir, 'jobs.duckdb');
    const modelFile = join(dir, 'model.json');
    saveBundle(modelFile, await prepareStore(db, [arch, SAMPLE]));
    await withServer({ db, model: modelFile }, async (s) => {
      const all = (await get(s, '/api/jobs?limit=500')).body as { total: number; jobs: Record<string, unknown>[] };
      assert.equal(all.total, 301);
      const page = (await get(s, '/api/jobs?sort=run_time&order=asc&limit=10&offset=5')).body as { jobs: { run_time: number; hash: string }[] };
      const times = all.jobs.map((j) => j.run_time as number).sort((a, b) => a - b);
      assert.deepEqual(page.jobs.map((j) => j.run_time), times.slice(5, 15));
      const apps = [...new Set(all.jobs.map((j) => j.app as string))].sort();
      const one = (await get(s, `/api/jobs?app=${encodeURIComponent(apps[0])}&limit=500`)).body as { total: number; jobs: { app: string }[] };
      assert.equal(one.total, all.jobs.filter((j) => j.app === apps[0]).length);
      assert.ok(one.jobs.every((j) => j.app === apps[0]));
      const withProblem = all.jobs.find((j) => Array.isArray(j.problems) && j.problems.length > 0)!;
      const problem = (withProblem.problems as string[])[0];
      const byProblem = (await get(s, `/api/jobs?problem=${problem}&limit=500`)).body as { total: number };
      assert.equal(byProblem.total, all.jobs.filter((j) => Array.isArray(j.problems) && (j.problems as string[]).includes(problem)).length);
      assert.equal((await get(s, '/api/jobs?limit=501')).status, 400);
      assert.equal((await get(s, "/api/jobs?q=' OR 1=1 --")).body.total, 0, 'search text is a parameter, not SQL');
      // An ingested job: no stored report, its log is readable, so the report is recomputed from it.
      const sample = all.jobs.find((j) => j.path === SAMPLE)!;
      const job = (await get(s, `/api/jobs/${String(sample.hash)}`)).body;
      assert.equal(job.reportSource, 'recomputed');
      // With the model, the report is what the CLI prints with the same model: the learned section included.
      const cliReport = spawnSync(process.execPath, [BIN, 'report', SAMPLE, '--json', '--charts', '--model', modelFile], { encoding: 'utf8', maxBuffer: 1 << 28 });
      assert.equal(cliReport.status, 0, cliReport.stderr);
      assert.deepEqual(job.report, JSON.parse(cliReport.stdout));
      assert.deepEqual((job.report as { learned: unknown }).learned, job.learned);
      // without the model's section and findings (L01, L02), the report of the log
      const { learned: _l, summary: _s, messages: _m, insights, ...plainReport } = job.report as Record<string, unknown>;
      const { summary: _s2, messages: _m2, insights: plainInsights, ...plain } = diagnoseLog(SAMPLE, { charts: true }) as unknown as Record<string, unknown>;
      assert.deepEqual(plainReport, plain);
      assert.deepEqual((insights as { source?: string }[]).filter((i) => i.source !== 'model'), plainInsights);
      assert.ok((insights as { source?: string; code: string }[]).some((i) => i.source === 'model' && i.code === 'L01'));
      const up = await post(s, readFileSync(SAMPLE), basename(SAMPLE));
      assert.equal(up.status, 200, up.text.slice(0, 200));
      const fromCli = JSON.parse(cliReport.stdout) as { input: Record<string, unknown> };
      assert.deepEqual(up.body.report, { ...fromCli, input: { ...fromCli.input, paths: [basename(SAMPLE)] } }, 'an upload answers the same report (named by the upload)');
      // Clusters: the tree's root holds every job; a node's rows carry the run's features and predictions.
      const cl = (await get(s, '/api/clusters')).body as { run: string; nodes: { id: number; parent: number | null; jobs: number; selected: boolean; explanation: { shap: { features: unknown[] } } }[] };
      assert.equal(cl.run, 'run-1');
      const root = cl.nodes.find((n) => n.parent === null)!;
      assert.equal(root.jobs, 301);
      assert.ok(cl.nodes.filter((n) => n.selected).length >= 2, 'at least two clusters');
      const sel = cl.nodes.find((n) => n.selected)!;
      assert.ok(sel.explanation.shap.features.length > 0, 'the cluster has its own model, explained');
      const members = (await get(s, `/api/jobs?run=run-1&node=${sel.id}&limit=500`)).body as { total: number };
      assert.equal(members.total, sel.jobs);
      const nr = (await get(s, `/api/clusters/run-1/nodes/${sel.id}`)).body as { features: string[]; rows: { values: unknown[] }[]; scatter: { predicted: number }[] };
      assert.ok(nr.features.length > 5);
      assert.equal(nr.rows.length, sel.jobs);
      assert.ok(nr.rows.every((r) => r.values.length === nr.features.length));
      assert.equal(nr.scatter.length, sel.jobs);
      assert.ok(nr.scatter.every((p) => p.predicted >= 0));
      assert.equal((await get(s, '/api/clusters?run=run-9')).status, 404);
      // The model's learned diagnosis of a job: the report's learned section (output = log10(1 + predicted)), its
      // largest contributions first, measured from its row; a counter the job never used gets no blame, so it is
      // never listed.
      const l = job.learned as { predicted: number; base: number; output: number; measured: number; contributors: { shap: number; value: unknown; text: string; against: string }[]; summary: string };
      assert.ok(Math.abs(Math.log10(1 + l.predicted) - l.output) < 1e-9);
      assert.equal(l.measured, sample.io_mibs);
      assert.ok(l.contributors.length > 0 && l.contributors.length <= 10);
      for (const c of l.contributors) assert.ok((c.value !== 0 || c.against !== 'zero') && c.shap !== 0 && c.text.length > 0, JSON.stringify(c));
      // The section is the engine's explanation of the job's row (iolens explain on the same model): the same base and
      // output (base + Σ SHAP over every feature = output), its ten largest non-zero contributions, in order.
      const ex = spawnSync(process.execPath, [BIN, 'explain', '--model', modelFile, '--db', db, '--id', String(sample.hash), '--json'], { encoding: 'utf8' });
      assert.equal(ex.status, 0, ex.stderr);
      const full = JSON.parse(ex.stdout) as { base: number; output: number; contributions: { feature: string; value: unknown; shap: number }[]; lines: { feature: string; value: unknown; shap: number; against: string }[] };
      assert.ok(Math.abs(full.base + full.contributions.reduce((a, c) => a + c.shap, 0) - full.output) < 1e-9);
      assert.ok(Math.abs(full.base - l.base) < 1e-12 && Math.abs(full.output - l.output) < 1e-12);
      for (const c of full.lines) if (c.against === 'zero') assert.notEqual(c.value, 0, 'a counter the job never used gets no blame');
      // the section lists explain's ten largest lines (near duplicates summed), in order
      assert.deepEqual(l.contributors.map((c) => [(c as unknown as { feature: string }).feature, c.shap]), full.lines.slice(0, 10).map((c) => [c.feature, c.shap]));
      assert.match(l.summary, /^The model expected /);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('iolens serve prints where it listens; bad flags are one error line', async () => {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--threads', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
    const m = /^listening on (http:\/\/127\.0\.0\.1:(\d+))\n$/.exec(chunk.toString());
    assert.ok(m, chunk.toString());
    const r = await fetch(`${m[1]}/`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-security-policy') ?? '', /script-src 'self';/);
    assert.match(await r.text(), /<script type="module" src="\/assets\/app.js"><\/script>/);
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
  for (const [args, msg] of [
    [['--max-upload', 'lots'], /--max-upload: expected a size/],
    [['--port', '70000'], /--port: expected a whole number up to 65535/],
    [['--host', '0.0.0.0', '--write', '--db', 'x.duckdb'], /needs --token/],
    [['--write'], /--write needs --db/],
  ] as const) {
    const r = spawnSync(process.execPath, [BIN, 'serve', ...args], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, msg);
  }
});

test('a page on another site cannot write, another host name is not answered, the API is strict and says no server paths', async () => {
  const dir = tmp();
  try {
    const db = join(dir, 'site.duckdb');
    await withServer({ db, write: true }, async (s) => {
      const log = readFileSync(SAMPLE);
      const port = new URL(s.url).port;
      // a cross-site upload (a browser sends Origin, or Sec-Fetch-Site): refused, nothing stored
      const cross: Record<string, string>[] = [{ origin: 'http://evil.example' }, { origin: `http://localhost:${port}` }, { 'sec-fetch-site': 'cross-site' }];
      for (const headers of cross) {
        const r = await post(s, log, 'x.darshan', headers);
        assert.equal(r.status, 403, JSON.stringify(headers));
        assert.match(String(r.body.error), /^a request from another site cannot change anything here/);
      }
      assert.deepEqual(await rows(db, 'SELECT count(*) AS n FROM jobs'), [{ n: 0 }]);
      // from the service's own pages (same origin), or from curl (no Origin): stored
      assert.equal((await post(s, log, 'x.darshan', { origin: s.url, 'sec-fetch-site': 'same-origin' })).status, 201);
      // DNS rebinding: a request naming another host is not answered, whatever it asks
      const { request } = await import('node:http');
      const rebound = await new Promise<{ status: number; body: string }>((res, rej) => {
        const q = request({ host: '127.0.0.1', port: Number(port), path: '/api/jobs', headers: { host: `evil.example:${port}` } }, (r) => {
          let b = '';
          r.on('data', (d: Buffer) => (b += d.toString()));
          r.on('end', () => res({ status: r.statusCode ?? 0, body: b }));
        });
        q.on('error', rej);
        q.end();
      });
      assert.equal(rebound.status, 403);
      // a request with no Host at all (or one Node's parser cannot read) is answered by this service too: headers and JSON
      const { connect } = await import('node:net');
      for (const raw of ['GET /api/health HTTP/1.1\r\nConnection: close\r\n\r\n', 'GET /api/health HTTP/1.1\r\nBad Header Line\r\n\r\n']) {
        const answer = await new Promise<string>((res) => {
          const sock = connect(Number(port), '127.0.0.1');
          let got = '';
          sock.on('data', (d: Buffer) => (got += d.toString('latin1')));
          sock.on('close', () => res(got));
          sock.end(raw);
        });
        assert.match(answer, /^HTTP\/1\.1 (403|400) /, answer);
        assert.match(answer.toLowerCase(), /\r\ncontent-security-policy: default-src 'none'/, answer);
        assert.match(answer, /\{"error":"[^"]+"\}$/, answer);
      }
      assert.match(rebound.body, /this service answers requests addressed to it \(Host 127\.0\.0\.1:\d+\), not to evil\.example:\d+/);
      // strict API: unknown parameters and absurd offsets are refused with 400, not dropped or answered with 500
      assert.equal((await get(s, '/api/jobs?nonsense=1')).status, 400);
      assert.equal((await get(s, '/api/jobs?offset=1e308')).status, 400);
      // the router's own errors answer one JSON line, with the security headers
      const bad = await fetch(`${s.url}/api/jobs/%E0%A4%A`);
      assert.equal(bad.status, 400);
      assert.ok(bad.headers.get('content-security-policy'));
      assert.match(((await bad.json()) as { error: string }).error, /^bad request: /);
      // no server path: the health answer names no store file, a failed trace upload no temporary folder
      const health = (await get(s, '/api/health')).body;
      assert.equal((health.store as { writable: boolean }).writable, true);
      assert.ok(!JSON.stringify(health).includes(dir));
      const tr = await fetch(`${s.url}/api/traces?name=broken.pfw`, { method: 'POST', body: 'not a trace\n', headers: { 'content-type': 'application/octet-stream' } });
      const err = ((await tr.json()) as { error: string }).error;
      assert.ok(tr.status >= 400 && tr.status < 500, `${tr.status} ${err}`);
      assert.ok(!err.includes(tmpdir()), err);
      assert.match(err, /broken\.pfw/);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('serve --timeout is bounded: past a day it is refused, not turned into 1 ms by Node', () => {
  const r = spawnSync(process.execPath, [BIN, 'serve', '--timeout', '3000000'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.equal(r.stderr, 'iolens: --timeout: expected a whole number up to 86400, got "3000000"\n');
});
