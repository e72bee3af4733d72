/** Public surface of the report stage. */
export { buildReport, buildReportFromFacts, type BuildReportOptions } from './build-report.js';
export { renderTemplate, humanBytes, pyFixed, pyFloat } from '../text/template.js';
export * from '../contract/index.js';
