import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPORT_SCHEMA_VERSION } from '../contract/index.js';
import { REPO_ROOT } from '../testing/corpus.js';
import { openStore } from './db.js';
import { jobWithReport, storeUploads } from './queries/jobs.js';
import { reportByHash, upgradeStoredReport } from './queries/reports.js';

// Every stored report is read through the report upgrader: a document of an earlier report schema comes back as
// today's Report; one the upgrader refuses (not JSON, not a report, a newer schema) reads as no stored report.

const V2 = readFileSync(join(REPO_ROOT, 'fixtures', 'report-v2', 'ior-hdf5-indep-small-write-4k.default.report.json'), 'utf8');
const hashOf = (c: string) => c.repeat(64);

test('stored reports come back upgraded to the current report schema', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-reports-'));
  const s = await openStore(join(dir, 'r.duckdb'));
  try {
    assert.equal((JSON.parse(V2) as { schemaVersion: number }).schemaVersion, 2);
    const newer = JSON.stringify({ ...(JSON.parse(V2) as object), schemaVersion: REPORT_SCHEMA_VERSION + 1 });
    const docs = [V2, 'not json', '{"tool":"other"}', newer];
    const batch = docs.map((report, i) => ({ hash: hashOf('abcd'[i]), row: JSON.stringify({ hash: hashOf('abcd'[i]), app: 'ior' }), report, version: '0.0.1' }));
    assert.deepEqual([...(await storeUploads(s, batch))].sort(), batch.map((b) => b.hash));
    const up = await reportByHash(s, hashOf('a'));
    assert.equal(up?.schemaVersion, REPORT_SCHEMA_VERSION);
    assert.equal(up?.input.format, 'darshan');
    assert.ok(up?.notes.some((n) => /upgraded from report schema 2/.test(n)));
    for (const c of 'bcd') assert.equal(await reportByHash(s, hashOf(c)), null, `document ${c}`);
    assert.equal(await reportByHash(s, hashOf('e')), null);
    const job = await jobWithReport(s, hashOf('a'));
    assert.equal(job?.row.app, 'ior');
    assert.equal(job?.report?.schemaVersion, REPORT_SCHEMA_VERSION);
    // A second batch with the same hashes adds nothing and keeps the first documents.
    assert.deepEqual([...(await storeUploads(s, batch))], []);
  } finally {
    s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('upgradeStoredReport: only text that parses into a report the upgrader accepts', () => {
  assert.equal(upgradeStoredReport(null), null);
  assert.equal(upgradeStoredReport('[]'), null);
  assert.equal(upgradeStoredReport(V2)?.schemaVersion, REPORT_SCHEMA_VERSION);
});
