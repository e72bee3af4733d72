import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { DarshanLog } from './log.js';
import { printParserText } from './print/parser-text.js';
import { printDxtText } from './print/dxt-text.js';
import { StringOut } from './print/text-out.js';
import { comparableLines, firstDifference, JOB_RECORD_LINE } from '../../testing/parser-compare.js';
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
    if (DarshanLog.open(log.path).job.legacyJobLayout) {
      // darshan-parser misreads these job records (see docs/parse-json.md), starting the exe and mount text 16
      // bytes late, so it can lose the first mount entry; everything else must match, and its mounts be ours.
      const mount = /^# mount entry:/;
      const drop = (t: string) => comparableLines(t).filter((l) => !JOB_RECORD_LINE.test(l) && !mount.test(l)).join('\n');
      const diff = firstDifference(drop(ours), drop(theirs));
      const ourMounts = new Set(comparableLines(ours).filter((l) => mount.test(l)));
      const lost = comparableLines(theirs).filter((l) => mount.test(l) && !ourMounts.has(l));
      if (diff) failures.push(`${log.set}/${log.name} (job record excluded): ${diff}`);
      else if (lost.length) failures.push(`${log.set}/${log.name}: mount entries missing: ${lost.join(', ')}`);
      continue;
    }
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

test('iolens parse --dxt matches darshan-dxt-parser --show-incomplete on every log with DXT data, printed whole or in batches', async () => {
  const failures: string[] = [];
  let compared = 0;
  for (const log of logs) {
    const ref = `${log.base}.dxt.txt.gz`;
    if (!existsSync(ref)) continue;
    const theirs = gunzipSync(readFileSync(ref)).toString('latin1');
    // as decoded whole (small regions), and streamed in batches of records from small pieces (large regions)
    for (const [how, open, opts] of [
      ['whole', () => DarshanLog.open(log.path), {}],
      ['batches', () => DarshanLog.openFile(log.path), { stream: true, chunk: 4099, offThread: false }],
    ] as const) {
      const out = new StringOut();
      try {
        await printDxtText(open(), out, () => {}, opts);
      } catch (err) {
        failures.push(`${log.set}/${log.name} (${how}): error: ${(err as Error).message}`);
        continue;
      }
      if (how === 'whole') compared++;
      const diff = firstDifference(out.toString(), theirs);
      if (diff) failures.push(`${log.set}/${log.name} (${how}): ${diff}`);
    }
  }
  assert.ok(compared >= 32, `compared only ${compared} logs`);
  assert.deepEqual(failures, [], `${failures.length} logs differ:\n${failures.join('\n')}`);
});

test('"3.41" logs with the older job record layout are read as written', () => {
  const legacy = logs.filter((l) => DarshanLog.open(l.path).job.legacyJobLayout);
  // The public corpus holds seven (darshan-parser prints nprocs 4427712942739450220 for each).
  assert.equal(legacy.length, 7);
  for (const l of legacy) {
    const ref = gunzipSync(readFileSync(`${l.base}.parser.txt.gz`)).toString('latin1');
    assert.match(ref, /^# nprocs: 4427712942739450220$/m, `${l.name}: darshan-parser misreads it`);
    const job = DarshanLog.open(l.path).job;
    // The job id is also in the file name (…_id<jobid>-…).
    assert.equal(job.jobid.toString(), /_id(\d+)-/.exec(l.name)![1], l.name);
    assert.equal(job.nprocs, 4n, l.name);
    assert.equal(job.metadata[0][0], 'lib_ver', l.name);
    assert.match(job.exe, /ior /, l.name);
  }
  // No other log is affected.
  assert.ok(logs.filter((l) => !l.name.includes('shane_ior') && !l.name.includes('snyders_ior')).every((l) => !DarshanLog.open(l.path).job.legacyJobLayout));
});
