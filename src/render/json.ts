import type { Report } from '../contract/index.js';

/** The report as JSON (the report is the JSON; this only serialises it). */
export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
