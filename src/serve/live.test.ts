import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../testing/corpus.js';
import { makeArchive } from '../store/synth-archive.js';

// The dashboard beside the nightly ingest: `iolens serve` answers while `iolens ingest` writes the same DuckDB file
// (docs/serve.md, "Beside ingest"). Real CLI processes, a real store; every assert counts, none times.

const BIN = join(REPO_ROOT, 'bin', 'iolens.js');
const FIRST = 40;
const LOGS = 1500;

const tmp = () => mkdtempSync(join(tmpdir(), 'iolens-live-'));

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 110_000 });
}

async function serve(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--threads', '1', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n$/.exec(chunk.toString());
  assert.ok(m, chunk.toString());
  return { child, url: m[1] };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

interface Poll {
  totals: number[];
  pages: number;
  failures: string[];
  slowestMs: number;
}

/** Polls the jobs list and one job page, one request after the other, until `done()`; then once more. */
async function poll(url: string, hash: string, done: () => boolean): Promise<Poll> {
  const out: Poll = { totals: [], pages: 0, failures: [], slowestMs: 0 };
  const get = async (path: string): Promise<unknown> => {
    const t = Date.now();
    const r = await fetch(`${url}${path}`);
    const body = await r.text();
    out.slowestMs = Math.max(out.slowestMs, Date.now() - t);
    if (r.status !== 200) {
      out.failures.push(`${path}: ${r.status} ${body.slice(0, 200)}`);
      return null;
    }
    return JSON.parse(body);
  };
  for (let last = false; ; ) {
    last = done();
    const list = (await get('/api/jobs?limit=5&sort=start_epoch')) as { total: number } | null;
    if (list) out.totals.push(list.total);
    const job = (await get(`/api/jobs/${hash}`)) as { hash: string; row: unknown } | null;
    if (job) {
      assert.equal(job.hash, hash);
      assert.ok(job.row);
      out.pages++;
    }
    if (last) return out;
  }
}

test('the dashboard keeps answering while iolens ingest writes the same store', { timeout: 110_000 }, async (t) => {
  const dir = tmp();
  let server: ChildProcess | null = null;
  try {
    const db = join(dir, 'facility.duckdb');
    makeArchive(join(dir, 'first'), { logs: FIRST, seed: 41 });
    const info = makeArchive(join(dir, 'night'), { logs: LOGS, seed: 42 });
    assert.equal(info.logs, LOGS);
    const first = cli(['ingest', join(dir, 'first'), '--db', db, '-q']);
    assert.equal(first.status, 0, first.stderr);

    const s = await serve(['--db', db]);
    server = s.child;
    const start = (await (await fetch(`${s.url}/api/jobs?limit=1`)).json()) as { total: number; jobs: { hash: string }[] };
    assert.equal(start.total, FIRST);
    const hash = start.jobs[0].hash;

    // The nightly ingest, started while the service holds nothing open.
    const ingest = spawn(process.execPath, [BIN, 'ingest', join(dir, 'night'), '--db', db], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    ingest.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    ingest.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = once(ingest, 'exit');
    let finished = false;
    void exited.then(() => (finished = true));
    const seen = await poll(s.url, hash, () => finished);
    const [code] = (await exited) as [number];

    assert.equal(code, 0, stderr);
    assert.deepEqual(seen.failures, []);
    // every answer 200; the total never decreases and ends at the full count
    for (let i = 1; i < seen.totals.length; i++) assert.ok(seen.totals[i] >= seen.totals[i - 1], `total went from ${seen.totals[i - 1]} to ${seen.totals[i]}`);
    assert.ok(seen.totals.length >= 2);
    assert.equal(seen.totals[0] >= FIRST, true);
    assert.equal(seen.totals.at(-1), FIRST + LOGS);
    assert.equal(seen.pages, seen.totals.length);
    const summary = `${stdout}${stderr}`.trim().split('\n').at(-1) ?? '';
    assert.match(summary, new RegExp(`^.*facility\\.duckdb: ${LOGS} new jobs, 0 duplicates, 0 errors, 0 already ingested`));
    const health = (await (await fetch(`${s.url}/api/health`)).json()) as { store: { opens: number; maxOpenMs: number; maxLockWaitMs: number } };
    const between = new Set(seen.totals.filter((n) => n > FIRST && n < FIRST + LOGS)).size;
    t.diagnostic(`polls ${seen.totals.length}, distinct totals between start and end ${between}, slowest answer ${seen.slowestMs} ms`);
    t.diagnostic(`service: ${health.store.opens} opens, longest open ${health.store.maxOpenMs} ms, longest lock wait ${health.store.maxLockWaitMs} ms`);
    t.diagnostic(`ingest: ${summary}`);
    // the store is whole: what the service counted, DuckDB counts
    const q = cli(['query', '--db', db, '--csv', 'SELECT count(*) AS n, count(DISTINCT hash) AS d FROM jobs']);
    assert.equal(q.status, 0, q.stderr);
    assert.equal(q.stdout.trim().split('\n')[1], `${FIRST + LOGS},${FIRST + LOGS}`);
  } finally {
    if (server) await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('uploads to serve --write and an ingest of the same logs share the store: each job once', { timeout: 110_000 }, async () => {
  const dir = tmp();
  let server: ChildProcess | null = null;
  try {
    const db = join(dir, 'facility.duckdb');
    const n = 300;
    const first = 10;
    makeArchive(join(dir, 'first'), { logs: first, seed: 44 });
    makeArchive(join(dir, 'night'), { logs: n, seed: 43 });
    const init = cli(['ingest', join(dir, 'first'), '--db', db, '-q']);
    assert.equal(init.status, 0, init.stderr);
    const s = await serve(['--db', db, '--write']);
    server = s.child;
    const ingest = spawn(process.execPath, [BIN, 'ingest', join(dir, 'night'), '--db', db, '-q'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    ingest.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = once(ingest, 'exit');
    let finished = false;
    void exited.then(() => (finished = true));
    // uploads of logs that the ingest also reads (from the folder it walks last), while it runs
    const day = join(dir, 'night', '2023', '1', '2');
    const files = readdirSync(day).slice(0, 8);
    let uploads = 0;
    for (let i = 0; i < files.length && (!finished || uploads === 0); i++) {
      const r = await fetch(`${s.url}/api/reports?name=${files[i]}`, { method: 'POST', body: readFileSync(join(day, files[i])), headers: { 'content-type': 'application/octet-stream' } });
      assert.ok(r.status === 200 || r.status === 201, `${r.status} ${await r.text()}`);
      await r.arrayBuffer().catch(() => undefined);
      uploads++;
    }
    const [code] = (await exited) as [number];
    assert.equal(code, 0, stderr);
    await stop(server);
    server = null;
    const q = cli(['query', '--db', db, '--csv', 'SELECT count(*), count(DISTINCT hash) FROM jobs']);
    assert.equal(q.status, 0, q.stderr);
    assert.equal(q.stdout.trim().split('\n')[1], `${first + n},${first + n}`);
    assert.ok(uploads >= 1);
  } finally {
    if (server) await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
});
