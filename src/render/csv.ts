import { DRISHTI_CSV_CODES, type Report } from '../contract/index.js';
import { escapeCsv } from '../text/escape.js';

/** Drishti's CSV: a header `JOB,S01,…,M10` and one row, the job id then True/False per code. */
export function renderCsv(report: Report): string {
  const fired = new Set(report.insights.map((i) => i.code));
  const header = ['JOB', ...DRISHTI_CSV_CODES];
  const row = [escapeCsv(report.job.jobId), ...DRISHTI_CSV_CODES.map((c) => (fired.has(c) ? 'True' : 'False'))];
  return `${header.join(',')}\n${row.join(',')}\n`;
}
