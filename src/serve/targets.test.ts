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
import { chromiumMissing, launchChromium, pageErrors } from '../testing/chromium.js';

// Browser globals of the page.evaluate callbacks (they run in Chromium, not in Node).
declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A store of sample-badost (OST 14 slow) and a synthetic job with OST 9 slow. */
async function targetStore(dir: string): Promise<string> {
  const db = join(dir, 'jobs.duckdb');
  const slow = join(dir, 'slow.darshan');
  writeFileSync(slow, writeLog(synthesizeLog({ seed: 4, posixFiles: 240, sharedFiles: 0, nprocs: 240, lustreOsts: 24, accessBytes: 1 << 24, slowOsts: [9] })));
  await ingest({ db, inputs: [join(SHARED, 'darshan-logs', 'public', 'sample-badost.darshan'), slow], jobs: 0 });
  return db;
}

test('the web service lists slow storage targets over time (/api/targets) and serves their page (/targets)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-serve-targets-'));
  try {
    const db = await targetStore(dir);
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

test('the targets page draws in Chromium: the chart and the table, OST 14 first', { skip: chromiumMissing }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-web-targets-'));
  try {
    const db = await targetStore(dir);
    const server = await startServer({ db, port: 0, threads: 1 });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const errors = pageErrors(page);
      await page.goto(`${server.url}/targets`);
      await page.waitForSelector('#targets-table tbody tr');
      const first = await page.evaluate(() => [...document.querySelectorAll('#targets-table tbody tr:first-child td')].map((td: any) => td.textContent as string)); // eslint-disable-line @typescript-eslint/no-explicit-any
      assert.deepEqual(first.slice(0, 2), ['/scratch1', '14']);
      assert.equal(await page.evaluate(() => document.querySelectorAll('#targets-table tbody tr').length), 2);
      await page.waitForSelector('[data-plot="targets-chart"] svg');
      assert.ok(await page.evaluate(() => document.querySelectorAll('[data-plot="targets-chart"] svg path').length > 0), 'bars drawn');
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
