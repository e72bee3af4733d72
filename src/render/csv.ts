import { DRISHTI_CSV_CODES, MODEL_CODES, type Report } from '../contract/index.js';
import { escapeCsv } from '../text/escape.js';
import type { RenderOptions } from './options.js';

/**
 * The CSV of a report: one header and one row.
 *
 * - `--drishti`: Drishti's exact columns, `JOB` then True/False for each of its 32 codes.
 * - default mode: `file`, `JOB`, then one column per check the mode runs — Drishti's 32 codes first, in Drishti's
 *   order, then the others (D01 …) in check order — each True/False (the check emitted a finding), or with
 *   `csvLevels` the finding's level (the most severe when several), empty when it emitted none.
 * - with a learned model (`report --model`, `learned`), the model's codes (L01, L02) follow, like any finding's.
 */
export function csvCodes(report: Pick<Report, 'mode' | 'checks'>, learned = false): string[] {
  const model = learned ? MODEL_CODES : [];
  if (report.mode === 'drishti') return [...DRISHTI_CSV_CODES, ...model];
  const drishti = new Set<string>(DRISHTI_CSV_CODES);
  return [...DRISHTI_CSV_CODES, ...report.checks.map((c) => c.code).filter((c) => !drishti.has(c)), ...model];
}

/** The header line for a mode and its codes (batches print it once, also when the first log fails). */
export function csvHeader(mode: Report['mode'], codes: readonly string[]): string {
  return `${(mode === 'drishti' ? ['JOB', ...codes] : ['file', 'JOB', ...codes]).map(escapeCsv).join(',')}\n`;
}

const RANK = { HIGH: 0, WARN: 1, OK: 2, INFO: 3 } as const;

/** The data line of one report. */
export function csvRow(report: Report, codes: readonly string[], opts: RenderOptions = {}): string {
  const worst = new Map<string, keyof typeof RANK>();
  for (const i of report.insights) {
    const w = worst.get(i.code);
    if (w === undefined || RANK[i.level] < RANK[w]) worst.set(i.code, i.level);
  }
  const cell = (c: string) => (opts.csvLevels && report.mode !== 'drishti' ? (worst.get(c) ?? '') : worst.has(c) ? 'True' : 'False');
  const lead = report.mode === 'drishti' ? [report.job.jobId] : [report.input.paths[0] ?? report.job.logName, report.job.jobId];
  return `${[...lead.map(escapeCsv), ...codes.map(cell)].join(',')}\n`;
}

export function renderCsv(report: Report, opts: RenderOptions = {}): string {
  const codes = csvCodes(report, report.insights.some((i) => i.source === 'model'));
  return csvHeader(report.mode, codes) + csvRow(report, codes, opts);
}
