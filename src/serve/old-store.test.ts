import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { REPORT_SCHEMA_VERSION, UsageError, type Comparison, type Report } from '../contract/index.js';
import { renderReport } from '../render/registry.js';
import { openStore, schemaVersion } from '../store/db.js';
import { jobsPage, jobWithReport } from '../store/queries/jobs.js';
import { chromiumMissing, launchChromium, pageErrors } from '../testing/chromium.js';
import { SCHEMA_VERSION } from '../store/schema.js';
import { REPO_ROOT } from '../testing/corpus.js';
import { startServer } from './app.js';

// A store written by the previous release (fixtures/store-v4: IOLens b8984f3, store schema 4, report schema 2,
// three uploads kept by `serve --write`) opened by today's code: it migrates, its jobs list, and each job's stored
// report comes through the upgrader and renders — in the renderers, in the web service's API and on the job page.

const FIXTURE = join(REPO_ROOT, 'fixtures', 'store-v4', 'b8984f3.duckdb.gz');
const NAMES = ['ior-hdf5-indep-small-write-4k.darshan', 'ior-seq-write-1m.darshan', 'iopat-stdio-small-records.darshan'];

function oldStore(dir: string): string {
  const db = join(dir, 'old.duckdb');
  writeFileSync(db, gunzipSync(readFileSync(FIXTURE)));
  return db;
}

// The store of the schema just before this one (fixtures/store-v5: IOLens 53f4c09, store schema 5, report schema 3).
const PREVIOUS = join(REPO_ROOT, 'fixtures', 'store-v5', '53f4c09.duckdb.gz');

test('fixtures/ holds a store of the schema before this one (a schema bump brings its own)', () => {
  // When SCHEMA_VERSION moves on, write a store with the last release of the old schema (fixtures/store-v5/README.md
  // says how) under fixtures/store-v<N>/ and point PREVIOUS at it; the schema 4 store (FIXTURE) stays, for the
  // report upgrader.
  assert.ok(PREVIOUS.includes(`store-v${SCHEMA_VERSION - 1}`), `${PREVIOUS} is not a store of schema ${SCHEMA_VERSION - 1}`);
  assert.ok(existsSync(PREVIOUS));
  assert.ok(existsSync(FIXTURE));
});

test('a store of schema 5 migrates to 6: its jobs keep NULL storage targets and the targets view reads them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-v5-store-'));
  try {
    const db = join(dir, 'v5.duckdb');
    writeFileSync(db, gunzipSync(readFileSync(PREVIOUS)));
    await assert.rejects(openStore(db, { readOnly: true }), (e: unknown) => e instanceof UsageError && /has store schema 5; run any iolens ingest on it \(or iolens merge\) to migrate it to 6/.test(e.message));
    const s = await openStore(db);
    try {
      assert.equal(await schemaVersion(s.con), SCHEMA_VERSION);
      const rows = (await s.con.runAndReadAll('SELECT count(*) AS jobs, count(storage_targets) AS with_targets, (SELECT count(*) FROM targets) AS targets FROM jobs')).getRowObjectsJson();
      assert.deepEqual(rows.map((r) => [Number(r.jobs), Number(r.with_targets), Number(r.targets)]), [[3, 0, 0]]);
    } finally {
      s.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a store of the previous release: refused read-only with the way to migrate, then migrated by a writer', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-old-store-'));
  try {
    const db = oldStore(dir);
    // Read-only opens do not migrate (DuckDB cannot write then): one line that says how.
    await assert.rejects(openStore(db, { readOnly: true }), (e: unknown) => e instanceof UsageError && /has store schema 4; run any iolens ingest on it \(or iolens merge\) to migrate it to 6/.test(e.message));
    const s = await openStore(db);
    try {
      assert.equal(await schemaVersion(s.con), SCHEMA_VERSION);
      const page = await jobsPage(s, { sort: 'app', order: 'asc' });
      assert.equal(page.total, 3);
      assert.deepEqual(page.jobs.map((j) => j.path).sort(), [...NAMES].sort());
      for (const j of page.jobs) {
        assert.equal(j.has_report, true);
        // 4 → 5: the time model's columns are NULL on rows written before (their logs must be ingested again).
        for (const c of ['io_time', 'io_time_cumulative', 'io_share', 'io_mibs']) assert.equal(j[c], null, `${c} of ${j.path}`);
        const job = await jobWithReport(s, String(j.hash));
        assert.ok(job?.report, `${j.path}: stored report`);
        const r: Report = job.report;
        assert.equal(r.schemaVersion, REPORT_SCHEMA_VERSION);
        assert.equal(r.input.format, 'darshan');
        assert.ok(r.notes.some((n) => /upgraded from report schema 2/.test(n)), 'the upgrade is noted');
        assert.equal(typeof r.io.cumulativeIoTime, 'number');
        for (const format of ['terminal', 'markdown', 'html', 'json', 'csv'] as const) {
          const out = renderReport(r, format);
          assert.ok(out.length > 200, `${j.path} renders as ${format}`);
        }
        assert.match(renderReport(r, 'terminal'), new RegExp(String(j.path).replace(/[.]/g, '\\.')));
      }
    } finally {
      s.close();
    }
    // Migrated, the store opens read-only again.
    const ro = await openStore(db, { readOnly: true });
    ro.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a migrated store of the previous release in the web service: jobs, job reports, compare, job page', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-old-serve-'));
  try {
    const db = oldStore(dir);
    (await openStore(db)).close();
    const server = await startServer({ db, port: 0, threads: 1 });
    try {
      const get = async (path: string) => {
        const r = await fetch(`${server.url}${path}`);
        return { status: r.status, type: r.headers.get('content-type') ?? '', text: await r.text() };
      };
      const list = JSON.parse((await get('/api/jobs')).text) as { total: number; jobs: { hash: string; path: string }[] };
      assert.equal(list.total, 3);
      for (const j of list.jobs) {
        const a = await get(`/api/jobs/${j.hash}`);
        assert.equal(a.status, 200, a.text);
        const body = JSON.parse(a.text) as { reportSource: string; report: Report; row: { path: string } };
        assert.equal(body.reportSource, 'store');
        assert.equal(body.report.schemaVersion, REPORT_SCHEMA_VERSION);
        assert.equal(body.row.path, j.path);
        const page = await get(`/jobs/${j.hash}`);
        assert.equal(page.status, 200);
        assert.match(page.type, /text\/html/);
      }
      const [a, b] = list.jobs;
      const c = await get(`/api/compare?base=${a.hash}&other=${b.hash}`);
      assert.equal(c.status, 200, c.text);
      const cmp = JSON.parse(c.text) as Comparison;
      assert.equal(cmp.others.length, 1);
      assert.deepEqual(cmp.failed, []);
    } finally {
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Browser globals of the page.evaluate callbacks (they run in Chromium, not in Node).
declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any

test('the job pages of a migrated store of the previous release draw in Chromium', { skip: chromiumMissing }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-old-web-'));
  try {
    const db = oldStore(dir);
    (await openStore(db)).close();
    const server = await startServer({ db, port: 0, threads: 1 });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const errors = pageErrors(page);
      const list = (await (await fetch(`${server.url}/api/jobs`)).json()) as { jobs: { hash: string; path: string }[] };
      for (const j of list.jobs) {
        await page.goto(`${server.url}/jobs/${j.hash}`);
        await page.waitForSelector('figure.plot svg');
        const plots = await page.evaluate(() => document.querySelectorAll('figure.plot svg').length);
        assert.ok(plots > 0, `${j.path}: plots drawn`);
        assert.ok((await page.evaluate(() => document.body.innerText as string)).includes(j.path), `${j.path}: named on its page`);
      }
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

