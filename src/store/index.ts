/** The job store as a library: `import { ingest } from 'iolens/store'` (loads DuckDB). See docs/store.md. */
export { ingest, type IngestOptions, type IngestStats } from './ingest.js';
export { mergeStores } from './merge.js';
export { openStore, type Store } from './db.js';
export { JOB_COLUMNS, FILE_COLUMNS, SCHEMA_VERSION, type ColumnSpec } from './schema.js';
export { buildSummary, renderSummary } from './summary.js';
export { exportParquet } from './export.js';
export { importFeatures } from './import-features.js';
export { loadSacct } from './sacct.js';
export { loadFsMetrics } from './fs-metrics.js';
