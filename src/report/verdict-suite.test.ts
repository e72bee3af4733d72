import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PROBLEMS, type Report } from '../contract/index.js';
import { DarshanLog } from '../formats/darshan/index.js';
import { analyzeTrace } from '../pipeline/trace/analyze.js';
import { REPO_ROOT, SHARED } from '../testing/corpus.js';
import { buildReport } from './build-report.js';

/**
 * The real-log verdict suite (docs/goldens/README.md): every public Darshan log and every shared trace has a reviewed
 * expected verdict in docs/goldens/verdicts.csv, read from the counters by hand, not from IOLens's output. Each row runs
 * the real pipeline (the log report for `darshan`, the trace analysis for the others) and is checked for where the I/O
 * time went (sink), the I/O share of the run, the problem a diagnosis leads with, and the problems that must not be
 * HIGH. All mismatches are reported at once, as a table.
 */

const TABLE = join(REPO_ROOT, 'docs', 'goldens', 'verdicts.csv');
const PUBLIC = join(SHARED, 'darshan-logs', 'public');
const TRACES = join(SHARED, 'traces');

const KINDS = ['darshan', 'dxt', 'recorder', 'dftracer'] as const;
const SINKS = ['write', 'read', 'metadata', 'sync', 'not-storage', 'none', 'unknown'] as const;
const BANDS = ['<5%', '5-50%', '>50%', 'unknown'] as const;
/** Problems a row may name: the finding vocabulary (`slow-storage-target` for a slow OST, D21). */
const NAMEABLE = new Set<string>(PROBLEMS);

interface Row {
  readonly input: string;
  readonly kind: (typeof KINDS)[number];
  readonly sink: (typeof SINKS)[number];
  readonly io_share: (typeof BANDS)[number];
  readonly top: string;
  readonly forbid_high: readonly string[];
  readonly why: string;
}

/** RFC 4180 records: fields separated by commas, quoted when they hold commas, quotes or line breaks. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let rec: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') rec.push(field), (field = '');
    else if (ch === '\n') rec.push(field), records.push(rec), (rec = []), (field = '');
    else if (ch !== '\r') field += ch;
  }
  if (field !== '' || rec.length) rec.push(field), records.push(rec);
  return records;
}

function readTable(): Row[] {
  const [head, ...body] = parseCsv(readFileSync(TABLE, 'utf8'));
  assert.deepEqual(head, ['input', 'kind', 'sink', 'io_share', 'top', 'forbid_high', 'why']);
  return body.map((cells, i) => {
    assert.equal(cells.length, head.length, `${TABLE} row ${i + 2}: ${cells.length} fields`);
    const [input, kind, sink, io_share, top, forbid, why] = cells;
    const where = `${TABLE} row ${i + 2} (${input})`;
    assert.ok((KINDS as readonly string[]).includes(kind), `${where}: kind ${kind}`);
    assert.ok((SINKS as readonly string[]).includes(sink), `${where}: sink ${sink}`);
    assert.ok((BANDS as readonly string[]).includes(io_share), `${where}: io_share ${io_share}`);
    assert.ok(top === 'any' || top === 'no-problem' || NAMEABLE.has(top), `${where}: top ${top}`);
    const forbid_high = forbid ? forbid.split(';') : [];
    for (const p of forbid_high) assert.ok(NAMEABLE.has(p), `${where}: forbid_high ${p}`);
    assert.ok(why.trim().length > 0, `${where}: a row says why`);
    return { input, kind, sink, io_share, top, forbid_high, why } as Row;
  });
}

const isDir = (p: string) => statSync(p).isDirectory();
const sorted = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);

/**
 * Every input the table must cover, from the shared folders: each public log; each Darshan log of the trace samples;
 * and each Recorder or DFTracer trace — a sample folder that is one trace (a Recorder folder with its `recorder.mt`,
 * a DFTracer folder of per-process files `…-<pid>-….pfw[.gz]`) counts once, another folder's files each count.
 */
function derivedInputs(): string[] {
  const out = sorted(PUBLIC).filter((f) => f.endsWith('.darshan'));
  for (const g of sorted(join(TRACES, 'darshan'))) {
    if (isDir(join(TRACES, 'darshan', g))) for (const f of sorted(join(TRACES, 'darshan', g))) if (f.endsWith('.darshan')) out.push(`darshan/${g}/${f}`);
  }
  for (const family of ['dftracer', 'recorder']) {
    for (const g of sorted(join(TRACES, family))) {
      const dir = join(TRACES, family, g);
      if (!isDir(dir)) continue;
      const files = sorted(dir);
      const oneTrace = files.includes('recorder.mt') || (files.length > 1 && files.every((f) => /-\d+-[^/]*\.pfw(\.gz)?$/.test(f)));
      if (oneTrace) out.push(`${family}/${g}`);
      else for (const f of files) out.push(`${family}/${g}/${f}`);
    }
  }
  return out;
}

function pathOf(row: Row): string {
  return row.kind === 'darshan' && !row.input.includes('/') ? join(PUBLIC, row.input) : join(TRACES, row.input);
}

/** Where the report says the I/O time went, in the table's words. */
const NON_STORAGE = /(^\/dev\/|^\/proc\/|^\/sys\/|^<STD(IN|OUT|ERR)>$|(^|\/)pipe_-?\d+$|^socket:|^pipe:)/;
function gotSink(r: Report): string {
  const sink = r.verdict?.sink as (NonNullable<Report['verdict']>['sink'] & { storage?: boolean }) | null | undefined;
  if (!sink) return 'none';
  const op = sink.op as string;
  // A verdict may name the time on pipes, devices and standard streams itself; else its file says so.
  if (op === 'not-storage' || sink.storage === false || (sink.file !== null && NON_STORAGE.test(sink.file))) return 'not-storage';
  return op;
}

function band(share: number | null): string {
  if (share === null || !Number.isFinite(share)) return 'unknown';
  return share < 0.05 ? '<5%' : share < 0.5 ? '5-50%' : '>50%';
}

async function reportOf(row: Row): Promise<Report> {
  const path = pathOf(row);
  if (row.kind === 'darshan') return buildReport(DarshanLog.open(path), { mode: 'default', logName: row.input, toolVersion: 'verdict-suite' });
  return (await analyzeTrace([path], { threads: 1, toolVersion: 'verdict-suite' })).report;
}

test('verdict table: one reviewed row for every public log and shared trace', () => {
  const rows = readTable();
  const inputs = rows.map((r) => r.input);
  assert.equal(new Set(inputs).size, inputs.length, 'each input once');
  const want = derivedInputs();
  assert.ok(want.length > 0, `shared inputs under ${SHARED}`);
  assert.deepEqual(
    { missing: want.filter((i) => !inputs.includes(i)), extra: inputs.filter((i) => !want.includes(i)) },
    { missing: [], extra: [] },
  );
  for (const r of rows) {
    const family = r.input.includes('/') ? r.input.split('/')[0] : 'public';
    const expected = family === 'public' || family === 'darshan' ? ['darshan', 'dxt'] : [family];
    assert.ok(expected.includes(r.kind), `${r.input}: kind ${r.kind} in ${family}/`);
    assert.ok(r.kind !== 'dxt' || r.input.endsWith('.darshan'), `${r.input}: a DXT input is a Darshan log`);
  }
});

test('verdict suite: the report agrees with the reviewed verdict on every real log and trace', async () => {
  const rows = readTable();
  const bad: [string, string, string, string][] = [];
  for (const row of rows) {
    let r: Report;
    try {
      r = await reportOf(row);
    } catch (err) {
      bad.push([row.input, 'report', 'a report', `error: ${(err as Error).message.split('\n')[0]}`]);
      continue;
    }
    if (row.sink !== 'unknown') {
      const got = gotSink(r);
      if (got !== row.sink) bad.push([row.input, 'sink', row.sink, got]);
    }
    if (row.io_share !== 'unknown') {
      const got = band(r.io.ioShare);
      if (got !== row.io_share) bad.push([row.input, 'io_share', row.io_share, `${got} (${r.io.ioShare === null ? 'null' : (r.io.ioShare * 100).toFixed(1)}%)`]);
    }
    const high = r.insights.filter((f) => f.level === 'HIGH');
    const named = (f: (typeof high)[number]) => f.problem ?? f.code;
    if (row.top === 'no-problem' && high.length > 0) bad.push([row.input, 'no HIGH', 'none', high.map((f) => `${f.code} ${named(f)}`).join(', ')]);
    const forbidden = high.filter((f) => f.problem !== undefined && row.forbid_high.includes(f.problem));
    if (forbidden.length) bad.push([row.input, 'forbid_high', `not HIGH: ${row.forbid_high.join(';')}`, forbidden.map((f) => `${f.code} ${named(f)} HIGH`).join(', ')]);
    if (row.top !== 'any' && row.top !== 'no-problem') {
      const first = r.insights.find((f) => f.level === 'HIGH' || f.level === 'WARN');
      const got = first ? `${named(first)} (${first.code} ${first.level})` : 'no HIGH/WARN finding';
      if (!first || named(first) !== row.top) bad.push([row.input, 'top', row.top, got]);
    }
  }
  const table = bad.map((b) => `  ${b.join(' | ')}`).join('\n');
  assert.equal(bad.length, 0, `${bad.length} mismatch(es) over ${rows.length} rows (input | check | expected | got):\n${table}`);
});
