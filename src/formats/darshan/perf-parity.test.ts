import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { DarshanLog } from './log.js';
import { printPerfText } from './print/perf-text.js';
import { StringOut } from './print/text-out.js';
import { comparableLines, firstDifference, JOB_RECORD_LINE } from '../../testing/parser-compare.js';
import { corpusLogs, publicManifestProblems } from '../../testing/corpus.js';

const logs = corpusLogs();
const problems = publicManifestProblems();

function perfText(log: DarshanLog): { text: string; warnings: string[] } {
  const warnings: string[] = [];
  const out = new StringOut();
  printPerfText(log, out, (w) => warnings.push(w));
  return { text: out.toString(), warnings };
}

/** darshan-parser --perf with --show-incomplete where plain --perf refused an incomplete module. */
function reference(base: string): { text: string; stderr: string[] | null } | null {
  const si = `${base}.perf-show-incomplete.txt`;
  const plain = `${base}.perf.txt`;
  if (existsSync(si)) return { text: readFileSync(si, 'latin1'), stderr: null };
  if (!existsSync(plain)) return null;
  const err = `${base}.perf.stderr.txt`;
  const stderr = existsSync(err) ? readFileSync(err, 'latin1').split('\n').filter((l) => l !== '') : [];
  return { text: readFileSync(plain, 'latin1'), stderr };
}

/**
 * darshan-parser allocates three doubles per rank of the job. On the "3.41" logs whose job record has the older
 * layout it misreads nprocs as garbage (4427712942739450220), that allocation fails (calloc's size overflows
 * 64 bits), no accumulator exists, and it prints a zeroed metrics struct for every module. IOLens reads the job
 * record as written and prints the values the records give. Such logs must match everywhere except those values
 * and the job record's own lines.
 */
function accumulatorAllocationFails(log: DarshanLog): boolean {
  return log.job.legacyJobLayout;
}

const PERF_VALUE = /^# (total_bytes|unique files: slowest_rank\w*|shared files: time_by_slowest|agg_time_by_slowest|agg_perf_by_slowest): (\S+)/;

function maskPerfValues(lines: string[]): string[] {
  return lines.filter((l) => !JOB_RECORD_LINE.test(l) && !/^# mount entry:/.test(l)).map((l) => l.replace(PERF_VALUE, '# $1: <value>'));
}

test('the shared corpus has a --perf output for every log', () => {
  const missing = logs.filter((l) => reference(l.base) === null).map((l) => `${l.set}/${l.name}`);
  assert.ok(logs.length >= 159, `expected at least 159 logs, found ${logs.length}`);
  assert.deepEqual(missing, []);
});

test('iolens parse --perf matches darshan-parser --perf (--show-incomplete) on every log', () => {
  const failures: string[] = [];
  let compared = 0;
  let exact = 0;
  for (const entry of logs) {
    const ref = reference(entry.base);
    if (!ref) continue;
    const where = `${entry.set}/${entry.name}`;
    let ours: { text: string; warnings: string[] };
    let log: DarshanLog;
    try {
      log = DarshanLog.open(entry.path);
      ours = perfText(log);
    } catch (err) {
      failures.push(`${where}: error: ${(err as Error).message}`);
      continue;
    }
    compared++;
    const a = comparableLines(ours.text);
    const b = comparableLines(ref.text);
    if ((problems.get(entry.name) ?? '').includes('SIGABRT')) {
      // darshan-parser aborted part-way (its buffered output ends mid-line): IOLens must print everything it
      // printed, continue the cut line, and say why darshan-parser would have stopped.
      const complete = b.slice(0, -1);
      const diff = complete.findIndex((line, i) => a[i] !== line);
      if (diff >= 0) failures.push(`${where}: line ${diff + 1}: expected ${JSON.stringify(complete[diff])}, got ${JSON.stringify(a[diff])}`);
      else if (!a[complete.length]?.startsWith(b[b.length - 1])) failures.push(`${where}: truncated line not continued`);
      else if (a.length <= complete.length + 1) failures.push(`${where}: output stops where darshan-parser aborted`);
      else if (!ours.warnings.some((w) => w.includes('>= nprocs'))) failures.push(`${where}: no warning about ranks beyond nprocs`);
      continue;
    }
    if (accumulatorAllocationFails(log)) {
      const theirValues = b.filter((l) => PERF_VALUE.test(l)).map((l) => PERF_VALUE.exec(l)![2]);
      const ourValues = a.filter((l) => PERF_VALUE.test(l)).map((l) => PERF_VALUE.exec(l)![2]);
      const diff = firstDifference(maskPerfValues(a).join('\n'), maskPerfValues(b).join('\n'));
      if (diff) failures.push(`${where} (values masked): ${diff}`);
      else if (!theirValues.every((v) => /^0(\.0+)?$/.test(v))) failures.push(`${where}: expected darshan-parser's zeroed metrics`);
      else if (ourValues.every((v) => /^0(\.0+)?$/.test(v))) failures.push(`${where}: now matches darshan-parser's zeros; drop the special case`);
      continue;
    }
    const diff = firstDifference(ours.text, ref.text);
    if (diff) {
      failures.push(`${where}: ${diff}`);
      continue;
    }
    // stderr: the same warnings (module handlers missing, records that failed to parse), none where it was silent.
    if (ref.stderr !== null && JSON.stringify(ours.warnings.map(shortWarning)) !== JSON.stringify(ref.stderr.map(shortWarning))) {
      failures.push(`${where}: stderr ${JSON.stringify(ours.warnings)} != ${JSON.stringify(ref.stderr)}`);
      continue;
    }
    exact++;
  }
  assert.ok(compared >= 159, `compared only ${compared} logs`);
  assert.deepEqual(failures, [], `${failures.length} logs differ:\n${failures.join('\n')}`);
  assert.ok(exact >= 150, `only ${exact} exact matches`);
});

/** Our error lines add the reason in parentheses; compare the part darshan-parser prints. */
function shortWarning(line: string): string {
  return line.replace(/ \(.*\)$/, '');
}
