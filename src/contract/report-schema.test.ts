import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../testing/corpus.js';
import { reportSchemaErrors } from '../testing/schema.js';
import { REPORT_JSON_SCHEMA } from './report-schema.js';
import { REPORT_SCHEMA_VERSION } from './report.js';
import { upgradeReport } from './upgrade.js';
import { FormatError } from './errors.js';

const PUBLISHED = join(REPO_ROOT, 'docs', 'report.schema.json');
const GOLDEN = join(REPO_ROOT, 'fixtures', 'golden');
const goldens = () => readdirSync(GOLDEN).filter((f) => f.endsWith('.report.json')).sort();

test('docs/report.schema.json is the schema of the code (IOLENS_UPDATE_GOLDEN=1 rewrites it)', () => {
  const text = `${JSON.stringify(REPORT_JSON_SCHEMA, null, 2)}\n`;
  if (process.env.IOLENS_UPDATE_GOLDEN === '1' || !existsSync(PUBLISHED)) writeFileSync(PUBLISHED, text);
  assert.equal(readFileSync(PUBLISHED, 'utf8'), text);
});

test('every golden report validates against the published schema', () => {
  const names = goldens();
  assert.ok(names.length >= 10, `golden reports: ${names.length}`);
  for (const f of names) assert.deepEqual(reportSchemaErrors(JSON.parse(readFileSync(join(GOLDEN, f), 'utf8'))), [], f);
});

test('the schema rejects what the types forbid: unknown fields, bad levels, missing fields', () => {
  const doc = JSON.parse(readFileSync(join(GOLDEN, goldens()[0]), 'utf8'));
  assert.notDeepEqual(reportSchemaErrors({ ...doc, extra: 1 }), []);
  assert.notDeepEqual(reportSchemaErrors({ ...doc, insights: [{ ...doc.insights[0], level: 'CRITICAL' }] }), []);
  const { summary: _s, ...noSummary } = doc;
  assert.notDeepEqual(reportSchemaErrors(noSummary), []);
});

const V2 = join(REPO_ROOT, 'fixtures', 'report-v2');

test('upgradeReport: reports of schema 2 (written by the previous release) and 1 become current; newer and foreign documents are refused', () => {
  const names = readdirSync(V2).filter((f) => f.endsWith('.json')).sort();
  assert.ok(names.length >= 2, 'a Darshan report and a trace report of schema 2');
  for (const f of names) {
    const v2 = JSON.parse(readFileSync(join(V2, f), 'utf8'));
    assert.equal(v2.schemaVersion, 2);
    const up = upgradeReport(v2);
    assert.deepEqual(reportSchemaErrors(up), [], f);
    assert.equal(up.schemaVersion, REPORT_SCHEMA_VERSION);
    // what schema 2 said carries over; a time share becomes seconds of the I/O time summed over ranks
    assert.deepEqual(up.insights.map((i) => [i.code, i.level, i.message]), v2.insights.map((i: { code: string; level: string; message: string }) => [i.code, i.level, i.message]), f);
    v2.insights.forEach((old: { cost?: { share: number; basis: string } }, k: number) => {
      const now = up.insights[k].cost;
      if (old.cost?.basis === 'time') assert.ok(now && Math.abs(now.seconds - old.cost.share * up.io.cumulativeIoTime) < 1e-12 && now.ioShare === old.cost.share, `${f} ${k}`);
      else assert.equal(now, undefined, `${f} ${k}: a share of bytes or requests is not seconds`);
    });
    assert.deepEqual([up.io.ioTime, up.io.runTime, up.io.bytes], [v2.io.ioTime, v2.io.runTime, v2.io.bytes]);
    assert.deepEqual(up.io.breakdown, []);
    assert.match(up.notes[up.notes.length - 1], /upgraded from report schema 2/);
    assert.deepEqual(upgradeReport(up), up, 'a current report is left as it is');
    // schema 1 had no input section: it upgrades through 2
    if (v2.input.format === 'darshan') {
      const { input: _i, ...v1 } = { ...v2, schemaVersion: 1 };
      assert.deepEqual(upgradeReport(v1), up, f);
    }
  }
  assert.throws(() => upgradeReport({ schemaVersion: REPORT_SCHEMA_VERSION + 1 }), (e: unknown) => e instanceof FormatError && /newer than this IOLens/.test(e.message));
  assert.throws(() => upgradeReport([1, 2]), FormatError);
  assert.throws(() => upgradeReport({ hello: 1 }), /no schemaVersion/);
});
