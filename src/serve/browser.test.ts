import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { synthesizeLog } from '../formats/darshan/synth.js';
import { writeLog } from '../formats/darshan/writer.js';
import { diagnoseLog } from '../pipeline/diagnose.js';
import { diagnoseTrace } from '../pipeline/diagnose-trace.js';
import { reportPlots } from '../render/plots.js';
import { verdicts } from '../render/compare.js';
import type { Comparison } from '../contract/index.js';
import { formatPercent, formatSeconds } from '../text/format.js';
import { makeArchive } from '../store/synth-archive.js';
import { saveBundle } from '../models/index.js';
import { corpusLogs, SHARED } from '../testing/corpus.js';
import { startServer } from './app.js';
import { prepareStore } from './sample.js';

// The web pages in a real browser (Debian's Chromium driven by playwright-core; .ci/run installs it): upload
// through the page, the job page's plots, a hostile log's names as text, the jobs explorer, the dashboard over a
// clustered store down to a job page, the trace page. Screenshots are kept in SHOTS.
const CHROMIUM = '/usr/bin/chromium';
// Browser globals of the page.evaluate callbacks (they run in Chromium, not in Node).
declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any
declare const DataTransfer: any; // eslint-disable-line @typescript-eslint/no-explicit-any
declare const DragEvent: any; // eslint-disable-line @typescript-eslint/no-explicit-any
const available = existsSync(CHROMIUM);
if (!available && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium package`);
const SHOTS = join(tmpdir(), 'iolens-serve-screenshots');

const HOSTILE = '<script>alert(1)</script>';
const HOSTILE_EXE = `<img src=x onerror=alert(2)>`;

function hostileLog(): Uint8Array {
  const input = synthesizeLog({ posixFiles: 3, nprocs: 2, dxtSegments: 40, exe: `${HOSTILE_EXE} ./app ${HOSTILE}` });
  const names = [...input.names].map(([id, n]) => [id, n.replace(/[^/]*$/, (f) => `${HOSTILE}"'&\u0007${f}`)] as const);
  return writeLog({ ...input, names });
}

interface Watch {
  errors: string[];
  dialogs: string[];
  outside: string[];
}

function watch(page: Page, origin: string): Watch {
  const w: Watch = { errors: [], dialogs: [], outside: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') w.errors.push(m.text());
  });
  page.on('pageerror', (e) => w.errors.push(e.message));
  page.on('dialog', (d) => {
    w.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('request', (r) => {
    if (!r.url().startsWith(origin)) w.outside.push(r.url());
  });
  return w;
}

/** SVG shapes drawn inside a plot box. */
const shapes = (page: Page, id: string) => page.evaluate((sel) => document.querySelectorAll(`${sel} svg path, ${sel} svg rect, ${sel} svg text`).length, `[data-plot="${id}"]`);

test('the web service in Chromium: upload, plots, hostile names, jobs explorer, dashboard drill-down, trace page', { skip: !available && 'Chromium is not installed' }, async (t) => {
  const { chromium } = await import('playwright-core');
  const dir = mkdtempSync(join(tmpdir(), 'iolens-web-'));
  mkdirSync(SHOTS, { recursive: true });
  const arch = join(dir, 'arch');
  makeArchive(arch, { logs: 300, seed: 11 });
  const db = join(dir, 'web.duckdb');
  const model = join(dir, 'model.json');
  saveBundle(model, await prepareStore(db, [arch]));
  const server = await startServer({ db, write: true, model, port: 0, threads: 2 });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const w = watch(page, server.url);
    const shot = async (name: string) => {
      const file = join(SHOTS, `${name}.png`);
      writeFileSync(file, await page.screenshot({ fullPage: true }));
      return file;
    };

    // 1. Upload through the file input: the job page shows the report with every plot of the plot model.
    const sample = corpusLogs().find((l) => l.name === 'ior-hdf5-indep-small-write-4k.darshan')!;
    await page.goto(`${server.url}/`);
    await page.setInputFiles('#file', sample.path);
    await page.waitForURL(/\/jobs\/[0-9a-f]{64}$/);
    const uploaded = page.url().split('/').pop()!;
    const expected = reportPlots(diagnoseLog({ path: sample.name, bytes: readFileSync(sample.path) }, { charts: true }));
    // The service has a model: its learned diagnosis comes first, as a SHAP waterfall.
    await page.waitForFunction((n) => document.querySelectorAll('figure.plot svg').length === n, expected.length + 1);
    for (const id of ['shap-waterfall', ...expected.map((p) => p.id)]) assert.ok((await shapes(page, id)) > 5, `${id} drawn`);
    assert.equal(await page.evaluate(() => document.querySelector('figure.plot')!.id), 'plot-shap-waterfall');
    const segments = await page.evaluate(() => document.querySelectorAll('[data-plot="dxt-timeline-dxt-posix"] svg path').length);
    assert.ok(segments >= 1031, `one shape per DXT segment (${segments})`);
    const text = await page.evaluate(() => document.body.innerText);
    for (const s of ['The model expected', 'io_mibs', 'SHAP waterfall', 'base value', 'POSIX access sizes', 'I/O time per module (average per process)', 'seconds since job start', 'DXT_POSIX offsets over time', 'Findings', '3053']) assert.ok(text.includes(s), s);
    const own = diagnoseLog(sample.path);
    for (const code of own.insights.map((i) => i.code)) assert.ok(text.includes(code), code);
    // The page opens with the report's verdict, with the time model's I/O time.
    assert.ok(text.includes(own.verdict!.text), 'the verdict');
    assert.ok(text.includes(formatSeconds(own.io.ioTime)), 'the I/O time');
    t.diagnostic(`screenshot ${await shot('job-upload')}`);

    // 2. A hostile log dropped on the page: its names are text, nothing runs.
    const hostile = Buffer.from(hostileLog()).toString('base64');
    await page.goto(`${server.url}/`);
    await page.evaluate(
      ([b64, name]) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], name));
        document.getElementById('drop')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      },
      [hostile, `${HOSTILE}.darshan`],
    );
    await page.waitForURL(/\/jobs\/[0-9a-f]{64}$/);
    await page.waitForSelector('[data-plot="dxt-timeline-dxt-posix"] svg');
    const hostileText = await page.evaluate(() => document.body.innerText);
    assert.ok(hostileText.includes('<script>alert(1)<_script>.darshan'), 'the upload name (separators made _) is shown as text');
    assert.ok(hostileText.includes(HOSTILE_EXE), 'the executable is shown as text');
    assert.ok(hostileText.includes(`${HOSTILE}"'&\\x07`), 'file names are shown as text, control characters as escapes');
    assert.ok(!hostileText.includes('\u0007'));
    assert.deepEqual(await page.evaluate(() => [document.querySelectorAll('script').length, document.querySelectorAll('img, iframe, object, embed').length]), [1, 0]);
    // Hovering a DXT segment shows its file name in the tooltip, as text.
    const box = (await page.locator('[data-plot="dxt-timeline-dxt-posix"]').boundingBox())!;
    for (let x = box.x + 100; x < box.x + box.width - 40 && !(await page.evaluate(() => document.body.innerText.includes('rank 0 ·') || document.body.innerText.includes('rank 1 ·'))); x += 6) {
      await page.mouse.move(x, box.y + box.height / 2 - 30);
    }
    t.diagnostic(`screenshot ${await shot('job-hostile')}`);

    // 3. The jobs explorer: sorted, paginated, every row a link.
    await page.goto(`${server.url}/jobs?sort=run_time&order=asc`);
    await page.waitForSelector('#jobs tbody tr');
    const listed = await page.evaluate(() => [...document.querySelectorAll('#jobs tbody tr td:nth-child(5)')].map((td) => td.textContent));
    assert.equal(listed.length, 50);
    assert.match(await page.evaluate(() => document.getElementById('count')!.textContent!), /^302 jobs, 1–50 shown$/);
    // The uploaded sample's row shows the report's I/O time (slowest rank) and its share of the run.
    await page.goto(`${server.url}/jobs?q=${encodeURIComponent(sample.name)}`);
    await page.waitForSelector('#jobs tbody tr');
    const cells = await page.evaluate(() => [...document.querySelectorAll('#jobs thead th, #jobs tbody tr:first-child td')].map((td) => td.textContent));
    const head = cells.slice(0, cells.length / 2);
    const row = cells.slice(cells.length / 2);
    assert.equal(row[head.indexOf('I/O time (slowest rank)')], formatSeconds(own.io.ioTime));
    assert.equal(row[head.indexOf('of the run')], formatPercent(own.io.ioShare!));
    t.diagnostic(`screenshot ${await shot('jobs')}`);

    // 4. The dashboard over the clustered store, then down to a job.
    await page.goto(`${server.url}/dashboard`);
    await page.waitForSelector('[data-plot="cluster-tree"] svg');
    for (const id of ['parallel', 'shap-summary', 'predicted-measured']) {
      await page.waitForSelector(`[data-plot="${id}"] svg`);
      assert.ok((await shapes(page, id)) > 10, `${id} drawn`);
    }
    const api = (await (await fetch(`${server.url}/api/clusters`)).json()) as { nodes: { id: number; jobs: number; selected: boolean; parent: number | null }[] };
    const sel = api.nodes.find((n) => n.selected)!;
    assert.ok((await shapes(page, 'cluster-tree')) >= api.nodes.filter((n) => n.parent !== null).length, 'a box per node');
    assert.match(await page.evaluate(() => document.getElementById('drill')!.textContent!), new RegExp(`^${sel.jobs} jobs →$`));
    t.diagnostic(`screenshot ${await shot('dashboard')}`);
    await page.click('#drill');
    await page.waitForURL(/\/jobs\?run=run-1&node=\d+$/);
    await page.waitForSelector('#jobs tbody tr');
    assert.equal(await page.evaluate(() => document.querySelectorAll('#jobs tbody tr').length), Math.min(50, sel.jobs));
    await page.click('#jobs tbody tr:first-child a');
    await page.waitForURL(/\/jobs\/[0-9a-f]{64}$/);
    await page.waitForSelector('[data-plot="io-time"] svg');
    assert.ok((await page.evaluate(() => document.body.innerText)).includes('Findings'));
    t.diagnostic(`screenshot ${await shot('drill-down-job')}`);

    // 4b. Compare with…: the application's median run (with its history), then another job by hash through the form.
    const drilled = page.url().split('/').pop()!;
    await page.click('#compare a');
    await page.waitForURL(/\/compare\?base=median&other=[0-9a-f]{64}$/);
    await page.waitForSelector('table.compare');
    const median = (await (await fetch(`${server.url}/api/compare?base=median&other=${drilled}`)).json()) as Comparison;
    assert.ok(median.history && median.history.runs > 0, 'the application has other runs in the store');
    const medianText = await page.evaluate(() => document.body.innerText);
    for (const v of verdicts(median)) assert.ok(medianText.includes(v), v);
    assert.ok(medianText.includes(`against ${median.history.app}'s history`));
    assert.equal(await page.evaluate(() => document.querySelectorAll('figure.history .bin.mine').length), median.history.metrics.filter((m) => m.value !== null).length);
    t.diagnostic(`screenshot ${await shot('compare-median')}`);
    await page.goto(`${server.url}/jobs/${drilled}`);
    await page.waitForSelector('#compare form');
    await page.fill('#compare input[name=base]', uploaded);
    await page.click('#compare button');
    await page.waitForURL(new RegExp(`/compare\\?base=${uploaded}&other=${drilled}$`));
    await page.waitForSelector('table.compare');
    const pair = (await (await fetch(`${server.url}/api/compare?base=${uploaded}&other=${drilled}`)).json()) as Comparison;
    assert.equal(pair.base.name.split(' (')[0], sample.name);
    const pairText = await page.evaluate(() => document.body.innerText);
    for (const v of verdicts(pair)) assert.ok(pairText.includes(v), v);
    t.diagnostic(`screenshot ${await shot('compare-jobs')}`);
    const answer = async (q: string) => {
      const r = await fetch(`${server.url}/api/compare?${q}`);
      return [r.status, ((await r.json()) as { error: string }).error];
    };
    assert.deepEqual(await answer(`base=xyz&other=${drilled}`), [400, 'compare names jobs by the SHA-256 of their log (64 hex digits); base may be "median"']);
    assert.deepEqual(await answer(`base=${'0'.repeat(64)}&other=${drilled}`), [404, `no job ${'0'.repeat(64)}`]);

    // 5. The trace page: a trace report JSON opened in the page, then a DFTracer trace uploaded and analysed.
    const dxt = corpusLogs().find((l) => l.name === 'dxt.darshan')!;
    const traceJson = join(dir, 'trace.json');
    writeFileSync(traceJson, JSON.stringify(await diagnoseTrace([dxt.path], { charts: true })));
    await page.goto(`${server.url}/trace`);
    // one file picker for both
    assert.equal(await page.evaluate(() => document.querySelectorAll('input[type=file]').length), 1);
    await page.setInputFiles('#trace-upload', traceJson);
    await page.waitForSelector('[data-plot="trace-timeline"] svg');
    // the findings come before the views and plots they are drawn from
    assert.ok(await page.evaluate(() => {
      const f = document.querySelector('#trace ol.findings'), v = document.querySelector('#views');
      return !!f && !!v && (f.compareDocumentPosition(v) & 4) !== 0; // 4: DOCUMENT_POSITION_FOLLOWING
    }));
    assert.ok((await page.evaluate(() => document.querySelectorAll('#views details.view').length)) > 3);
    assert.ok((await page.evaluate(() => document.body.innerText)).includes(basename(dxt.path)));
    const pfw = join(SHARED, 'traces', 'dftracer', 'cm1_1_48_20240926', 'cm1-DEFAULT-3537816-preload.pfw.gz');
    await page.setInputFiles('#trace-upload', pfw);
    await page.waitForFunction(() => !!document.querySelector('#views') && document.body.innerText.includes('cm1-DEFAULT-3537816-preload.pfw.gz'));
    for (const id of ['trace-categories', 'trace-functions', 'trace-timeline']) await page.waitForSelector(`[data-plot="${id}"] svg`);
    for (const id of ['trace-categories', 'trace-functions', 'trace-timeline']) assert.ok((await shapes(page, id)) > 5, `${id} drawn`);
    t.diagnostic(`screenshot ${await shot('trace')}`);

    assert.deepEqual(w.errors, [], 'no console errors');
    assert.deepEqual(w.dialogs, [], 'no script from a log ran');
    assert.deepEqual(w.outside, [], 'nothing fetched from elsewhere');
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
