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
import { featureName } from '../text/feature-names.js';
import type { Report } from '../contract/index.js';
import { makeArchive } from '../store/synth-archive.js';
import { saveBundle } from '../models/index.js';
import { corpusLogs, REPO_ROOT, SHARED } from '../testing/corpus.js';
import { startServer } from './app.js';
import { prepareStore } from './sample.js';
import { clusterStore } from '../clustering/index.js';

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
// IOLENS_UPDATE_SCREENSHOTS=1: also write the screenshots of docs/serve.md (docs/img/, the viewport only).
const DOCS_IMG = process.env.IOLENS_UPDATE_SCREENSHOTS ? join(REPO_ROOT, 'docs', 'img') : null;

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

/** The texts of a plot's SVG with their boxes (page coordinates). */
const texts = (page: Page, id: string) =>
  page.evaluate(
    (sel) =>
      [...document.querySelectorAll(`${sel} svg text`)].map((t: any) => { // eslint-disable-line @typescript-eslint/no-explicit-any
        const r = t.getBoundingClientRect();
        return { text: t.textContent as string, x: r.x as number, y: r.y as number, w: r.width as number, h: r.height as number };
      }),
    `[data-plot="${id}"]`,
  );

/** Pairs of boxes that overlap (by more than half a pixel each way). */
function overlaps(boxes: { text: string; x: number; y: number; w: number; h: number }[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (a.x + a.w - 0.5 > b.x && b.x + b.w - 0.5 > a.x && a.y + a.h - 0.5 > b.y && b.y + b.h - 0.5 > a.y) out.push(`${a.text} / ${b.text}`);
    }
  return out;
}

/** Seconds of a time-axis label (`600.00 ms`, `1.20 s`, `0 s`), else null. */
function seconds(label: string): number | null {
  const m = /^(\d+(?:\.\d+)?) (µs|ms|s)$/.exec(label.trim());
  return m ? Number(m[1]) * (m[2] === 's' ? 1 : m[2] === 'ms' ? 1e-3 : 1e-6) : null;
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
  // A second, finer clustering (run-2): a deep hierarchy of many small nodes, whose labels must not pile up.
  await clusterStore({ db, minClusterSize: 5, models: { minRows: 30 }, note: 'fine', threads: 1 });
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
    for (const s of ['The model expected', 'io_mibs', 'SHAP waterfall', 'base value', 'POSIX access sizes', 'I/O time per module (average per process)', 'seconds since job start', 'DXT_POSIX offsets over time', 'Findings', '3053', 'Fixing it would save about']) assert.ok(text.includes(s), s);
    const own = diagnoseLog(sample.path);
    for (const code of own.insights.map((i) => i.code)) assert.ok(text.includes(code), code);
    // The page opens with the report's verdict, with the time model's I/O time.
    assert.ok(text.includes(own.verdict!.text), 'the verdict');
    assert.ok(text.includes(formatSeconds(own.io.ioTime)), 'the I/O time');
    t.diagnostic(`screenshot ${await shot('job-upload')}`);

    // 1b. Pictures people read. The waterfall names each feature in words (the one name table) and cuts none.
    const served = ((await (await fetch(`${server.url}/api/jobs/${uploaded}`)).json()) as { report: Report }).report;
    const waterfall = (await texts(page, 'shap-waterfall')).map((x) => x.text);
    assert.ok(!waterfall.some((x) => /…|\.\.\.$/.test(x)), `no label cut: ${waterfall.join(' | ')}`);
    const joined = waterfall.join(' ').replace(/\s+/g, ' ');
    const named = served.learned!.contributors.filter((c) => c.shap !== 0).slice(0, 12).map((c) => featureName(c.feature).name);
    for (const n of named) assert.ok(joined.includes(`${n} = `), `waterfall names ${n}`);
    assert.ok(!/\b(aiio|gauge)_/.test(joined), 'no raw column names');
    // Each rank heatmap's colour bar has five labels with byte values.
    const heatmaps = expected.filter((p) => /^heatmap-(?!timeline)/.test(p.id)).map((p) => p.id);
    assert.ok(heatmaps.length >= 2);
    for (const id of heatmaps) {
      const bands = (await texts(page, id)).filter((x) => /^\d[\d.]* [KMGT]?i?B – \d[\d.]* [KMGT]?i?B$/.test(x.text));
      assert.equal(bands.length, 5, `${id}: colour bar labels ${bands.map((b) => b.text).join(', ')}`);
    }
    // Time axes end at the job's end: no tick past it by more than one tick step (a HEATMAP bin of 0.1 s).
    const end = Math.max(served.io.runTime, ...(served.charts?.dxt ?? []).flatMap((d) => [...d.end.slice(0, d.shown)]));
    for (const id of ['heatmap-timeline', ...heatmaps, 'dxt-timeline-dxt-posix', 'dxt-offsets-dxt-posix']) {
      const ticks = (await texts(page, id)).map((x) => seconds(x.text)).filter((v): v is number => v !== null);
      assert.ok(ticks.length >= 3, `${id}: time ticks`);
      const step = Math.min(...ticks.slice(1).map((v, i) => v - ticks[i]).filter((d) => d > 0));
      assert.ok(Math.max(...ticks) <= end + Math.max(step, 0.1) + 1e-6, `${id}: last tick ${Math.max(...ticks)} s, the job ends at ${end} s`);
    }
    if (DOCS_IMG) {
      mkdirSync(DOCS_IMG, { recursive: true });
      await page.evaluate(() => document.getElementById('plots')!.scrollIntoView({ block: 'start' }));
      writeFileSync(join(DOCS_IMG, 'serve-job.png'), await page.screenshot({ clip: { x: 0, y: 0, width: 1400, height: 900 } }));
      await page.evaluate(() => document.getElementById('plot-heatmap-timeline')!.scrollIntoView({ block: 'start' }));
      writeFileSync(join(DOCS_IMG, 'serve-job-time.png'), await page.screenshot({ clip: { x: 0, y: 0, width: 1400, height: 900 } }));
    }

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
    // An ingested job of many ranks: its I/O time is the time model's slowest rank, as its report says, not the sum.
    const many = ((await (await fetch(`${server.url}/api/jobs?sort=nprocs&order=desc&limit=20`)).json()) as { jobs: { hash: string; job_id: number; io_time: number; io_time_cumulative: number }[] }).jobs.find(
      (j) => j.io_time_cumulative > 1.5 * j.io_time,
    )!;
    assert.ok(many, 'a job whose summed I/O time differs from its slowest rank');
    const manyReport = ((await (await fetch(`${server.url}/api/jobs/${many.hash}`)).json()) as { report: Report }).report;
    await page.goto(`${server.url}/jobs?q=${many.job_id}`);
    await page.waitForSelector('#jobs tbody tr');
    const manyHead = await page.evaluate(() => [...document.querySelectorAll('#jobs thead th')].map((th) => th.textContent));
    const manyRow = await page.evaluate((id) => [...document.querySelectorAll('#jobs tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)).find((r) => r[0] === id), String(many.job_id));
    assert.ok(manyRow, `the row of job ${many.job_id}`);
    assert.equal(manyRow[manyHead.indexOf('I/O time (slowest rank)')], formatSeconds(manyReport.io.ioTime));
    assert.notEqual(formatSeconds(manyReport.io.ioTime), formatSeconds(manyReport.io.cumulativeIoTime));
    t.diagnostic(`screenshot ${await shot('jobs')}`);

    // 4. The dashboard over the clustered store, then down to a job.
    await page.goto(`${server.url}/dashboard?run=run-1`);
    await page.waitForSelector('[data-plot="cluster-tree"] svg');
    for (const id of ['parallel', 'shap-summary', 'predicted-measured']) {
      await page.waitForSelector(`[data-plot="${id}"] svg`);
      assert.ok((await shapes(page, id)) > 10, `${id} drawn`);
    }
    const api = (await (await fetch(`${server.url}/api/clusters?run=run-1`)).json()) as { nodes: { id: number; jobs: number; selected: boolean; parent: number | null }[] };
    const sel = api.nodes.find((n) => n.selected)!;
    assert.ok((await shapes(page, 'cluster-tree')) >= api.nodes.filter((n) => n.parent !== null).length, 'a box per node');
    assert.match(await page.evaluate(() => document.getElementById('drill')!.textContent!), new RegExp(`^${sel.jobs} jobs →$`));
    // The hierarchy's labels: some shown, none overlapping another, at the full width and at a narrow one.
    const treeLabels = async () => {
      const ls = await texts(page, 'cluster-tree');
      assert.ok(ls.length >= 3, `labels: ${ls.map((l) => l.text).join(', ')}`);
      assert.deepEqual(overlaps(ls), [], 'hierarchy labels overlap');
      // … and are not stacked line on line (the treemap piled nested nodes' headers 4 px apart in their shared
      // corner) nor cut: labels above one another are at least half a line apart.
      assert.deepEqual(ls.filter((l) => /…|\.\.\.$/.test(l.text)).map((l) => l.text), [], 'cut labels');
      const stacked = ls.flatMap((a) => ls.filter((b) => b !== a && a.x < b.x + b.w && b.x < a.x + a.w && b.y >= a.y && b.y - (a.y + a.h) < a.h / 2).map((b) => `${a.text} / ${b.text}`));
      assert.deepEqual(stacked, [], 'labels stacked');
      return ls.length;
    };
    const wide = await treeLabels();
    // The hierarchy's colour bar: five values, in MiB/s, then in seconds when coloured by I/O time.
    const ticks = () => page.evaluate(() => [...document.querySelectorAll('#colour-bar .tick')].map((x) => x.textContent as string));
    const mibs = await ticks();
    assert.equal(mibs.filter((x) => /^\d[\d.]* MiB\/s$/.test(x)).length, 5, mibs.join(', '));
    await page.selectOption('#colour', 'io');
    const secs = await ticks();
    assert.equal(secs.filter((x) => seconds(x) !== null || /^\d+ h \d+ min$/.test(x)).length, 5, secs.join(', '));
    await page.selectOption('#colour', 'throughput');
    // The parallel coordinates: an axis per feature named in words, ticks in units (bytes, %, counts), no sign·log10.
    const nodeRows = (await (await fetch(`${server.url}/api/clusters/run-1/nodes/${sel.id}`)).json()) as { features: string[] };
    const parallel = (await texts(page, 'parallel')).map((x) => x.text);
    const axisNames = nodeRows.features.map((f) => featureName(f).name).filter((n) => parallel.some((x) => x.replace(/\s+/g, ' ') === n) || parallel.join(' ').includes(n));
    assert.ok(axisNames.length >= Math.min(12, nodeRows.features.length), `axes named in words: ${axisNames.join(', ')}`);
    assert.ok(!parallel.some((x) => /\b(gauge|aiio)_/.test(x)), 'no raw column names');
    assert.ok(parallel.filter((x) => /\d(%| [KMGT]?i?B)$/.test(x)).length >= 5, 'ticks in units');
    assert.ok(!(await page.evaluate(() => document.body.innerText)).includes('sign·log10'));
    const summary = (await texts(page, 'shap-summary')).map((x) => x.text);
    assert.ok(!summary.some((x) => /…|\.\.\.$/.test(x)), `SHAP summary labels not cut: ${summary.join(' | ')}`);
    assert.ok((await page.evaluate(() => document.body.innerText)).includes('Predicted vs measured I/O throughput'));
    assert.deepEqual((await texts(page, 'predicted-measured')).map((x) => x.text).filter((x) => /^(measured|predicted) /.test(x)).sort(), ['measured (MiB/s)', 'predicted (MiB/s)']);
    t.diagnostic(`screenshot ${await shot('dashboard')}`);
    if (DOCS_IMG) writeFileSync(join(DOCS_IMG, 'serve-dashboard.png'), await page.screenshot({ clip: { x: 0, y: 0, width: 1400, height: 860 } }));
    await page.setViewportSize({ width: 520, height: 1000 });
    await page.waitForTimeout(300);
    const narrow = await treeLabels();
    await page.setViewportSize({ width: 1400, height: 1000 });
    // The finer run's deep hierarchy, at both widths.
    const fine = (await (await fetch(`${server.url}/api/clusters?run=run-2`)).json()) as { nodes: unknown[] };
    await page.goto(`${server.url}/dashboard?run=run-2`);
    await page.waitForSelector('[data-plot="cluster-tree"] svg text');
    const deepWide = await treeLabels();
    await page.setViewportSize({ width: 520, height: 1000 });
    await page.waitForTimeout(300);
    const deepNarrow = await treeLabels();
    await page.setViewportSize({ width: 1400, height: 1000 });
    t.diagnostic(`hierarchy labels, none overlapping: run-1 ${wide} at 1400 px, ${narrow} at 520 px; run-2 (${fine.nodes.length} nodes) ${deepWide} and ${deepNarrow}`);
    await page.goto(`${server.url}/dashboard?run=run-1&node=${sel.id}`);
    await page.waitForSelector('#drill');
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
    if (DOCS_IMG) writeFileSync(join(DOCS_IMG, 'serve-trace.png'), await page.screenshot());

    assert.deepEqual(w.errors, [], 'no console errors');
    assert.deepEqual(w.dialogs, [], 'no script from a log ran');
    assert.deepEqual(w.outside, [], 'nothing fetched from elsewhere');
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
