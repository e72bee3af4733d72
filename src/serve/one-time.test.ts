import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DarshanLog } from '../formats/darshan/index.js';
import { diagnoseLog } from '../pipeline/diagnose.js';
import { diagnoseTrace } from '../pipeline/diagnose-trace.js';
import { reportFromTrace } from '../pipeline/report-from-trace.js';
import { ingest } from '../store/ingest.js';
import { corpusLogs, REPO_ROOT, SHARED } from '../testing/corpus.js';
import type { Report } from '../contract/index.js';
import { startServer } from './app.js';

/**
 * The one time model (issue 37): every output that shows a job's I/O time shows the same numbers — the report JSON,
 * `trace` (a log's DXT segments, or a trace), the store's `jobs` row, the explorer's `/api/jobs`, the job page's
 * `/api/jobs/:hash` and the learned target (`io_mibs`, bytes over the I/O time) — on every shared log and trace.
 */

const BIN = join(REPO_ROOT, 'bin', 'iolens.js');
const MIB = 1024 * 1024;

type Io = Report['io'];
const times = (io: Io) => ({ ioTime: io.ioTime, cumulativeIoTime: io.cumulativeIoTime, ioShare: io.ioShare, overlapSeconds: io.overlapSeconds });

test('one I/O time on every shared log: report, trace of its DXT, store row, /api/jobs, the job API, the learned target', async () => {
  const logs = corpusLogs();
  assert.ok(logs.length >= 159, `${logs.length} logs`);
  const dir = mkdtempSync(join(tmpdir(), 'iolens-one-time-'));
  try {
    const db = join(dir, 'jobs.duckdb');
    await ingest({ db, inputs: logs.map((l) => l.path), jobs: 2 });
    const server = await startServer({ db, port: 0, threads: 2 });
    try {
      const listed = (await (await fetch(`${server.url}/api/jobs?limit=500`)).json()) as { total: number; jobs: Record<string, unknown>[] };
      const byPath = new Map(listed.jobs.map((j) => [String(j.path), j]));
      let compared = 0, traced = 0, pages = 0;
      for (const log of logs) {
        let r: Report;
        try {
          r = diagnoseLog(log.path);
        } catch {
          // An unreadable log has no I/O time anywhere (the store records its error instead).
          assert.equal(byPath.has(log.path), false, log.name);
          continue;
        }
        const row = byPath.get(log.path);
        if (!row) continue; // a duplicate of another log's bytes: one row per content
        compared++;
        const want = times(r.io);
        assert.deepEqual({ ioTime: row.io_time, cumulativeIoTime: row.io_time_cumulative, ioShare: row.io_share }, { ioTime: want.ioTime, cumulativeIoTime: want.cumulativeIoTime, ioShare: want.ioShare }, `${log.name}: store row`);
        assert.equal(row.io_mibs, r.io.bytes > 0 && r.io.ioTime > 0 ? r.io.bytes / MIB / r.io.ioTime : null, `${log.name}: learned target`);
        assert.ok(Math.abs(r.io.breakdown.reduce((a, b) => a + b.seconds, 0) - r.io.ioTime) <= 1e-9 * Math.max(1, r.io.ioTime), `${log.name}: breakdown sums to the I/O time`);
        // The job page reads its report from /api/jobs/:hash (recomputed from the log for an ingested job).
        if (pages < 40 || log.set === 'generated') {
          const job = (await (await fetch(`${server.url}/api/jobs/${String(row.hash)}`)).json()) as { report: Report };
          assert.deepEqual(times(job.report.io), want, `${log.name}: job page`);
          pages++;
        }
        const dxt = DarshanLog.open(log.path);
        if (dxt.has('DXT_POSIX') || dxt.has('DXT_MPIIO')) {
          const t = await diagnoseTrace([log.path]);
          assert.deepEqual(times(t.io), want, `${log.name}: trace of its DXT segments`);
          traced++;
        }
      }
      assert.ok(compared >= 150 && traced >= 30, `${compared} logs compared, ${traced} with DXT`);
    } finally {
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The shared traces: a DFTracer run, a DFTracer file of threads, a Recorder folder, Recorder Parquet in a tar. */
function sharedTraces(): string[][] {
  const t = join(SHARED, 'traces');
  const out: string[][] = [];
  const cm1 = join(t, 'dftracer', 'cm1_1_48_20240926');
  if (existsSync(cm1)) out.push([cm1]);
  const legacy = join(t, 'dftracer', 'legacy-string-fields');
  if (existsSync(legacy)) for (const f of readdirSync(legacy).sort()) if (/\.pfw(\.gz)?$/.test(f)) out.push([join(legacy, f)]);
  const rec = join(t, 'recorder');
  if (existsSync(rec)) {
    for (const d of readdirSync(rec).sort()) {
      const p = join(rec, d);
      const tars = readdirSync(p).filter((f) => /\.tar(\.gz)?$/.test(f));
      out.push(tars.length ? [join(p, tars[0])] : [p]);
    }
  }
  return out;
}

test('one I/O time on every shared trace: iolens report and iolens trace agree, threads counted once', async () => {
  const traces = sharedTraces();
  assert.ok(traces.length >= 4, `${traces.length} traces`);
  for (const paths of traces) {
    const rep = await reportFromTrace(paths);
    const tr = await diagnoseTrace(paths);
    assert.deepEqual(times(rep.io), times(tr.io), paths.join(' '));
    assert.ok(tr.io.ioTime > 0 && tr.io.ioTime <= tr.io.runTime * (1 + 1e-9), `${paths.join(' ')}: a rank's I/O time fits in the run (${tr.io.ioTime} of ${tr.io.runTime} s)`);
    assert.ok(Math.abs(tr.io.breakdown.reduce((a, b) => a + b.seconds, 0) - tr.io.ioTime) <= 1e-9 * tr.io.ioTime, `${paths.join(' ')}: breakdown`);
  }
  // The DLIO trace's twenty reader threads overlap: 128 s of calls in 53 s of wall time, which the sums say.
  const dlio = (await diagnoseTrace([join(SHARED, 'traces', 'dftracer', 'legacy-string-fields', 'dlio-test-trace.pfw.gz')])).io;
  assert.ok(dlio.cumulativeIoTime > 2 * dlio.ioTime && dlio.overlapSeconds > 0, JSON.stringify(times(dlio)));
});

test('the CLI shows the same I/O time in report and trace, on the bundled sample and a DFTracer file', () => {
  const json = (...args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, ...args, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(r.status, 0, r.stderr);
    return (JSON.parse(r.stdout) as Report).io;
  };
  const sample = join(REPO_ROOT, 'samples', 'ior-hdf5-indep-small-write-4k.darshan');
  assert.deepEqual(times(json('trace', sample)), times(json('report', sample)));
  const pfw = join(SHARED, 'traces', 'dftracer', 'cm1_1_48_20240926', 'cm1-DEFAULT-3537816-preload.pfw.gz');
  assert.deepEqual(times(json('trace', pfw)), times(json('report', pfw)));
});
