import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DarshanLog } from '../formats/darshan/index.js';
import { synthesizeLog } from '../formats/darshan/synth.js';
import { writeLog } from '../formats/darshan/writer.js';
import { LimitError } from '../contract/errors.js';
import { buildReport } from '../report/build-report.js';
import { ChunkWriter, LAYER_NAMES, TableCollector, TraceDicts } from '../formats/trace/model.js';
import { readSource, resolveSource } from '../formats/trace/readers/index.js';
import { extractTar } from '../formats/trace/readers/tar.js';
import { REPO_ROOT, SHARED } from '../testing/corpus.js';
import { countersFromTrace, reportFromCounters, reportFromTrace } from './report-from-trace.js';

const FLASH = join(SHARED, 'traces', 'recorder', 'flash_sedov3d_hdf5-ranks0-3');
const CM1 = join(SHARED, 'traces', 'dftracer', 'cm1_1_48_20240926');
const PARQUET_TAR = join(SHARED, 'traces', 'recorder', 'wisio-cm1-parquet', 'recorder-parquet.tar.gz');
const GENERATED = join(SHARED, 'darshan-logs', 'generated');
const GOLDEN = join(REPO_ROOT, 'fixtures', 'golden-trace');

/** Every event of a trace in one table, for counting by hand. */
async function events(path: string) {
  const c = new TableCollector();
  const dicts = new TraceDicts();
  await readSource(resolveSource([path]), new ChunkWriter(dicts, c.sink));
  return c.table(dicts);
}

/** Paths Darshan leaves out by default (darshan-config.c), written out again here on purpose. */
const SYSTEM = /^\/(etc|dev|usr|bin|boot|lib|opt|sbin|sys|proc|var)\//;

test('golden: the report of the Recorder FLASH trace (Drishti’s own Recorder sample), both modes', async () => {
  for (const mode of ['default', 'drishti'] as const) {
    const rep = await reportFromTrace([FLASH], { mode, snippets: false });
    const got = `${JSON.stringify({ ...rep, tool: { ...rep.tool, version: 'golden' }, input: { ...rep.input, paths: ['flash_sedov3d_hdf5-ranks0-3'] } }, null, 1)}\n`;
    const file = join(GOLDEN, `flash_sedov3d_hdf5-ranks0-3.${mode}.json`);
    if (process.env.IOLENS_UPDATE_GOLDEN) {
      mkdirSync(GOLDEN, { recursive: true });
      writeFileSync(file, got);
    }
    assert.equal(got, readFileSync(file, 'utf8'), `${file} (IOLENS_UPDATE_GOLDEN=1 to rewrite after a deliberate change)`);
  }
});

test('FLASH: the findings match counts made by hand from the raw events', async () => {
  const t = await events(FLASH);
  const fn = (i: number) => t.dicts.funcs.get(t.func[i]);
  const file = (i: number) => (t.file[i] >= 0 ? t.dicts.files.get(t.file[i]) : '');
  let posixReads = 0, posixWrites = 0, bytesWritten = 0, collWrites = 0, mpiioWrites = 0, smallWrites = 0;
  for (let i = 0; i < t.length; i++) {
    const layer = LAYER_NAMES[t.layer[i]];
    const name = fn(i);
    if (layer === 'POSIX' && file(i) && !SYSTEM.test(file(i))) {
      if (/^(read|pread)(64)?$/.test(name)) posixReads++;
      if (/^(write|pwrite)(64)?$/.test(name)) {
        posixWrites++;
        bytesWritten += t.size[i];
        if (t.size[i] <= 1048576) smallWrites++;
      }
    }
    if (layer === 'MPI-IO' && /^MPI_File_write/.test(name)) {
      mpiioWrites++;
      if (/_all$/.test(name)) collWrites++;
    }
  }
  const rep = await reportFromTrace([FLASH], { mode: 'drishti' });
  const ins = (code: string) => rep.insights.find((i) => i.code === code)!;
  assert.deepEqual(ins('P01').evidence.map((e) => e.value), [posixReads, posixWrites]);
  assert.equal(ins('P03').evidence[1].value, bytesWritten);
  assert.deepEqual(ins('M05').data, { count: collWrites, ratio: collWrites / mpiioWrites });
  assert.equal(ins('M07').evidence[1].value, mpiioWrites);
  assert.match(ins('P06').message, new RegExp(`^${smallWrites} small write requests`));
  assert.deepEqual([posixReads, posixWrites, collWrites, mpiioWrites], [3, 1413, 512, 870]);
  // Four of 1024 ranks are in the folder: the job is those four, and the reader's warning is passed on.
  assert.equal(rep.job.processes, 4);
  assert.match(rep.input.warnings[0], /data for 4 of 1024 ranks/);
});

test('DFTracer CM1 (48 processes): ranks from process labels, STDIO and POSIX totals as counted from the events', async () => {
  const set = await countersFromTrace([CM1]);
  assert.equal(set.counters.nprocs, 48);
  const t = await events(CM1);
  let fopens = 0, freadBytes = 0, posixWriteBytes = 0, opens = 0;
  for (let i = 0; i < t.length; i++) {
    const name = t.dicts.funcs.get(t.func[i]);
    const f = t.file[i] >= 0 ? t.dicts.files.get(t.file[i]) : '';
    if (!f || SYSTEM.test(f)) continue;
    if (/^fopen(64)?$/.test(name)) fopens++;
    if (name === 'fread') freadBytes += t.size[i];
    if (name === 'write') posixWriteBytes += t.size[i];
    if (/^open(64)?$/.test(name)) opens++;
  }
  const sum = (mod: 'POSIX' | 'STDIO', c: string) => set.counters.tables.get(mod)!.int(c).reduce((a, v) => a + v, 0);
  assert.equal(sum('STDIO', 'STDIO_OPENS'), fopens);
  assert.equal(sum('STDIO', 'STDIO_BYTES_READ'), freadBytes);
  assert.equal(sum('POSIX', 'POSIX_BYTES_WRITTEN'), posixWriteBytes);
  assert.equal(sum('POSIX', 'POSIX_OPENS'), opens);
  assert.equal(set.counters.absentReasons.has('POSIX_SEQ_WRITES'), false); // DFTracer resolves every offset
  const rep = reportFromCounters(set, [CM1]);
  assert.equal(rep.input.format, 'dftracer');
  assert.equal(rep.job.exe, 'cm1.exe');
  assert.deepEqual(
    rep.checks.filter((o) => o.status === 'notApplicable' && o.reason?.includes('cannot be derived')).map((o) => o.code),
    ['P07', 'P08', 'D12'],
  );
});

test('a log’s DXT segments give the same findings as the log itself on the generated corpus', async () => {
  let compared = 0;
  for (const f of readdirSync(GENERATED).filter((n) => n.endsWith('.darshan')).sort()) {
    const path = join(GENERATED, f);
    const log = DarshanLog.open(path);
    if (!log.has('DXT_POSIX') || log.slots().some((s) => s.name === 'DXT_POSIX' && s.partial)) continue;
    for (const mode of ['default', 'drishti'] as const) {
      const own = buildReport(log, { mode });
      const dxt = await reportFromTrace([path], { dxt: true, mode });
      const status = new Map(own.checks.map((o) => [o.code, o.status]));
      // A Drishti check the log's report leaves to its D-check runs on the DXT report when that D-check cannot.
      const superseded = new Set(own.checks.filter((o) => o.reason?.startsWith('superseded by')).map((o) => o.code));
      const text = (r: typeof own, code: string) => r.insights.filter((i) => i.code === code).map((i) => i.message);
      for (const o of dxt.checks) {
        if (o.status !== 'fired' && o.status !== 'quiet') continue;
        if (superseded.has(o.code)) continue;
        if (o.code === 'D20' && dxt.io.notRecorded.length > 0) {
          // D20 names the largest part of the I/O time. DXT does not record metadata and sync calls (the report says
          // so): a sink of those it cannot name; another sink it names with the same seconds, as a larger share.
          const sinkOp = own.verdict?.sink?.op;
          if (status.get('D20') === 'fired' && dxt.io.notRecorded.some((n) => n.op === sinkOp)) assert.equal(o.status, 'quiet', `${f} ${mode} D20`);
          else {
            assert.equal(o.status, status.get('D20'), `${f} ${mode} D20`);
            const cost = (r: typeof own) => r.insights.find((i) => i.code === 'D20')?.cost?.seconds;
            assert.equal(cost(dxt), cost(own), `${f} ${mode} D20 seconds`);
          }
          continue;
        }
        if (f === 'iopat-rank0-shared-write.darshan' && o.code === 'D14') {
          // Every rank opened the file, only rank 0 wrote: DXT shows one rank, so no shared record to judge.
          assert.deepEqual([status.get('D14'), o.status], ['fired', 'quiet']);
          continue;
        }
        assert.equal(o.status, status.get(o.code), `${f} ${mode} ${o.code}`);
        assert.deepEqual(text(dxt, o.code), text(own, o.code), `${f} ${mode} ${o.code}`);
        compared++;
      }
    }
  }
  assert.ok(compared > 1000, `${compared} check outcomes compared`);
});

const cli = (...args: string[]) => spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'report', ...args], { encoding: 'utf8' });

test('CLI: iolens report on a Recorder folder, DFTracer files, Parquet files, and a log with --from-dxt', async () => {
  const rec = cli('--json', FLASH);
  assert.equal(rec.status, 0, rec.stderr);
  const r = JSON.parse(rec.stdout);
  assert.equal(r.input.format, 'recorder');
  assert.ok(r.notes.some((n: string) => n.startsWith('not run on this trace (235 of 1416 POSIX reads and writes have no known file offset): P09, P10, P11, P12, P13, P14, D02')));

  const two = readdirSync(CM1).sort().slice(0, 2).map((n) => join(CM1, n));
  const df = cli('--json', ...two);
  assert.equal(df.status, 0, df.stderr);
  const d = JSON.parse(df.stdout);
  assert.deepEqual([d.input.format, d.input.sources, d.job.processes], ['dftracer', 2, 2]);
  const text = cli('--width', '100', ...two);
  assert.equal(text.status, 0);
  assert.match(text.stdout, /counters derived from \d+ DFTracer events of 2 processes/);

  // The Parquet parts, unpacked here (not through iolens' own temporary folders, which other tests count).
  const parts = mkdtempSync(join(tmpdir(), 'iolens-test-parquet-'));
  await extractTar(PARQUET_TAR, parts);
  const pq = cli('--csv', ...readdirSync(parts).filter((n) => n.endsWith('.parquet')).map((n) => join(parts, n)));
  rmSync(parts, { recursive: true, force: true });
  assert.equal(pq.status, 0, pq.stderr);
  assert.match(pq.stdout, /^file,JOB,S01,/);
  assert.equal(pq.stdout.trim().split('\n').length, 2);

  // A folder of Darshan logs stays a batch of logs.
  const logs = cli('--csv', join(SHARED, 'traces', 'darshan', 'polaris-cug25'));
  assert.equal(logs.status, 0, logs.stderr);
  assert.equal(logs.stdout.trim().split('\n').length, 3);

  const log = join(GENERATED, 'ior-random-write-1k-fsync.darshan');
  const dx = cli('--from-dxt', '--json', log);
  assert.equal(dx.status, 0, dx.stderr);
  const x = JSON.parse(dx.stdout);
  assert.equal(x.input.format, 'dxt');
  assert.equal(x.job.jobId, JSON.parse(cli('--json', log).stdout).job.jobId);
  assert.equal(x.checks.find((o: { code: string }) => o.code === 'D01').status, 'notApplicable'); // fsyncs are not in DXT

});

test('CLI: bad trace input is one error line and exit 2', () => {
  const empty = mkdtempSync(join(tmpdir(), 'iolens-test-empty-'));
  for (const args of [['--from-dxt', CM1], [join(empty, 'missing.pfw.gz')], [empty], ['--from-dxt', join(SHARED, 'traces', 'darshan', 'polaris-cug25', '1977553-17460120447186390966.darshan')]]) {
    const r = cli(...args);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^iolens: /);
  }
  rmSync(empty, { recursive: true, force: true });
  assert.ok(existsSync(FLASH));
});

test('reports of traces keep to --max-inflate, --from-dxt included', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-test-budget-'));
  try {
    const log = join(dir, 'dxt.darshan');
    // 200,000 segments: a DXT region of ~8 MB inflated
    writeFileSync(log, writeLog(synthesizeLog({ dxtSegments: 200_000, seed: 5 })));
    const whole = await reportFromTrace([log], { dxt: true });
    assert.equal(whole.input.events, 200_000);
    await assert.rejects(reportFromTrace([log], { dxt: true, maxInflate: 1 << 20 }), (err: unknown) => err instanceof LimitError && /--max-inflate/.test(err.message));
    const r = cli('--from-dxt', '--max-inflate', '1MiB', log);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /budget/);
    // so do a DFTracer trace's .pfw.gz files
    await assert.rejects(reportFromTrace([CM1], { maxInflate: 4096 }), LimitError);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
