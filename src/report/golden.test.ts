import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DarshanLog } from '../formats/darshan/index.js';
import { corpusLogs, REPO_ROOT } from '../testing/corpus.js';
import { buildReport } from './build-report.js';
import type { Mode } from '../contract/index.js';

/** Fixture logs with golden reports: one per family of behaviour (MPI-IO, POSIX-only, STDIO, HDF5, damaged, huge). */
export const GOLDEN_LOGS: readonly [string, Mode][] = [
  ['example.darshan', 'default'],
  ['example.darshan', 'drishti'],
  ['imbalanced-io.darshan', 'default'],
  ['ior-hdf5-indep-small-write-4k.darshan', 'default'],
  ['ior-random-read-1k.darshan', 'default'],
  ['iopat-stdio-small-records.darshan', 'default'],
  ['iopat-meta-heavy-fpp.darshan', 'default'],
  ['skew-app.darshan', 'default'],
  ['partial_data_dxt.darshan', 'drishti'],
  ['dxt.darshan', 'default'],
];

const DIR = join(REPO_ROOT, 'fixtures', 'golden');
const paths = new Map(corpusLogs().map((l) => [l.name, l.path]));

for (const [name, mode] of GOLDEN_LOGS) {
  test(`golden report: ${name} (${mode})`, () => {
    const report = buildReport(DarshanLog.open(paths.get(name)!), { mode, logName: name, toolVersion: 'golden' });
    const text = `${JSON.stringify(report, null, 2)}\n`;
    const file = join(DIR, `${name.replace(/\.darshan$/, '')}.${mode}.report.json`);
    if (process.env.IOLENS_UPDATE_GOLDEN) {
      mkdirSync(DIR, { recursive: true });
      writeFileSync(file, text);
    }
    assert.ok(existsSync(file), `${file} exists (IOLENS_UPDATE_GOLDEN=1 writes it)`);
    assert.equal(text, readFileSync(file, 'utf8'));
  });
}
