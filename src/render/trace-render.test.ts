import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfig } from '../config/defaults.js';
import { TRACE_DIMS, TRACE_METRICS } from '../contract/index.js';
import { handCube, HandTrace } from '../testing/trace-events.js';
import { TRACE_CHECKS } from '../checks/trace/registry.js';
import { buildTraceReport } from '../report/trace-report.js';
import { RENDERERS } from './registry.js';

const MiB = 1024 * 1024;
const U = 2 ** -10;
// file names and process labels are bytes the traced application chose
const EVIL_FILE = '/scratch/=HYPERLINK("x")\u001b[31m\u202e.dat';
const EVIL_PROC = '@rank\u0007';

function traceReport() {
  const t = new HandTrace().calls('9', '/bg/base', 200, { size: 2 * MiB, seconds: U }).calls(EVIL_PROC, EVIL_FILE, 3, { size: 2 * MiB, seconds: 16 * U });
  const { cube, dicts, read } = handCube(t.events);
  return buildTraceReport(cube, dicts, read, ['<b>trace.pfw'], { views: ['file', 'proc'], metric: 'iops_slope', top: 10, layers: ['POSIX'], config: defaultConfig(), checks: TRACE_CHECKS, toolVersion: 'test' });
}

test('the renderer registry shows a trace report with its views (terminal, CSV) and its findings (HTML, Markdown, JSON)', () => {
  const r = traceReport();
  assert.deepEqual(r.insights.map((i) => i.code), ['T11']);
  const term = RENDERERS.terminal(r, { color: false });
  assert.match(term, /^I\/O characteristics — dxt trace, 203 events from 1 source$/m);
  assert.match(term, /^ {2}\[WARN\] T11 Reads and writes take more than 10\.00 ms on average and move their bytes more than 2 times slower than the trace does overall \(1\.64 GiB\/s\) in 2 flagged record\(s\)/m);
  assert.match(term, /^ {9}↪ Cost: at most 43\.30 ms, 17\.9% of the I\/O time and 8\.9% of the run \(summed over ranks\); an upper bound/m);
  assert.match(term, /^ {2}I\/O time {10}195\.31 ms on the slowest rank, 80\.6% of the run; 242\.19 ms summed over 2 ranks; 406 MiB moved$/m);
  assert.match(term, /metadata not recorded {2}sync not recorded/);
  assert.match(term, /^▸ file: 1 of 2 records flagged$/m);
  assert.match(term, /^ {2}WARN {2}file=/m);
  assert.match(term, /level by what the record's calls cost: HIGH ≥ 25\.0% of the job's I\/O time and ≥ 5\.0% of the run, WARN when it costs measurable time, INFO below/);
  assert.ok(RENDERERS.terminal(r, { color: true }).includes('\u001b[1m\u001b[33m[WARN]'), 'colour only when asked');
  const csv = RENDERERS.csv(r).trim().split('\n');
  assert.equal(csv[0], ['view', 'file', 'proc', 'window', 'app', 'host', 'dir', 'pattern', 'level', 'badness', 'value_iops_slope', ...TRACE_METRICS, 'findings', 'messages'].join(','));
  assert.equal(csv.length, 3, 'the flagged file and the flagged process');
  assert.equal(csv[0].split(',').length, 1 + TRACE_DIMS.length + 3 + TRACE_METRICS.length + 2);
  const html = RENDERERS.html(r, {});
  assert.match(html, /<th>TRACE<\/th><td>dxt: &lt;b&gt;trace.pfw<\/td>/);
  assert.match(html, /T11/);
  assert.match(RENDERERS.markdown(r, {}), /\| TRACE \| dxt: /);
  assert.deepEqual(JSON.parse(RENDERERS.json(r)), JSON.parse(JSON.stringify(r)));
});

test('trace strings are escaped in the terminal and the CSV', () => {
  const r = traceReport();
  const term = RENDERERS.terminal(r, { color: false });
  assert.ok(!/[\u0007\u001b\u202e]/.test(term), 'no control or bidi character reaches the terminal');
  assert.ok(term.includes('file=/scratch/=HYPERLINK("x")\\x1b[31m\\u202e.dat'));
  assert.ok(term.includes('proc=@rank\\x07'));
  const csv = RENDERERS.csv(r);
  assert.ok(!/[\u0007\u001b\u202e]/.test(csv));
  const rows = csv.trim().split('\n').slice(1);
  const proc = rows.find((l) => l.startsWith('proc,'))!;
  // a field a spreadsheet would run as a formula gets a leading apostrophe
  assert.match(proc, /^proc,,'@rank\\x07,/);
});
