// The glue between the learning engine (src/learn/) and the rest of IOLens: feature tables from the job store or
// from logs (through the pipeline's `extract`), the model file's `inputs` block (feature sets, two-stage, app
// history), and the learned section of a report. The `train`, `predict`, `explain` and `report --model` commands
// call these; nothing below the front-ends imports this layer.
export { readStoreTable, type StoreRead } from './source.js';
export { logsTable, rowsToTable, JOB_COLUMN_KINDS, type LoadedTable, type LogsRead, type ColumnKind } from './log-rows.js';
export { defaultJobFeatures, presetFeatures, readFeatureFile, parseFeatureFile, fileFeatures, checkFeatureSets, PRESETS, type FeatureChoice } from './features.js';
export { HISTORY_FEATURES, historyFeatures, entriesOf, historyTail, type HistorySettings, type HistoryEntry } from './history.js';
export { parseBundle, serializeBundle, modelTable, requiredColumns, optionalColumns, checkJobsModel, INPUTS_VERSION, PREDICTED_PREFIX, type ModelBundle, type Inputs, type Stage } from './bundle.js';
export { trainBundle, expandColumns, type TrainRequest } from './train-model.js';
export { loadBundle, saveBundle } from './bundle.js';
export { readRows, predictRows, explainRows, explainRow, type RowSource, type Rows, type RowExplanation } from './run.js';
export { describeFeature, problemsOf, contributionText, valueText, factorOf, STEMS } from './words.js';
export { learnedSection, learnedOfRow, withLearned, baselineGate, diagnoseWithModel, matchProblems, rankedCauses, targetUnit, BLAME_MIN } from './learned.js';
export { blameLines, blameText, oodWords, zeroFeatures, groupContributions, counterKey, factorLimit, type BlameLine } from './reference.js';
