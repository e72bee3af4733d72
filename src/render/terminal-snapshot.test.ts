import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DarshanLog } from '../formats/darshan/index.js';
import { buildReport } from '../report/build-report.js';
import type { Mode } from '../contract/index.js';
import { corpusLogs, REPO_ROOT } from '../testing/corpus.js';
import { renderTerminal } from './terminal.js';

// Terminal output snapshots at two widths, colour off (as when piped). IOLENS_UPDATE_GOLDEN=1 rewrites them;
// review the diff like any other change.
const CASES: readonly [string, Mode][] = [
  ['ior-hdf5-indep-small-write-4k.darshan', 'default'],
  ['example.darshan', 'drishti'],
  ['iopat-straggler-fsync-write.darshan', 'default'],
];
const DIR = join(REPO_ROOT, 'fixtures', 'golden');
const paths = new Map(corpusLogs().map((l) => [l.name, l.path]));

for (const [name, mode] of CASES) {
  for (const width of [80, 200]) {
    test(`terminal snapshot: ${name} (${mode}, width ${width})`, () => {
      const report = buildReport(DarshanLog.open(paths.get(name)!), { mode, logName: name, toolVersion: 'golden' });
      const text = renderTerminal(report, { width, color: false });
      for (const line of text.split('\n')) assert.ok([...line].length <= width, `line longer than ${width}: ${line}`);
      const file = join(DIR, `${name.replace(/\.darshan$/, '')}.${mode}.w${width}.txt`);
      if (process.env.IOLENS_UPDATE_GOLDEN) {
        mkdirSync(DIR, { recursive: true });
        writeFileSync(file, text);
      }
      assert.ok(existsSync(file), `${file} exists (IOLENS_UPDATE_GOLDEN=1 writes it)`);
      assert.equal(text, readFileSync(file, 'utf8'));
    });
  }
}
