import type { Report } from '../report/types.js';

/** The report as JSON (the report is the JSON; this only serialises it). */
export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
