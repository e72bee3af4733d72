import { DRISHTI_CSV_CODES, type Report } from '../contract/index.js';
import { escapeCsv } from '../text/escape.js';
import type { RenderOptions } from './options.js';
import { LEARNED_CSV_COLUMNS, learnedCsvCells } from './learned.js';

/**
 * The CSV of a report: one header and one row.
 *
 * - `--drishti`: Drishti's exact columns, `JOB` then True/False for each of its 32 codes.
 * - default mode: `file`, `JOB`, then one column per check the mode runs — Drishti's 32 codes first, in Drishti's
 *   order, then the others (D01 …) in check order — each True/False (the check emitted a finding), or with
 *   `csvLevels` the finding's level (the most severe when several), empty when it emitted none.
 */
export function csvCodes(report: Pick<Report, 'mode' | 'checks'>): string[] {
  if (report.mode === 'drishti') return [...DRISHTI_CSV_CODES];
  const drishti = new Set<string>(DRISHTI_CSV_CODES);
  return [...DRISHTI_CSV_CODES, ...report.checks.map((c) => c.code).filter((c) => !drishti.has(c))];
}

/**
 * The header line for a mode and its check codes (batches print it once, also when the first log fails); with
 * `learned` (report --model) the learned columns follow the checks.
 */
export function csvHeader(mode: Report['mode'], codes: readonly string[], learned = false): string {
  return `${[...(mode === 'drishti' ? ['JOB', ...codes] : ['file', 'JOB', ...codes]), ...(learned ? LEARNED_CSV_COLUMNS : [])].map(escapeCsv).join(',')}\n`;
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
  return `${[...lead.map(escapeCsv), ...codes.map(cell), ...(report.learned ? learnedCsvCells(report) : [])].join(',')}\n`;
}

export function renderCsv(report: Report, opts: RenderOptions = {}): string {
  const codes = csvCodes(report);
  return csvHeader(report.mode, codes, !!report.learned) + csvRow(report, codes, opts);
}
