import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { corpusLogs } from '../testing/corpus.js';
import { tarOfEmptyFiles } from '../testing/tar.js';
import { ingest } from '../store/ingest.js';
import { startServer, type ServeOptions, type Server } from './app.js';

// The service against slow clients, time-outs, large names and a busy store (issue 54, the third red team).

const SAMPLE = corpusLogs().find((l) => l.name === 'ior-hdf5-indep-small-write-4k.darshan')!.path;

async function withServer<T>(opts: ServeOptions, fn: (s: Server) => Promise<T>): Promise<T> {
  const s = await startServer({ port: 0, threads: 1, ...opts });
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

async function upload(s: Server, path: string, body: Uint8Array, headers: Record<string, string> = {}, signal?: AbortSignal) {
  const r = await fetch(`${s.url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/octet-stream', ...headers }, ...(signal ? { signal } : {}) });
  const text = await r.text();
  return { status: r.status, text, error: String((JSON.parse(text) as { error?: string }).error ?? '') };
}

const health = async (s: Server) => (await (await fetch(`${s.url}/api/health`)).json()) as { running: number; queued: number; uploadBytes: number };

/** Every entry under `dir`, recursively (paths relative to it). */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

/** Runs `fn` with TMPDIR set to a fresh folder (the service's spool and every temporary file go there). */
async function inPrivateTmp<T>(fn: (tmp: string) => Promise<T>): Promise<T> {
  const tmp = mkdtempSync(join(tmpdir(), 'iolens-hostile-tmp-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  try {
    return await fn(tmp);
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(tmp, { recursive: true, force: true });
  }
}

test('a trace upload that times out, or whose client goes away, leaves no temporary file once it ends or the service stops', { timeout: 120_000 }, async () => {
  // 19,000 empty DFTracer files in a .tar.gz (under the budget of entries): extracting and reading them outlasts the time limit
  const archive = gzipSync(tarOfEmptyFiles(19_000));
  await inPrivateTmp(async (tmp) => {
    const s = await startServer({ port: 0, threads: 1, timeoutMs: 1000 });
    try {
      const [spool] = readdirSync(tmp);
      assert.match(spool, /^iolens-uploads-/);
      // the thread reads one small archive first (its modules loaded), so that the time limit is spent extracting
      for (let warm = 0; warm < 5; warm++) if ((await upload(s, '/api/traces?name=small.tar.gz', gzipSync(tarOfEmptyFiles(2)))).status !== 504) break;
      assert.deepEqual(tree(tmp), [spool]);
      // (waits on the folder and on the answer, not on a clock)
      let answered = false;
      const answer = upload(s, '/api/traces?name=many.tar.gz', archive).finally(() => (answered = true));
      let sawTrace = false;
      while (!answered && !sawTrace) {
        sawTrace = tree(tmp).some((p) => /iolens-trace-/.test(p));
        await new Promise((r) => setTimeout(r, 5));
      }
      const r = await answer;
      assert.equal(r.status, 504, r.text);
      assert.match(r.error, /took longer than/);
      assert.ok(sawTrace, 'the archive was being extracted when the time ran out');
      assert.deepEqual(tree(tmp), [spool], 'nothing left but the empty spool');
      // a client that goes away: its task runs to its time limit, then every file of it is removed
      const gone = new AbortController();
      const dropped = upload(s, '/api/traces?name=again.tar.gz', archive, {}, gone.signal).catch((e: Error) => e);
      while ((await health(s)).running === 0) await new Promise((r) => setTimeout(r, 5));
      gone.abort();
      assert.ok((await dropped) instanceof Error);
      // (the request's folder goes once its task has settled, after its thread stopped: a leak would hang here until
      // the test's time limit)
      while ((await health(s)).running > 0 || tree(tmp).length > 1) await new Promise((r) => setTimeout(r, 10));
      assert.deepEqual(tree(tmp), [spool]);
    } finally {
      await s.close();
    }
    assert.deepEqual(tree(tmp), [], 'the service stopped: nothing of it stays in TMPDIR');
  });
  // stopped in the middle of a diagnosis: the running task ends and its files go with the service
  await inPrivateTmp(async (tmp) => {
    const s = await startServer({ port: 0, threads: 1, timeoutMs: 60_000 });
    const answer = upload(s, '/api/traces?name=many.tar.gz', archive);
    while (!tree(tmp).some((p) => /iolens-trace-/.test(p))) await new Promise((r) => setTimeout(r, 5));
    await s.close();
    const r = await answer.catch((e: Error) => ({ status: 0, text: e.message, error: e.message }));
    assert.ok(r.status === 503 || r.status === 0, r.text);
    assert.deepEqual(tree(tmp), []);
  });
});

test('an archive of more entries than the budget is refused with 413, its extracted entries removed', async () => {
  await inPrivateTmp(async (tmp) => {
    await withServer({}, async (s) => {
      const r = await upload(s, '/api/traces?name=bomb.tar.gz', gzipSync(tarOfEmptyFiles(20_001)));
      assert.equal(r.status, 413, r.text);
      assert.equal(r.error, 'bomb.tar.gz: an archive of more than 20000 entries (the limit of one archive)');
      assert.equal(tree(tmp).length, 1);
    });
  });
});

test('slow clients hold only the bytes they sent: others are served; bytes received past the budget get 503', async () => {
  const KiB = 1024;
  await withServer({ maxUpload: 256 * KiB, maxInFlight: 512 * KiB }, async (s) => {
    const url = new URL(s.url);
    const slow = (declared: number, send: number): Promise<Socket> =>
      new Promise((done) => {
        const c = connect(Number(url.port), url.hostname, () => {
          c.write(`POST /api/reports?name=slow.darshan HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/octet-stream\r\nContent-Length: ${declared}\r\n\r\n`);
          c.write(Buffer.alloc(send, 7));
          done(c);
        });
        c.on('error', () => undefined);
      });
    // two clients declare the largest upload each (the whole budget) and send one byte
    const trickle = await Promise.all([slow(256 * KiB, 1), slow(256 * KiB, 1)]);
    while ((await health(s)).uploadBytes < 2) await new Promise((r) => setTimeout(r, 5));
    const third = await upload(s, '/api/reports?name=third.darshan', readFileSync(SAMPLE));
    assert.equal(third.status, 200, third.text);
    for (const c of trickle) c.destroy();
    while ((await health(s)).uploadBytes > 0) await new Promise((r) => setTimeout(r, 5));
    // two clients that did send most of their upload hold that: an upload that does not fit is 503 before its body
    const full = await Promise.all([slow(256 * KiB, 250 * KiB), slow(256 * KiB, 250 * KiB)]);
    while ((await health(s)).uploadBytes < 500 * KiB) await new Promise((r) => setTimeout(r, 5));
    const refused = await upload(s, '/api/reports?name=refused.darshan', readFileSync(SAMPLE));
    assert.equal(refused.status, 503, refused.text);
    // one that declares no size: its bytes pass the budget as they arrive, it is read to its end and answered 503
    const chunked = await fetch(`${s.url}/api/reports?name=chunked.darshan`, {
      method: 'POST',
      body: new ReadableStream({
        start(c) {
          c.enqueue(readFileSync(SAMPLE));
          c.close();
        },
      }),
      duplex: 'half',
      headers: { 'content-type': 'application/octet-stream' },
    } as RequestInit);
    assert.equal(chunked.status, 503);
    assert.match(String(((await chunked.json()) as { error: string }).error), /retry shortly/);
    for (const c of full) c.destroy();
    while ((await health(s)).uploadBytes > 0) await new Promise((r) => setTimeout(r, 5));
    assert.equal((await upload(s, '/api/reports?name=after.darshan', readFileSync(SAMPLE))).status, 200);
  });
});

test('open connections are capped, and a client trickling its headers is closed', async () => {
  await withServer({ maxConnections: 3, headersTimeoutMs: 500 }, async (s) => {
    const url = new URL(s.url);
    // (each socket's end is awaited from its start: an event that came before the wait is not missed)
    const open = () =>
      new Promise<{ c: Socket; closed: Promise<unknown>; got: Buffer[] }>((done) => {
        const c = connect(Number(url.port), url.hostname, () => done({ c, closed, got }));
        const closed = once(c, 'close');
        const got: Buffer[] = [];
        c.on('data', (b: Buffer) => got.push(b));
        c.on('error', () => undefined);
      });
    const count = () => new Promise<number>((done) => s.app.server.getConnections((_e, n) => done(n)));
    const held = [await open(), await open(), await open()];
    for (const h of held) h.c.write('GET /api/health HTTP/1.1\r\nHo');
    while ((await count()) < 3) await new Promise((r) => setTimeout(r, 5));
    // a fourth connection is closed at once, with no answer
    const fourth = await open();
    await fourth.closed;
    assert.equal(Buffer.concat(fourth.got).length, 0);
    // the three that never finish their headers are closed by the service, and then clients are served again
    await Promise.all(held.map((h) => h.closed));
    for (const h of held) assert.match(Buffer.concat(h.got).toString('latin1'), /^HTTP\/1\.1 400 /);
    assert.equal((await fetch(`${s.url}/api/health`)).status, 200);
  });
});

test('a long upload name is 400, a busy store 503: no answer names a server path or a process', async () => {
  await withServer({}, async (s) => {
    for (const [name, how] of [['x'.repeat(300), 'header'], ['é'.repeat(200), 'query'], ['a'.repeat(256), 'header'], ['é'.repeat(128), 'query']] as const) {
      const r =
        how === 'header'
          ? await upload(s, '/api/traces', readFileSync(SAMPLE), { 'x-filename': name })
          : await upload(s, `/api/traces?name=${encodeURIComponent(name)}`, readFileSync(SAMPLE));
      assert.equal(r.status, 400, `${how} ${name.length}: ${r.text}`);
      assert.equal(r.error, "an upload's name is at most 255 bytes (a file name)");
    }
    // 255 bytes is a name
    const ok = await upload(s, `/api/reports?name=${encodeURIComponent('é'.repeat(123) + '.darshan')}`, readFileSync(SAMPLE));
    assert.equal(ok.status, 200, ok.text);
  });
  const dir = mkdtempSync(join(tmpdir(), 'iolens-hostile-busy-'));
  const waited = process.env.IOLENS_STORE_WAIT;
  try {
    const db = join(dir, 'jobs.duckdb');
    await ingest({ db, inputs: [SAMPLE], jobs: 0 });
    process.env.IOLENS_STORE_WAIT = '0';
    await withServer({ db }, async (s) => {
      // another program holds the store for writing
      const holder = spawn(process.execPath, ['--input-type=module', '-e', `import { DuckDBInstance } from '@duckdb/node-api'; const i = await DuckDBInstance.create(${JSON.stringify(db)}); await i.connect(); process.stdout.write('held\\n'); process.stdin.resume();`], { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'inherit'] });
      try {
        await once(holder.stdout!, 'data');
        const r = await fetch(`${s.url}/api/jobs`);
        const text = await r.text();
        assert.equal(r.status, 503, text);
        assert.equal(r.headers.get('retry-after'), '1');
        assert.equal(JSON.parse(text).error, 'the job store is busy (another program writes it): retry shortly');
        assert.ok(!text.includes(dir) && !text.includes(String(holder.pid)) && !/PID/.test(text), text);
      } finally {
        holder.kill();
        await once(holder, 'exit');
      }
    });
  } finally {
    if (waited === undefined) delete process.env.IOLENS_STORE_WAIT;
    else process.env.IOLENS_STORE_WAIT = waited;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a cluster node that is not a whole number in range is 400, never SQL', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-hostile-node-'));
  try {
    const db = join(dir, 'jobs.duckdb');
    await ingest({ db, inputs: [SAMPLE], jobs: 0 });
    await withServer({ db }, async (s) => {
      for (const q of ['run=x&node=1e400', 'run=x&node=-1', 'run=x&node=1.5', 'run=x&node=99999999999', 'run=x&node=NaN']) {
        const r = await fetch(`${s.url}/api/jobs?${q}`);
        assert.equal(r.status, 400, `${q}: ${await r.text()}`);
      }
      for (const n of ['1e400', '1.5', '-1', '99999999999', 'NaN']) {
        const r = await fetch(`${s.url}/api/clusters/x/nodes/${n}`);
        assert.equal(r.status, 400, `node ${n}`);
      }
      const ok = await fetch(`${s.url}/api/jobs?run=x&node=0`);
      assert.equal(ok.status, 200);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
