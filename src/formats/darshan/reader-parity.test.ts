import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { DarshanLog } from './log.js';
import { printParserText } from './print/parser-text.js';
import { printDxtText } from './print/dxt-text.js';
import { StringOut } from './print/text-out.js';
import { comparableLines, firstDifference } from '../../testing/parser-compare.js';
import { corpusLogs, publicManifestProblems } from '../../testing/corpus.js';

const logs = corpusLogs();
const problems = publicManifestProblems();

function parseText(path: string): { text: string; warnings: string[] } {
  const warnings: string[] = [];
  const out = new StringOut();
  printParserText(DarshanLog.open(path), out, (w) => warnings.push(w));
  return { text: out.toString(), warnings };
}

test('the shared corpus is present', () => {
  assert.ok(logs.length >= 159, `expected at least 159 logs, found ${logs.length}`);
});

test('iolens parse matches darshan-parser --show-incomplete on every log', () => {
  const failures: string[] = [];
  let compared = 0;
  for (const log of logs) {
    const ref = `${log.base}.parser.txt.gz`;
    if (!existsSync(ref)) continue;
    const theirs = gunzipSync(readFileSync(ref)).toString('latin1');
    let ours: string;
    try {
      ours = parseText(log.path).text;
    } catch (err) {
      failures.push(`${log.set}/${log.name}: error: ${(err as Error).message}`);
      continue;
    }
    compared++;
    if ((problems.get(log.name) ?? '').includes('SIGABRT')) {
      // darshan-parser aborted part-way (its output ends mid-line): IOLens must print everything it printed.
      const a = comparableLines(ours);
      const b = comparableLines(theirs);
      const complete = b.slice(0, -1);
      const diff = complete.findIndex((line, i) => a[i] !== line);
      if (diff >= 0) failures.push(`${log.set}/${log.name}: line ${diff + 1}: expected ${JSON.stringify(complete[diff])}, got ${JSON.stringify(a[diff])}`);
      else if (!a[complete.length]?.startsWith(b[b.length - 1])) failures.push(`${log.set}/${log.name}: truncated line not continued`);
      continue;
    }
    const diff = firstDifference(ours, theirs);
    if (diff) failures.push(`${log.set}/${log.name}: ${diff}`);
  }
  assert.ok(compared >= 159, `compared only ${compared} logs`);
  assert.deepEqual(failures, [], `${failures.length} logs differ:\n${failures.join('\n')}`);
});

test('iolens parse --dxt matches darshan-dxt-parser --show-incomplete on every log with DXT data', () => {
  const failures: string[] = [];
  let compared = 0;
  for (const log of logs) {
    const ref = `${log.base}.dxt.txt.gz`;
    if (!existsSync(ref)) continue;
    const out = new StringOut();
    try {
      printDxtText(DarshanLog.open(log.path), out, () => {});
    } catch (err) {
      failures.push(`${log.set}/${log.name}: error: ${(err as Error).message}`);
      continue;
    }
    compared++;
    const diff = firstDifference(out.toString(), gunzipSync(readFileSync(ref)).toString('latin1'));
    if (diff) failures.push(`${log.set}/${log.name}: ${diff}`);
  }
  assert.ok(compared >= 32, `compared only ${compared} logs`);
  assert.deepEqual(failures, [], `${failures.length} logs differ:\n${failures.join('\n')}`);
});
