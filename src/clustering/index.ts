// Clustering runs over the job store (Gauge, issue 15): a table's rows → HDBSCAN* hierarchy → per-node summaries,
// local models and explanations → the store's cluster tables, the hierarchy file and the summary. See
// docs/cluster.md; `iolens cluster` is a thin layer over `clusterStore`.
import { existsSync } from 'node:fs';
import { InputError } from '../contract/errors.js';
import { openStore } from '../store/db.js';
import { packageVersion } from '../util/package-root.js';
import { runClustering, type RunOptions } from './run.js';
import { loadRun, saveRun, type StoredRun } from './save.js';
import { loadFeatureTable, type SourceOptions } from './source.js';

export { describeFeature, formatFeatureValue, ruleWords, type FeatureInfo } from './describe.js';
export { loadFeatureTable, readFeatureList, parseFeatureList, type FeatureTable, type SourceOptions } from './source.js';
export { runClustering, resolveOptions, type ClusterRun, type NodeRecord, type RunOptions } from './run.js';
export { DEFAULT_MODEL_SETTINGS, type ModelSettings } from './models.js';
export { saveRun, loadRun, loadMembers, runIds, jsonText, type StoredRun } from './save.js';
export { hierarchyDocument, hierarchyJson, HIERARCHY_FORMAT, HIERARCHY_VERSION } from './hierarchy.js';
export { renderRunSummary, topGroups, type SummaryFormat } from './report.js';

export interface ClusterStoreOptions extends SourceOptions, RunOptions {
  db: string;
  note?: string | null;
}

/**
 * Clusters a table of a store and saves the run (under a new run id; nothing is replaced). The store is opened
 * for writing only to read the rows and to save the run, not while clustering.
 */
export async function clusterStore(o: ClusterStoreOptions): Promise<{ run: StoredRun; keys: string[]; labels: Int32Array }> {
  if (!existsSync(o.db)) throw new InputError(`no database at ${o.db} (run iolens ingest or import-features first, or pass --db)`);
  let store = await openStore(o.db);
  let table;
  try {
    table = await loadFeatureTable(store, o);
  } finally {
    store.close();
  }
  const run = await runClustering(table, o);
  store = await openStore(o.db);
  try {
    const stored = await saveRun(store, run, { note: o.note ?? null, version: packageVersion() });
    return { run: stored, keys: run.keys, labels: run.members.cluster };
  } finally {
    store.close();
  }
}

/** A stored run of a store ('latest' for the newest). */
export async function storedRun(db: string, runId: string): Promise<StoredRun> {
  const store = await openStore(db, { readOnly: true });
  try {
    return await loadRun(store, runId);
  } finally {
    store.close();
  }
}
