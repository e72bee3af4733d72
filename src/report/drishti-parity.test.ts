import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DarshanLog } from '../formats/darshan/index.js';
import { corpusLogs, SHARED } from '../testing/corpus.js';
import { buildReport } from './build-report.js';
import { renderCsv } from '../render/csv.js';
import { bannerRows, detailText } from '../render/text.js';
import { messageFacts, parseDrishtiText } from './testing/drishti-text.js';

const EXAMPLES = join(SHARED, 'drishti-examples');
const logsByName = new Map(corpusLogs().map((l) => [l.name, l.path]));
const cases = existsSync(EXAMPLES) ? readdirSync(EXAMPLES).filter((f) => f.endsWith('.darshan.csv')).map((f) => f.slice(0, -4)).sort() : [];

test('the Drishti examples are all there', () => {
  assert.equal(cases.length, 38);
});

for (const name of cases) {
  test(`--drishti matches Drishti on ${name}`, () => {
    const path = logsByName.get(name);
    assert.ok(path, `log ${name} is in the corpus`);
    const report = buildReport(DarshanLog.open(path), { mode: 'drishti', logName: name });
    const expected = parseDrishtiText(readFileSync(join(EXAMPLES, `${name}.txt`), 'utf8'));

    // Which insights, in which order and panel.
    assert.deepEqual(
      report.insights.map((i) => `${i.panel} ${i.code}`),
      expected.insights.map((i) => `${i.panel} ${i.code}`),
    );
    // The same numbers in messages and detail lines, and the same file names.
    report.insights.forEach((ins, k) => {
      const exp = expected.insights[k];
      assert.deepEqual(messageFacts(ins.message), messageFacts(exp.text), `${ins.code} message: "${ins.message}" vs "${exp.text}"`);
      const ours = ins.details.slice(0, 10).map((d) => messageFacts(detailText(report, d, false).replace(/"([^"]*)"$/, '"$1"')));
      assert.deepEqual(ours, exp.details.map(messageFacts), `${ins.code} details`);
    });
    // Banner counts (levels) and recommendation bullets.
    assert.deepEqual([report.summary.high, report.summary.warn, report.summary.recommendations], [expected.high, expected.warn, expected.recommendations]);
    // Thresholds listed.
    assert.deepEqual(report.thresholds.filter((t) => t.triggered).map((t) => t.knob), expected.thresholds);
    // Banner facts.
    const ours = Object.fromEntries(bannerRows(report));
    for (const k of ['JOB', 'EXECUTABLE', 'DARSHAN', 'EXECUTION TIME', 'FILES', 'PROCESSES']) assert.equal(ours[k], expected.banner[k], k);
    assert.equal((report.job.hints.raw ?? '').split(';').join(' '), expected.banner['HINTS']);
    // The CSV row.
    assert.equal(renderCsv(report), readFileSync(join(EXAMPLES, `${name}.csv`), 'utf8').replace(/\r\n/g, '\n'));
  });
}
