import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../testing/corpus.js';
import { synthesizeLog } from '../formats/darshan/synth.js';
import { writeLog } from '../formats/darshan/writer.js';
import { renderReport } from '../render/registry.js';
import type { Report } from '../contract/index.js';
import { diagnoseLog } from '../pipeline/diagnose.js';
import { reportSchemaErrors } from '../testing/schema.js';

const cli = (args: string[]) => spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'report', ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

test('the terminal and Markdown outputs, built with at most 10 details per finding, print what the full JSON report renders to', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-details-'));
  try {
    const log = join(dir, 's300.darshan');
    writeFileSync(log, writeLog(synthesizeLog({ posixFiles: 300, nprocs: 8 })));
    for (const mode of [[], ['--drishti']]) {
      const json = cli([...mode, '--json', log]);
      assert.equal(json.status, 0, json.stderr);
      const full = JSON.parse(json.stdout) as Report;
      assert.ok(full.insights.every((f) => f.detailsOmitted === undefined), 'the JSON report lists every detail');
      // Drishti's checks name a few files each; the default mode's D12 names 158 here.
      const most = Math.max(0, ...full.insights.map((f) => f.details.length));
      if (mode.length === 0) assert.ok(most > 100, `a finding names more than 100 files (${most})`);
      // What the CLI prints when standard output is not a terminal: 80 columns, no colour.
      const opts = { width: 80, color: false };
      const term = cli([...mode, log]);
      assert.equal(term.status, 0, term.stderr);
      assert.equal(term.stdout, renderReport(full, 'terminal', opts));
      if (most > 10) assert.match(term.stdout, new RegExp(`… and ${most - 10} more \\(see --json\\)`));
      const md = cli([...mode, '--markdown', '--code', log]);
      assert.equal(md.stdout, renderReport(full, 'markdown', { ...opts, showCodes: true }));
      if (most > 10) assert.match(md.stdout, new RegExp(`… and ${most - 10} more`));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a report built with a detail limit is a valid report; HTML says how many details it does not list', () => {
  const bytes = writeLog(synthesizeLog({ posixFiles: 300, nprocs: 8 }));
  const cut = diagnoseLog({ path: 's300.darshan', bytes }, { detailLimit: 10, snippets: false });
  assert.deepEqual(reportSchemaErrors(cut), []);
  const d12 = cut.insights.find((f) => f.code === 'D12')!;
  assert.equal(d12.details.length, 10);
  assert.equal(d12.detailsOmitted, 148);
  assert.equal(d12.data.files, 158, 'the message counts every file');
  assert.match(renderReport(cut, 'html'), /<li>… and 148 more<\/li><\/ul>/);
});
