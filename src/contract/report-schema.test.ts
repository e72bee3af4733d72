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

test('upgradeReport: a schema 1 report becomes the schema 2 report of the same log; newer and foreign documents are refused', () => {
  for (const f of goldens()) {
    const current = JSON.parse(readFileSync(join(GOLDEN, f), 'utf8'));
    if (current.input.format !== 'darshan') continue;
    const { input: _i, ...v1 } = { ...current, schemaVersion: 1 };
    assert.deepEqual(upgradeReport(v1), current, f);
    assert.deepEqual(upgradeReport(current), current);
  }
  assert.throws(() => upgradeReport({ schemaVersion: REPORT_SCHEMA_VERSION + 1 }), (e: unknown) => e instanceof FormatError && /newer than this IOLens/.test(e.message));
  assert.throws(() => upgradeReport([1, 2]), FormatError);
  assert.throws(() => upgradeReport({ hello: 1 }), /no schemaVersion/);
});
