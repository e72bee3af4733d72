import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHARED } from '../testing/corpus.js';
import { synthesizeLog } from '../formats/darshan/synth.js';
import { writeLog } from '../formats/darshan/writer.js';
import { ingest } from '../store/ingest.js';
import { startServer } from './app.js';

test('the web service lists slow storage targets over time (/api/targets) and serves their page (/targets)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-serve-targets-'));
  try {
    const db = join(dir, 'jobs.duckdb');
    const slow = join(dir, 'slow.darshan');
    writeFileSync(slow, writeLog(synthesizeLog({ seed: 4, posixFiles: 240, sharedFiles: 0, nprocs: 240, lustreOsts: 24, accessBytes: 1 << 24, slowOsts: [9] })));
    await ingest({ db, inputs: [join(SHARED, 'darshan-logs', 'public', 'sample-badost.darshan'), slow], jobs: 0 });
    const server = await startServer({ db, port: 0, threads: 1 });
    try {
      const r = await fetch(`${server.url}/api/targets`);
      assert.equal(r.status, 200);
      const a = (await r.json()) as { columns: string[]; rows: unknown[][] };
      const at = (row: unknown[], c: string) => row[a.columns.indexOf(c)];
      assert.deepEqual(a.rows.map((row) => [at(row, 'fs'), at(row, 'ost'), at(row, 'slow_jobs')]), [['/scratch1', 14, 1], ['/lustre/scratch', 9, 1]]);
      assert.equal((await fetch(`${server.url}/api/targets?top=0`)).status, 400);
      const page = await fetch(`${server.url}/targets`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<body data-page="targets">/);
    } finally {
      await server.close();
    }
    // Without a store there is nothing to list.
    const bare = await startServer({ port: 0, threads: 1 });
    try {
      assert.equal((await fetch(`${bare.url}/api/targets`)).status, 404);
    } finally {
      await bare.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
