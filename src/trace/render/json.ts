import type { TraceReport } from '../report.js';

/** The report as JSON (the report object is already JSON-serialisable; this is the single source). */
export function renderJson(report: TraceReport, pretty = true): string {
  return `${JSON.stringify(report, null, pretty ? 2 : 0)}\n`;
}
