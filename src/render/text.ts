import { renderTemplate } from '../text/template.js';
import { formatBytes, formatPercent, formatRate, formatSeconds, plural } from '../text/format.js';
import type { Detail, Report } from '../contract/index.js';

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
  const share = io.ioShare === null ? '' : `, ${formatPercent(io.ioShare)} of the run time`;
  const layers = io.layers.map((l) => `${l.layer} ${formatBytes(l.bytesRead + l.bytesWritten)} in ${formatSeconds(l.slowestRankTime)}${l.throughput !== null ? ` (${formatRate(l.throughput)})` : ''}`);
  const nodes = j.nodes.count === null ? 'unknown (give --nodes, or --sacct on the cluster)' : `${j.nodes.count} (${j.nodes.source === 'sacct' ? 'from Slurm sacct' : 'from --nodes'})`;
  const rows: [string, string][] = [
    ['JOB', j.jobId],
    ['EXECUTABLE', j.exe || '(none recorded)'],
    ['DARSHAN', j.logName],
    ['EXECUTION TIME', `${bannerTime(j.startTime.iso)} to ${bannerTime(j.endTime.iso)} (${formatSeconds(j.durationSeconds)})`],
    ['I/O TIME', `${formatSeconds(io.ioTime)}${share} (slowest rank); ${formatBytes(io.bytes)} moved`],
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

/** What a finding costs, in words: `62% of the I/O time (≈ 31% of the run time)`; null when it has no cost. */
export function costText(r: Report, f: Report['insights'][number]): string | null {
  if (!f.cost) return null;
  const what = f.cost.basis === 'time' ? 'I/O time' : f.cost.basis === 'bytes' ? 'bytes moved' : 'I/O requests';
  const run = f.cost.basis === 'time' && r.io.ioShare !== null ? ` (≈ ${formatPercent(f.cost.share * r.io.ioShare)} of the run time)` : '';
  return `${formatPercent(f.cost.share)} of the job's ${what}${run}`;
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
