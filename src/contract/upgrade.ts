import { FormatError } from './errors.js';
import { REPORT_SCHEMA_VERSION, type Report } from './report.js';
import { upgradeTraceV1 } from './upgrade-trace.js';

/**
 * Brings a report JSON document written by an earlier IOLens up to the current schema, so that stored reports
 * (files, the job store, the web service's cache) stay readable. Each step changes one version into the next;
 * documents of a newer schema are refused.
 *
 * - 1 → 2: Darshan reports gain `input` (format `darshan`, the log name as path, no warnings).
 * - 2 → 3: the one time model. `io` gains the I/O time summed over ranks (the old layers' times, MPI-IO or POSIX and
 *   STDIO, as the old I/O time counted them), the ranks it runs over, and an empty breakdown, file list and rank
 *   spread (schema 2 kept none; a note says so). A finding's cost, a share (0–1) of the I/O time, becomes seconds of
 *   that sum; a cost that was a share of bytes or requests (never seconds) is dropped.
 * - `iolens.trace/1` (the trace reports of `iolens trace` before schema 2, marked by `"schema"`) → 2: see
 *   `upgradeTraceV1`, then → 3.
 */
export function upgradeReport(doc: unknown): Report {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new FormatError('not an IOLens report (not a JSON object)');
  let d = doc as Record<string, unknown>;
  if (d.schema === 'iolens.trace/1' && d.schemaVersion === undefined) d = upgradeTraceV1(d);
  const version = d.schemaVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new FormatError('not an IOLens report (no schemaVersion)');
  }
  if (version > REPORT_SCHEMA_VERSION) {
    throw new FormatError(`report schema ${version} is newer than this IOLens understands (${REPORT_SCHEMA_VERSION}); upgrade IOLens`);
  }
  for (let v = version; v < REPORT_SCHEMA_VERSION; v++) d = STEPS[v](d);
  return d as unknown as Report;
}

type Step = (d: Record<string, unknown>) => Record<string, unknown>;

const STEPS: Record<number, Step> = {
  1: (d) => {
    const job = (d.job ?? {}) as Record<string, unknown>;
    const name = typeof job.logName === 'string' && job.logName !== '' ? [job.logName] : [];
    const { schemaVersion: _old, tool, mode, ...rest } = d;
    return { schemaVersion: 2, tool, mode, input: { format: 'darshan', paths: name, warnings: [] }, ...rest };
  },
  2: (d) => {
    const io = (d.io ?? {}) as Record<string, unknown>;
    const job = (d.job ?? {}) as Record<string, unknown>;
    const layers = Array.isArray(io.layers) ? (io.layers as Record<string, unknown>[]) : [];
    const cum = (name: string) => {
      const l = layers.find((x) => x.layer === name);
      return typeof l?.cumulativeTime === 'number' ? l.cumulativeTime : 0;
    };
    // As the old I/O time counted the layers: the larger of MPI-IO and POSIX, plus STDIO; a trace's one entry.
    const cumulative = layers.some((l) => l.layer === 'POSIX' || l.layer === 'MPI-IO' || l.layer === 'STDIO')
      ? Math.max(cum('POSIX'), cum('MPI-IO')) + cum('STDIO')
      : layers.reduce((a, l) => a + (typeof l.cumulativeTime === 'number' ? l.cumulativeTime : 0), 0);
    const processes = typeof job.processes === 'number' ? job.processes : 0;
    const runTime = typeof io.runTime === 'number' ? io.runTime : 0;
    const insights = Array.isArray(d.insights) ? (d.insights as Record<string, unknown>[]) : [];
    const upgraded = insights.map((f) => {
      const { cost, ...rest } = f as { cost?: { share?: unknown; basis?: unknown } } & Record<string, unknown>;
      if (!cost || cost.basis !== 'time' || typeof cost.share !== 'number') return rest;
      const seconds = cost.share * cumulative;
      const run = runTime * Math.max(1, processes);
      return { ...rest, cost: { seconds, semantics: 'cumulative', ioShare: cost.share, runShare: run > 0 ? Math.min(1, seconds / run) : null, basis: 'time' } };
    });
    const trace = d.trace !== undefined;
    // Schema 3 says which categories a trace cannot record (DXT: all but reads and writes).
    const t = d.trace as { characteristics?: Record<string, unknown> } | undefined;
    const input = (d.input ?? {}) as Record<string, unknown>;
    const withRecorded = t?.characteristics && !Array.isArray(t.characteristics.notRecorded)
      ? { trace: { ...t, characteristics: { ...t.characteristics, notRecorded: input.format === 'dxt' ? ['metadata', 'sync', 'other'] : [] } } }
      : {};
    return {
      ...d,
      ...withRecorded,
      schemaVersion: 3,
      io: { ...io, cumulativeIoTime: cumulative, processes, overlapSeconds: 0, breakdown: [], notRecorded: [], files: [], ranks: null, source: trace ? 'trace' : 'counters' },
      insights: upgraded,
      notes: [...(Array.isArray(d.notes) ? (d.notes as string[]) : []), 'upgraded from report schema 2: it kept no breakdown of the I/O time, and costs that were shares of bytes or requests are gone'],
    };
  },
};
