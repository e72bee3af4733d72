/**
 * IOLens as a library: `import { diagnoseLog } from 'iolens'`. Everything here is public and documented in
 * docs/api.md; anything not exported here may change without notice. The job store (DuckDB) has its own entry,
 * `iolens/store`, so that importing the library does not load the database engine.
 */

// The contract: the report, findings, feature sets, errors.
export * from './contract/index.js';

// One log → report, feature vectors and job row.
export { diagnoseLog, type DiagnoseOptions } from './pipeline/diagnose.js';
export { extract, type ExtractOptions, type Extracted, type JobRow, type RowValue } from './pipeline/extract.js';
export { openLog, type LogInput } from './pipeline/open.js';

// A trace (DXT, Recorder, DFTracer, Parquet) → its views and trace findings, or the Darshan checks on counters
// derived from its events.
export { diagnoseTrace, type DiagnoseTraceOptions } from './pipeline/diagnose-trace.js';
export { reportFromTrace, type ReportFromTraceOptions } from './pipeline/report-from-trace.js';
export { toolVersion } from './pipeline/resources.js';

// Rendering a report (terminal, JSON, CSV, HTML, Markdown).
export { renderReport, RENDERERS, type RendererName } from './render/registry.js';
export type { RenderOptions } from './render/options.js';

// Configuration (thresholds and per-check settings, Drishti's --config form accepted).
export { defaultConfig, parseConfig, ConfigError, type ReportConfig, type CheckOverride } from './config/load.js';
export { KNOBS, type Knob } from './config/knobs.js';

// Catalogues: checks and feature sets.
export { CHECKS, CHECKS_BY_CODE } from './checks/registry.js';
export type { AnyCheck, CheckMeta } from './checks/types.js';
export { FEATURE_SETS, FEATURE_SETS_BY_ID, type FeatureSetDefinition } from './features/registry.js';

// The Darshan reader, for callers that want the records themselves.
export { DarshanLog, DarshanFormatError, FixedTable, type DxtTable, type JobRecord } from './formats/darshan/index.js';
