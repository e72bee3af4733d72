import { renderTemplate } from '../text/template.js';
import { formatBytes, formatPercent, formatSeconds, plural } from '../text/format.js';
import type { Detail, IoOp, IoSummary, Report } from '../contract/index.js';

/** A detail line's text with the file shown as a base name (or full path), re-rendered from its template. */
export function detailText(report: Report, d: Detail, fullPath: boolean): string {
  const tpl = report.messages[d.messageId];
  if (!tpl || d.subject.kind !== 'file' || fullPath) return d.message;
  const name = d.subject.name;
  const base = name.slice(name.lastIndexOf('/') + 1) || name;
  return renderTemplate(tpl, { ...d.data, file: base }, report.mode === 'drishti' ? 'drishti' : 'iec');
}

/** `2017-03-20 09:07:47+00:00`, the banner's time format. */
export function bannerTime(iso: string): string {
  return iso ? iso.replace('T', ' ').replace('Z', '+00:00') : '?';
}

/** The banner of a trace report: what the trace says about the job (unknown fields say so). */
function traceBannerRows(r: Report, layers: readonly string[]): [string, string][] {
  const j = r.job;
  const span = j.startTime.iso ? `${bannerTime(j.startTime.iso)} to ${bannerTime(j.endTime.iso)} (${formatSeconds(j.durationSeconds)})` : `${formatSeconds(j.durationSeconds)} (start not recorded)`;
  return [
    ['JOB', j.jobId || '(none recorded)'],
    ['EXECUTABLE', j.exe || '(none recorded)'],
    ['TRACE', `${r.input.format}: ${j.logName}`],
    ['EXECUTION TIME', span],
    ['FILES', `${j.files.total} files`],
    ['PROCESSES', String(j.processes)],
    ['LAYERS', layers.join(', ')],
  ];
}

/** The banner's lines (label, value) — shared by every renderer. */
export function bannerRows(r: Report): [string, string][] {
  if (r.trace) return traceBannerRows(r, r.trace.options.layers);
  return r.mode === 'drishti' ? drishtiBanner(r) : defaultBanner(r);
}

/** The default mode's banner: identity, then what the I/O cost the run, per layer, and whether the data is whole. */
function defaultBanner(r: Report): [string, string][] {
  const j = r.job;
  const f = j.files;
  const io = r.io;
  // Bytes per layer; their times are the breakdown's (WHERE THE TIME WENT), darshan-parser --perf's in the JSON.
  const layers = io.layers.map((l) => `${l.layer} ${formatBytes(l.bytesRead + l.bytesWritten)}`);
  const nodes = j.nodes.count === null ? 'unknown (give --nodes, or --sacct on the cluster)' : `${j.nodes.count} (${j.nodes.source === 'sacct' ? 'from Slurm sacct' : 'from --nodes'})`;
  const rows: [string, string][] = [
    ['JOB', j.jobId],
    ['EXECUTABLE', j.exe || '(none recorded)'],
    ['DARSHAN', j.logName],
    ['EXECUTION TIME', `${bannerTime(j.startTime.iso)} to ${bannerTime(j.endTime.iso)} (${formatSeconds(j.durationSeconds)})`],
    ['I/O TIME', ioTimeText(io)],
  ];
  if (layers.length) rows.push(['LAYERS', layers.join('; ')]);
  rows.push(
    ['FILES', `${plural(f.total, 'file')} (${f.stdio} use STDIO, ${f.posixOnly} use POSIX, ${f.mpiio} use MPI-IO)`],
    ['COMPUTE NODES', nodes],
    ['PROCESSES', String(j.processes)],
    ['HINTS', (j.hints.raw ?? '').split(';').join(' ') + (j.hints.source === 'darshan-log-writer' ? "  (Darshan's own log-writing hints)" : '')],
    ['DATA', r.completeness.complete ? 'complete' : `INCOMPLETE: ${r.completeness.modules.map((m) => `${m.module} ${m.status} (${m.detail})`).join('; ')}`],
  );
  return rows;
}

/** Drishti's banner, exactly. */
function drishtiBanner(r: Report): [string, string][] {
  const j = r.job;
  const f = j.files;
  // Drishti divides whole seconds (end − start).
  const seconds = Math.floor(j.endTime.epochSeconds) - Math.floor(j.startTime.epochSeconds);
  const hours = (seconds / 3600).toFixed(2);
  return [
    ['JOB', j.jobId],
    ['EXECUTABLE', j.exe || '(none recorded)'],
    ['DARSHAN', j.logName],
    ['EXECUTION TIME', `${bannerTime(j.startTime.iso)} to ${bannerTime(j.endTime.iso)} (${hours} hours)`],
    ['FILES', `${f.total} files (${f.stdio} use STDIO, ${f.posixOnly} use POSIX, ${f.mpiio} use MPI-IO)`],
    ['COMPUTE NODES', j.nodes.count === null ? '0 (unknown)' : String(j.nodes.count)],
    ['PROCESSES', String(j.processes)],
    ['HINTS', (j.hints.raw ?? '').split(';').join(' ') + (j.hints.source === 'darshan-log-writer' ? "  (Darshan's own log-writing hints)" : '')],
  ];
}

/** Drishti's `N critical issues, N warnings, and N recommendations`; the default mode names the levels and counts in proper English. */
export function summaryLine(r: Report): string {
  const s = r.summary;
  if (r.mode === 'drishti') return `${s.high} critical issues, ${s.warn} warnings, and ${s.recommendations} recommendations`;
  return `${plural(s.high, 'HIGH finding')}, ${plural(s.warn, 'WARN finding')}, ${plural(s.recommendations, 'recommendation')}`;
}

/** The I/O time in both semantics: `136.97 ms on the slowest rank, 19.6% of the run; 538.24 ms summed over 4 ranks; 4.00 MiB moved`. */
export function ioTimeText(io: IoSummary): string {
  const share = io.ioShare === null ? '' : `, ${formatPercent(io.ioShare)} of the run`;
  const over = io.processes > 1 ? ` over ${io.processes} ranks` : '';
  const sum =
    io.overlapSeconds > 0
      ? `; ${formatSeconds(io.cumulativeIoTime)} summed${over} over calls that ran at once (threads)`
      : io.processes > 1
        ? `; ${formatSeconds(io.cumulativeIoTime)} summed${over}`
        : '';
  return `${formatSeconds(io.ioTime)} on the slowest rank${share}${sum}; ${formatBytes(io.bytes)} moved`;
}

/**
 * What a finding costs, in words: `31.20 ms, 62% of the I/O time and 3.1% of the run (summed over ranks)`, or for a
 * bound `at most 31.20 ms …`; null when it has no cost.
 */
export function costText(r: Report, f: Report['insights'][number]): string | null {
  const c = f.cost;
  if (!c) return null;
  const sem = c.semantics === 'slowest' ? 'the slowest rank' : sumSemantics(r.io) ?? 'one rank';
  const run = c.runShare !== null ? ` and ${formatPercent(c.runShare)} of the run` : '';
  const bound = c.basis === 'bound' ? 'at most ' : '';
  const why = c.basis === 'bound' ? '; an upper bound of what it costs, so it cannot be HIGH' : '';
  return `${bound}${formatSeconds(c.seconds)}, ${formatPercent(c.ioShare)} of the I/O time${run} (${sem})${why}`;
}

/**
 * What fixing a finding would save, in words: `about 0.80 s (0.60 s–1.00 s) of the 1.30 s I/O time (summed over
 * ranks); done well: the same bytes at the job's large writes' 812 MiB/s`; a bound says `at most`. Null without savings.
 */
export function savingsText(r: Report, f: Report['insights'][number]): string | null {
  const s = f.savings;
  if (!s) return null;
  const sem = s.semantics === 'slowest' ? 'the slowest rank' : sumSemantics(r.io) ?? 'one rank';
  const io = s.semantics === 'slowest' ? r.io.ioTime : r.io.cumulativeIoTime;
  const lead = s.basis === 'bound' ? `at most ${formatSeconds(s.high)} (about ${formatSeconds(s.seconds)})` : `about ${formatSeconds(s.seconds)} (${formatSeconds(s.low)}–${formatSeconds(s.high)})`;
  const basis = s.basis === 'job' ? "the job's own evidence" : s.basis === 'reference' ? 'a stated reference' : 'an upper bound';
  return `${lead} of the ${formatSeconds(io)} I/O time (${sem}); done well: ${s.reference} (${basis})`;
}

/** What a sum runs over, as the output names it: over ranks, over calls that ran at once, or nothing to sum (null). */
export function sumSemantics(io: IoSummary): string | null {
  if (io.overlapSeconds > 0) return io.processes > 1 ? 'summed over ranks and their concurrent calls' : 'summed over concurrent calls';
  return io.processes > 1 ? 'summed over ranks' : null;
}

/** An operation class as the breakdown names it. */
export const OP_LABEL: Readonly<Record<IoOp, string>> = { metadata: 'metadata (open, close, stat, seek)', read: 'read', write: 'write', sync: 'sync', other: 'other' };

/**
 * The breakdown's lines: one per part (layer × operation) with both semantics and what the layers beneath took,
 * then what the input cannot time ("not recorded", never 0 %).
 */
export function breakdownLines(io: IoSummary): string[] {
  const cum = io.cumulativeIoTime;
  const out: string[] = [];
  for (const b of io.breakdown) {
    const share = cum > 0 ? formatPercent(b.cumulativeSeconds / cum) : '—';
    const beneath = Object.entries(b.beneath)
      .filter(([, v]) => v > 0)
      .map(([l, v]) => `${l} ${formatSeconds(v)}`);
    const summed = io.processes > 1 || io.overlapSeconds > 0;
    const slow = summed ? `, ${formatSeconds(b.seconds)} ${b.slowestIsMean ? 'per rank on average (no per-rank time recorded)' : 'on the slowest rank'}` : '';
    out.push(`${b.layer} ${OP_LABEL[b.op]}: ${share}, ${formatSeconds(b.cumulativeSeconds)}${summed ? ' summed' : ''}${slow}${beneath.length ? `; inside it: ${beneath.join(', ')}` : ''}`);
  }
  for (const n of io.notRecorded) out.push(`${n.layer} ${OP_LABEL[n.op]}: not recorded (${n.reason})`);
  // Time on files that are not storage, when it is worth a line (at least 1 % of the time it and the I/O take).
  const ns = io.notStorage;
  if (ns && ns.cumulativeSeconds >= 0.01 * (ns.cumulativeSeconds + cum)) {
    const summed = io.processes > 1 || io.overlapSeconds > 0;
    const top = ns.files[0];
    out.push(
      `not storage, waiting on other processes or devices (not I/O time): ${formatSeconds(ns.cumulativeSeconds)}${summed ? ` summed, ${formatSeconds(ns.seconds)} on the slowest rank` : ''}, ${ns.count} file(s)` +
        (top ? `; most on "${top.name}" (${top.reason}, ${formatSeconds(top.cumulativeSeconds)})` : ''),
    );
  }
  return out;
}

/** The level marker of a finding in plain text (`[HIGH D10]`), so that levels show without colour. */
export function levelMarker(level: string, code: string): string {
  return `[${level} ${code}]`;
}

/** A threshold value as the panel shows it. */
export function thresholdValue(v: number, unit: string): string {
  if (unit === 'ratio') return `${+(v * 100).toFixed(6)}%`;
  if (unit === 'seconds') return `${v} seconds`;
  if (unit === 'bytes') return `${v} bytes`;
  return String(v);
}
