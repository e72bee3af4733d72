import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DarshanLog } from '../formats/darshan/index.js';
import { corpusLogs } from '../testing/corpus.js';
import { buildReport } from '../report/build-report.js';
import type { Report } from '../contract/index.js';
import { renderTerminal } from './terminal.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { renderCsv } from './csv.js';
import { escapeCsv, escapeHtml, escapeTerminal } from '../text/escape.js';

const path = corpusLogs().find((l) => l.name === 'imbalanced-io.darshan')!.path;
const report = buildReport(DarshanLog.open(path), { mode: 'drishti', logName: 'imbalanced-io.darshan' });

/** A report whose strings carry markup and control characters, as a hostile log could. */
function hostile(r: Report): Report {
  const evil = '<script>alert(1)</script>\u001b[31m|*_';
  return { ...r, job: { ...r.job, exe: evil, logName: evil }, insights: r.insights.map((i) => ({ ...i, details: i.details.map((d) => ({ ...d, message: evil, subject: { kind: 'file' as const, id: '1', name: evil } })) })) };
}

test('terminal: every line has the requested width, no colour unless asked', () => {
  for (const width of [80, 200]) {
    const text = renderTerminal(report, { width, showCodes: true });
    assert.ok(!text.includes('\u001b['), 'no ANSI escapes');
    for (const line of text.split('\n').filter((l) => /^[│╭╰]/.test(l))) assert.equal([...line].length, width, line);
    assert.match(text, /▶ \[P05\]/);
    assert.match(text, /9 critical issues, 2 warnings, and 18 recommendations/);
  }
  assert.ok(renderTerminal(report, { color: true }).includes('\u001b['));
});

test('terminal: --issues hides recommendations, --path shows full names, --threshold lists all', () => {
  assert.ok(!renderTerminal(report, { issuesOnly: true }).includes('Recommendations:'));
  assert.ok(renderTerminal(report, { width: 200, fullPath: true }).includes('/lus/theta-fs0/3981085427'));
  assert.ok(!renderTerminal(report, { width: 200 }).includes('/lus/theta-fs0/3981085427'));
  const all = renderTerminal(report, { width: 200, allThresholds: true });
  assert.equal(all.split('\n').filter((l) => / above:/.test(l) || /below:/.test(l)).length, 13);
});

test('untrusted strings are escaped in every format', () => {
  const h = hostile(report);
  assert.ok(!renderTerminal(h, { width: 120 }).includes('\u001b'));
  const html = renderHtml(h, {});
  assert.ok(!html.includes('<script>'));
  assert.ok(html.includes('&lt;script&gt;'));
  assert.ok(!renderMarkdown(h, {}).includes('<script>'));
  assert.equal(escapeTerminal('a\u0007b'), 'a\\x07b');
  assert.equal(escapeHtml('"&'), '&quot;&amp;');
  assert.equal(escapeCsv('=1+2'), "'=1+2");
  assert.equal(escapeCsv('a,b'), '"a,b"');
});

test("CSV: Drishti's header and one True/False row", () => {
  const [header, row] = renderCsv(report).trim().split('\n');
  assert.equal(header.split(',').length, 33);
  assert.equal(row, '1452113755,False,False,True,False,False,True,True,True,True,False,False,False,True,False,True,True,True,False,True,True,True,False,False,False,False,True,True,True,True,False,False,False');
});
