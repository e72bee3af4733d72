/** The contract: types and constants every layer shares. Imports nothing outside this folder. */
export * from './finding.js';
export * from './report.js';
export * from './comparison.js';
export * from './charts.js';
export * from './serve-api.js';
export * from './errors.js';
export * from './features.js';
export * from './upgrade.js';
export * from './report-schema.js';
