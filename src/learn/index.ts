// The learning engine's public surface: what `iolens train | predict | explain` call.
export { LearnInputError } from './errors.js';
export { makeTable, takeRows, type Column, type Table } from './table.js';
export type { FeatureSpec } from './preprocess.js';
export { train, type TrainOptions } from './train.js';
export { predict, explain, isTreeKind, type PredictOptions, type Predictions, type ExplainOptions, type Explanation } from './predict.js';
export { serializeModel, parseModel, SCHEMA_VERSION, type TrainedModel, type FeatureRoleEntry } from './model-file.js';
export { leakGuard, type LeakReport } from './leak-guard.js';
export { validationSplit, sortByTime, type Split } from './split.js';
export { logMetrics, baselineMetrics, toModelSpace, fromModelSpace, type Metrics } from './metrics.js';
export { loadXgboostJson } from './xgboost-json.js';
export { MODEL_KINDS, type ModelKind } from './models.js';
export { typicalRow, referenceRow, constantColumns } from './reference.js';
export { invertTransform } from './preprocess.js';
