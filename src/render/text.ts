import { renderTemplate } from '../text/template.js';
import type { Detail, Report } from '../contract/index.js';

/** A detail line's text with the file shown as a base name (or full path), re-rendered from its template. */
export function detailText(report: Report, d: Detail, fullPath: boolean): string {
  const tpl = report.messages[d.messageId];
  if (!tpl || d.subject.kind !== 'file' || fullPath) return d.message;
  const name = d.subject.name;
  const base = name.slice(name.lastIndexOf('/') + 1) || name;
  return renderTemplate(tpl, { ...d.data, file: base });
}

/** `2017-03-20 09:07:47+00:00`, the banner's time format. */
export function bannerTime(iso: string): string {
  return iso ? iso.replace('T', ' ').replace('Z', '+00:00') : '?';
}

/** The banner's lines (label, value) — shared by every renderer. */
export function bannerRows(r: Report): [string, string][] {
  const j = r.job;
  const f = j.files;
  // Drishti divides whole seconds (end − start); the default mode shows Darshan's run time.
  const seconds = r.mode === 'drishti' ? Math.floor(j.endTime.epochSeconds) - Math.floor(j.startTime.epochSeconds) : j.durationSeconds;
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

/** `N critical issues, N warnings, and N recommendations`. */
export function summaryLine(r: Report): string {
  return `${r.summary.high} critical issues, ${r.summary.warn} warnings, and ${r.summary.recommendations} recommendations`;
}

/** A threshold value as the panel shows it. */
export function thresholdValue(v: number, unit: string): string {
  if (unit === 'ratio') return `${+(v * 100).toFixed(6)}%`;
  if (unit === 'seconds') return `${v} seconds`;
  if (unit === 'bytes') return `${v} bytes`;
  return String(v);
}
