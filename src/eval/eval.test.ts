import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, SHARED } from '../testing/corpus.js';
import { evaluateDirectory, formatEvaluation } from './evaluate.js';
import { labelTokens, parseManifest } from './manifest.js';

const DIR = join(SHARED, 'darshan-logs', 'generated');

test('MANIFEST parsing: label tokens leave parenthesised notes and free text out', () => {
  assert.deepEqual(labelTokens('small-writes, excessive-fsync (fsync after every write)'), ['small-writes', 'excessive-fsync']);
  assert.deepEqual(labelTokens('healthy (improved: one MPI_File_write_at_all over a vector file view; ROMIO aggregates (into one) write)'), ['healthy']);
  assert.deepEqual(labelTokens('metadata-heavy, small-reads (same as x) + incomplete-log: DXT_POSIX ran out'), ['metadata-heavy', 'small-reads', 'incomplete-log']);
  const m = parseManifest('## Label vocabulary\n\n| label | meaning |\n|---|---|\n| a-b / c | x |\n| healthy | y |\n\n## Logs\n\n| file | EXPECTED labels |\n|---|---|\n| `x.darshan` | a-b, zz (note) |\n| `y.darshan` | healthy |\n');
  assert.deepEqual(m.vocabulary, ['a-b', 'c', 'healthy']);
  assert.deepEqual(m.logs.map((l) => [l.file, l.labels, l.healthy, l.annotations]), [['x.darshan', ['a-b'], false, ['zz']], ['y.darshan', [], true, []]]);
});

test('evaluation on the labelled shared logs: every label found, no HIGH false alarm', () => {
  const e = evaluateDirectory(DIR);
  // The table goes to the test output, and docs/eval.md shows the latest one (IOLENS_UPDATE_DOCS=1 rewrites it).
  const table = formatEvaluation(e, '../shared/darshan-logs/generated');
  console.log(table);
  const doc = join(REPO_ROOT, 'docs', 'eval.md');
  const text = readFileSync(doc, 'utf8');
  const fenced = /<!-- shared evaluation -->\n```text\n[\s\S]*?```/;
  assert.match(text, fenced, 'docs/eval.md has the shared block');
  if (process.env.IOLENS_UPDATE_DOCS) writeFileSync(doc, text.replace(fenced, () => `<!-- shared evaluation -->\n\`\`\`text\n${table}\`\`\``));
  assert.equal(fenced.exec(readFileSync(doc, 'utf8'))?.[0], `<!-- shared evaluation -->\n\`\`\`text\n${table}\`\`\``, 'docs/eval.md shows the current table (IOLENS_UPDATE_DOCS=1 rewrites it)');
  assert.equal(e.missingLogs.length, 0, `logs listed in MANIFEST.md are present: ${e.missingLogs.join(', ')}`);
  assert.equal(e.logs.length, e.manifest.logs.length);
  assert.ok(e.logs.length >= 30 && e.totals.healthy >= 10, 'the MANIFEST was read (logs and healthy twins)');
  for (const r of e.logs) assert.equal(r.error, undefined, `${r.file} analysed`);
  const missed = e.logs.filter((r) => r.misses.length).map((r) => `${r.file}: ${r.misses.join(', ')}`);
  assert.deepEqual(missed, [], 'every label is found');
  assert.equal(e.totals.highOnHealthy, 0, 'no HIGH finding on a healthy log');
  const alarms = e.logs.filter((r) => r.falseAlarms.length).map((r) => `${r.file}: ${r.falseAlarms.map((f) => `${f.problem} (${f.code})`).join(', ')}`);
  assert.deepEqual(alarms, [], 'no HIGH finding with a tag the log is not labelled with');
  assert.equal(e.totals.hits, e.totals.labels);
});
