import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DarshanLog } from '../formats/darshan/index.js';
import { synthesizeLog } from '../formats/darshan/synth.js';
import { writeLog } from '../formats/darshan/writer.js';
import { buildReport } from '../report/build-report.js';
import { corpusLogs } from '../testing/corpus.js';
import { renderHtml } from './html.js';

// The HTML report in a real browser (Debian's Chromium, driven by playwright-core; .ci/run installs it).
const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium package`);

const HOSTILE = '<script>alert(1)</script>';

function hostileLog(): Uint8Array {
  const input = synthesizeLog({ posixFiles: 3, nprocs: 2, exe: `<img src=x onerror=alert(2)> ./app ${HOSTILE}` });
  // File names are bytes the application chose: put markup in one.
  const names = [...input.names].map(([id, n]) => [id, n.replace('shared.0.dat', `${HOSTILE}&amp;"'.dat`)] as const);
  return writeLog({ ...input, names });
}

test('the HTML report renders in Chromium: self-contained, log text shown as text, nothing executed', { skip: !available && 'Chromium is not installed' }, async () => {
  const { chromium } = await import('playwright-core');
  const dir = mkdtempSync(join(tmpdir(), 'iolens-html-'));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const sample = corpusLogs().find((l) => l.name === 'ior-hdf5-indep-small-write-4k.darshan')!;
    const cases = [
      { name: 'sample', log: DarshanLog.open(sample.path), logName: sample.name },
      { name: 'hostile', log: DarshanLog.fromBytes(hostileLog()), logName: `${HOSTILE}.darshan` },
    ];
    for (const c of cases) {
      const report = buildReport(c.log, { mode: 'default', logName: c.logName, toolVersion: 'test' });
      const file = join(dir, `${c.name}.html`);
      writeFileSync(file, renderHtml(report, { verbose: true }));
      const page = await browser.newPage();
      const dialogs: string[] = [];
      const requests: string[] = [];
      const errors: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      page.on('request', (r) => {
        if (!r.url().startsWith('file:')) requests.push(r.url());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(pathToFileURL(file).href);
      const text = (await page.evaluate('document.body.innerText')) as string;
      const scripts = (await page.evaluate("document.querySelectorAll('script, img, iframe, object').length")) as number;
      assert.deepEqual(dialogs, [], `${c.name}: no script ran`);
      assert.deepEqual(requests, [], `${c.name}: the page loads nothing from outside`);
      assert.deepEqual(errors, [], `${c.name}: no page errors`);
      assert.equal(scripts, 0, `${c.name}: no active elements`);
      assert.match(await page.title(), /^IOLens report /);
      for (const insight of report.insights) assert.ok(text.includes(insight.code), `${c.name}: ${insight.code} shown`);
      if (c.name === 'sample') {
        assert.ok(text.includes('3053'), 'job id shown');
        assert.ok(text.includes('testFile.h5'), 'file names shown');
      } else {
        assert.ok(text.includes(HOSTILE), 'markup from the log is shown as text');
        assert.ok(text.includes('<img'), 'the executable (its first word) is shown as text');
      }
      const shot = await page.screenshot({ fullPage: true });
      assert.ok(shot.length > 10_000, `${c.name}: the page rendered (${shot.length}-byte screenshot)`);
      await page.close();
    }
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
