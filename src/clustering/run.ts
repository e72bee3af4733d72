// A clustering run: HDBSCAN* over a feature table, then every node of the condensed tree described — per-feature
// median and IQR, the target and I/O time of its jobs, the one-split rule against its sibling(s) in words, and for
// chosen nodes a local throughput model with its cross-validated error next to the global model's and a SHAP
// summary. The result is what the store keeps (cluster_runs / clusters / cluster_members) and what --out writes.
import { availableParallelism } from 'node:os';
import { UsageError } from '../contract/errors.js';
import { clusterMatrix, clusterRows, columnSummary, oneSplitRule, signedLog10, type ClusterResult } from '../cluster/index.js';
import { quantileSorted } from '../util/stats.js';
import { toModelSpace } from '../learn/index.js';
import { distFile } from '../util/package-root.js';
import { runTasks } from '../util/tasks.js';
import { formatFeatureValue, ruleWords, type FeatureInfo } from './describe.js';
import { accuracy, DEFAULT_MODEL_SETTINGS, fitNodeModel, sampleRows, type Accuracy, type ModelData, type ModelSettings, type ModelTask, type ModelTaskResult, type ShapFeature } from './models.js';
import type { FeatureTable } from './source.js';

export interface RunOptions {
  /** Default: max(5, round(rows / 200)). */
  minClusterSize?: number;
  /** Default: min(minClusterSize, 10). */
  minSamples?: number;
  selection?: 'eom' | 'leaf';
  epsilon?: number;
  /** Principal components to cluster: a number, null for none, 'auto' (default: the engine's rule). */
  pca?: number | 'auto' | null;
  /** Worker threads (default: available parallelism). */
  threads?: number;
  models?: Partial<ModelSettings>;
  onProgress?: (line: string) => void;
}

/** Per-node description of its rows (clusters.summary). */
export interface NodeSummary {
  /** Median, quartiles and IQR of every feature over the node's rows, in stored units. */
  features: Record<string, { median: number; q1: number; q3: number; iqr: number }>;
  /** The target over the node's rows that have a usable (positive) value. */
  target: { column: string; rows: number; median: number | null } | null;
  /** Total of the I/O-time column over the node's rows (rows with a value). */
  io_time: { column: string; rows: number; total: number } | null;
  /** The node's applications, the most jobs first (at most APPS_LISTED), when the table names them. */
  apps?: { name: string; jobs: number }[];
}

/** Applications a node summary lists. */
export const APPS_LISTED = 3;

export interface NodeModel {
  family: 'gbdt';
  target: string;
  /** Rows of the node with a usable target: the rows cross-validated. */
  rows: number;
  /** Rows the node's own model was trained on (a seeded sample above max_train_rows). */
  trained_rows: number;
  folds: number;
  /** Model inputs after the leak guard; `dropped` says what it removed and why. */
  features: string[];
  dropped: { feature: string; reason: string }[];
  params: Record<string, unknown>;
  /** Out-of-fold accuracy of the node's local models on its rows. */
  cv: Accuracy;
  /** Out-of-fold accuracy of the global (root) model on the same rows. */
  global: Accuracy;
  /** Out-of-fold accuracy of predicting the training folds' median. */
  baseline: Accuracy;
}

export interface NodeRule {
  /** The sibling node(s) the rule separates this node from. */
  siblings: number[];
  feature: string;
  label: string;
  direction: '<=' | '>';
  /** In stored units; `threshold_text` in human units. */
  threshold: number;
  threshold_text: string;
  share_in_node: number;
  share_in_sibling: number;
  balanced_accuracy: number;
  text: string;
}

export interface NodeExplanation {
  /** Mean |SHAP| and sign per model input of the node's own model (null without a model). */
  shap: { baseline: 'path'; rows: number; features: (ShapFeature & { label: string })[] } | null;
  /** The one-split rule against the sibling(s) (null for the root). */
  rule: NodeRule | null;
}

/** One node of the condensed tree as stored (clusters row). λ and stability may be Infinity in memory. */
export interface NodeRecord {
  id: number;
  /** Parent node id, null for the root. */
  parent: number | null;
  depth: number;
  size: number;
  lambda_birth: number;
  lambda_death: number;
  stability: number;
  selected: boolean;
  /** Flat cluster label of a selected node, else null. */
  label: number | null;
  target_median: number | null;
  summary: NodeSummary;
  model: NodeModel | null;
  explanation: NodeExplanation | null;
}

/** What was clustered and how (cluster_runs, without the id and time given when saved). */
export interface RunInfo {
  source_table: string;
  key_column: string;
  features: string[];
  params: Record<string, unknown>;
  rows: number;
  clusters: number;
  noise: number;
}

export interface Members {
  cluster: Int32Array;
  node: Int32Array;
  probability: Float64Array;
  outlier_score: Float64Array;
}

export interface ClusterRun {
  info: RunInfo;
  nodes: NodeRecord[];
  keys: string[];
  members: Members;
}

/** Usable target: finite and positive (a job that moved data has a throughput). */
const usable = (v: number): boolean => Number.isFinite(v) && v > 0;

function checkInt(name: string, v: number, min: number): number {
  if (!Number.isInteger(v) || v < min) throw new UsageError(`${name} must be a whole number ≥ ${min}, not ${v}`);
  return v;
}

/** Resolves and checks the options (one clear error each). */
export function resolveOptions(n: number, d: number, o: RunOptions) {
  const minClusterSize = checkInt('min cluster size', o.minClusterSize ?? Math.max(5, Math.round(n / 200)), 2);
  const minSamples = checkInt('min samples', o.minSamples ?? Math.min(minClusterSize, 10), 1);
  const selection = o.selection ?? 'eom';
  if (selection !== 'eom' && selection !== 'leaf') throw new UsageError(`selection must be eom or leaf, not ${String(selection)}`);
  const epsilon = o.epsilon ?? 0;
  if (!(Number.isFinite(epsilon) && epsilon >= 0)) throw new UsageError(`epsilon must be a number ≥ 0, not ${epsilon}`);
  const pca = o.pca === undefined ? 'auto' : o.pca;
  if (typeof pca === 'number' && (!Number.isInteger(pca) || pca < 1 || pca > d)) throw new UsageError(`PCA needs a whole number of components from 1 to ${d}, not ${pca}`);
  const threads = checkInt('threads', o.threads ?? availableParallelism(), 1);
  const models: ModelSettings = { ...DEFAULT_MODEL_SETTINGS, ...o.models };
  checkInt('max models', models.maxModels, 0);
  checkInt('folds', models.folds, 2);
  // Each fold's training part must keep the 20 rows the learn engine needs at least.
  checkInt('model min rows', models.minRows, Math.max(30, Math.ceil((20 * models.folds) / (models.folds - 1))));
  checkInt('model training rows', models.maxTrainRows, 50);
  checkInt('explained rows', models.explainRows, 1);
  checkInt('seed', models.seed, 0);
  return { minClusterSize, minSamples, selection, epsilon, pca, threads, models };
}

/** Depth of every node (parents have smaller ids). */
function depths(r: ClusterResult): number[] {
  const out: number[] = [];
  for (const c of r.tree.clusters) out[c.id] = c.parent < 0 ? 0 : out[c.parent] + 1;
  return out;
}

function summaryOf(t: FeatureTable, rows: Int32Array): NodeSummary {
  const s = columnSummary(t.data, t.d, rows);
  const features: NodeSummary['features'] = {};
  t.features.forEach((f, j) => (features[f.name] = { median: s.median[j], q1: s.q1[j], q3: s.q3[j], iqr: s.iqr[j] }));
  let target: NodeSummary['target'] = null;
  if (t.target) {
    const vals: number[] = [];
    for (const r of rows) if (usable(t.target.values[r])) vals.push(t.target.values[r]);
    target = { column: t.target.column, rows: vals.length, median: vals.length > 0 ? quantileSorted(Float64Array.from(vals).sort(), 0.5) : null };
  }
  let io: NodeSummary['io_time'] = null;
  if (t.ioTime) {
    let total = 0;
    let k = 0;
    for (const r of rows) {
      const v = t.ioTime.values[r];
      if (Number.isFinite(v)) {
        total += v;
        k++;
      }
    }
    io = { column: t.ioTime.column, rows: k, total };
  }
  let apps: NodeSummary['apps'];
  if (t.apps) {
    const counts = new Map<string, number>();
    for (const r of rows) counts.set(t.apps[r], (counts.get(t.apps[r]) ?? 0) + 1);
    apps = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, APPS_LISTED).map(([name, jobs]) => ({ name, jobs }));
  }
  return { features, target, io_time: io, ...(apps ? { apps } : {}) };
}

/** Rows of each side a one-split rule is searched on at most (a seeded sample above that). */
export const RULE_SEARCH_ROWS = 5000;

/** Share of `rows` whose value of column j satisfies the rule. */
function shareSatisfying(t: FeatureTable, rows: Int32Array, j: number, direction: '<=' | '>', threshold: number): number {
  let k = 0;
  for (const r of rows) if (t.data[r * t.d + j] <= threshold === (direction === '<=')) k++;
  return k / rows.length;
}

/**
 * The one-split rule between a node and its sibling(s), searched on at most RULE_SEARCH_ROWS rows of each side;
 * the shares are then counted over all rows of both sides.
 */
function ruleOf(t: FeatureTable, r: ClusterResult, id: number): NodeRule | null {
  const cl = r.tree.clusters;
  const parent = cl[id].parent;
  if (parent < 0) return null;
  const siblings = cl[parent].children.filter((c) => c !== id);
  if (siblings.length === 0) return null;
  const mine = clusterRows(r.tree, id);
  const other = siblings.length === 1 ? clusterRows(r.tree, siblings[0]) : Int32Array.from(siblings.flatMap((s) => Array.from(clusterRows(r.tree, s))));
  const found = oneSplitRule(t.data, t.d, sampleRows(mine, RULE_SEARCH_ROWS, id * 2 + 1), sampleRows(other, RULE_SEARCH_ROWS, id * 2 + 2));
  if (!found) return null;
  const rule = { ...found };
  if (mine.length > RULE_SEARCH_ROWS || other.length > RULE_SEARCH_ROWS) {
    rule.shareInNode = shareSatisfying(t, mine, rule.feature, rule.direction, rule.threshold);
    rule.shareInSibling = shareSatisfying(t, other, rule.feature, rule.direction, rule.threshold);
    rule.balancedAccuracy = (rule.shareInNode + 1 - rule.shareInSibling) / 2;
  }
  const info: FeatureInfo = t.features[rule.feature];
  return {
    siblings,
    feature: info.name,
    label: info.label,
    direction: rule.direction,
    threshold: rule.threshold,
    threshold_text: formatFeatureValue(info, rule.threshold),
    share_in_node: rule.shareInNode,
    share_in_sibling: rule.shareInSibling,
    balanced_accuracy: rule.balancedAccuracy,
    text: ruleWords(info, rule, siblings.length),
  };
}

/**
 * Nodes that get a model, at most settings.maxModels: the root (its model is the global one), then the selected
 * clusters, taking in turn the next largest and the next by I/O time (the two lists of the summary), then the other
 * nodes, larger first. Only nodes with at least settings.minRows rows with a usable target qualify.
 */
function modelTasks(t: FeatureTable, r: ClusterResult, s: ModelSettings): ModelTask[] {
  if (!t.target || s.maxModels === 0) return [];
  const target = t.target.values;
  const rowsOf = (id: number) => Int32Array.from(clusterRows(r.tree, id)).filter((i) => usable(target[i])).sort();
  const cl = r.tree.clusters;
  const root = rowsOf(0);
  if (root.length < s.minRows) return [];
  const selected = cl.filter((c) => c.id !== 0 && c.selected).map((c) => c.id);
  const bySize = (a: number, b: number) => cl[b].size - cl[a].size || a - b;
  const io = t.ioTime?.values;
  const ioOf = (id: number) => {
    let total = 0;
    if (io) for (const i of clusterRows(r.tree, id)) if (Number.isFinite(io[i])) total += io[i];
    return total;
  };
  const ioTotal = new Map(selected.map((id) => [id, ioOf(id)]));
  const large = [...selected].sort(bySize);
  const costly = [...selected].sort((a, b) => ioTotal.get(b)! - ioTotal.get(a)! || a - b);
  const order: number[] = [];
  for (let i = 0; i < selected.length; i++) order.push(large[i], ...(io ? [costly[i]] : []));
  order.push(...cl.filter((c) => c.id !== 0 && !c.selected).map((c) => c.id).sort(bySize));
  const tasks: ModelTask[] = [{ node: 0, rows: root }];
  const seen = new Set<number>([0]);
  for (const id of order) {
    if (tasks.length >= s.maxModels) break;
    if (seen.has(id)) continue;
    seen.add(id);
    const rows = rowsOf(id);
    if (rows.length >= s.minRows) tasks.push({ node: id, rows });
  }
  return tasks;
}

function shared(a: Float64Array): Float64Array {
  const out = new Float64Array(new SharedArrayBuffer(a.length * 8));
  out.set(a);
  return out;
}

async function fitModels(t: FeatureTable, tasks: ModelTask[], inputs: number[], settings: ModelSettings, threads: number, progress: (s: string) => void) {
  const results = new Map<number, ModelTaskResult>();
  if (tasks.length === 0) return results;
  const useWorkers = threads > 1 && tasks.length > 1;
  const md: ModelData = {
    data: useWorkers ? shared(t.data) : t.data,
    d: t.d,
    names: t.features.map((f) => f.name),
    inputs,
    target: useWorkers ? shared(t.target!.values) : t.target!.values,
    targetName: t.target!.column,
    runtime: t.runtime ? (useWorkers ? shared(t.runtime.values) : t.runtime.values) : null,
    settings,
  };
  const done = (res: ModelTaskResult) => {
    results.set(res.node, res);
    progress(`model ${results.size}/${tasks.length}: node #${res.node}${res.ok ? '' : ` failed: ${res.error}`}`);
  };
  // Larger nodes first, so that the last task to finish is a small one.
  const ordered = [...tasks].sort((a, b) => b.rows.length - a.rows.length || a.node - b.node);
  if (!useWorkers) {
    for (const task of ordered) done(await fitNodeModel(task, md));
  } else {
    try {
      await runTasks<ModelTask, ModelTaskResult>({
        script: distFile('clustering/model-worker.js'),
        workerData: md,
        threads: Math.min(threads, tasks.length),
        tasks: ordered,
        onResult: done,
      });
    } catch (err) {
      // A worker that could not start or died (fitNodeModel itself never throws): the rest run in this thread.
      progress(`model workers failed (${(err as Error).message}); fitting the remaining models in this thread`);
      for (const task of ordered) if (!results.has(task.node)) done(await fitNodeModel(task, md));
    }
  }
  return results;
}

/** Clusters a feature table and describes every node of the hierarchy. */
export async function runClustering(t: FeatureTable, o: RunOptions = {}): Promise<ClusterRun> {
  const progress = o.onProgress ?? (() => {});
  const opt = resolveOptions(t.n, t.d, o);
  const seconds: Record<string, number> = {};
  let t0 = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    seconds[name] = Math.round(now - t0) / 1000;
    t0 = now;
  };

  // Ratios and log10 magnitudes are clustered as they are; every other column gets the signed log transform.
  const x = new Float64Array(t.data.length);
  const logCols = t.features.map((f) => f.logTransform);
  for (let i = 0; i < t.n; i++) for (let j = 0; j < t.d; j++) x[i * t.d + j] = logCols[j] ? signedLog10(t.data[i * t.d + j]) : t.data[i * t.d + j];
  progress(`clustering ${t.n} rows × ${t.d} features`);
  let r: ClusterResult;
  try {
    r = await clusterMatrix(x, t.n, t.d, {
      minClusterSize: opt.minClusterSize,
      minSamples: opt.minSamples,
      selection: opt.selection,
      epsilon: opt.epsilon,
      pca: opt.pca,
      threads: opt.threads,
      logTransform: false,
    });
  } catch (err) {
    // The engine's errors are one clear sentence about the input or the options.
    throw new UsageError(`cannot cluster ${t.table}: ${(err as Error).message}`);
  }
  lap('cluster');
  const cl = r.tree.clusters;
  progress(`hierarchy: ${cl.length} nodes, ${r.selectedClusters.length} clusters selected`);

  const depth = depths(r);
  const nodes: NodeRecord[] = cl.map((c) => {
    const summary = summaryOf(t, clusterRows(r.tree, c.id));
    return {
      id: c.id,
      parent: c.parent < 0 ? null : c.parent,
      depth: depth[c.id],
      size: c.size,
      lambda_birth: c.lambdaBirth,
      lambda_death: c.lambdaDeath,
      stability: c.stability,
      selected: c.selected,
      label: c.selected ? c.label : null,
      target_median: summary.target?.median ?? null,
      summary,
      model: null,
      explanation: null,
    };
  });
  lap('summaries');
  const rules = cl.map((c) => ruleOf(t, r, c.id));
  lap('rules');

  const inputs = t.features.map((f, j) => (f.timing ? -1 : j)).filter((j) => j >= 0);
  const tasks = inputs.length > 0 ? modelTasks(t, r, opt.models) : [];
  if (tasks.length > 0) progress(`models: ${tasks.length} nodes, ${opt.models.folds}-fold cross-validation`);
  const results = await fitModels(t, tasks, inputs, opt.models, opt.threads, progress);
  lap('models');

  const truth = t.target ? Float64Array.from(t.target.values, (v) => (usable(v) ? toModelSpace(v) : NaN)) : null;
  const root = results.get(0);
  const globalPred = new Float64Array(t.n).fill(NaN);
  if (root?.ok) tasks[0].rows.forEach((row, i) => (globalPred[row] = root.oof[i]));
  const labelOf = new Map(t.features.map((f) => [f.name, f.label]));
  const errors: { node: number; error: string }[] = [];
  for (const task of tasks) {
    const res = results.get(task.node)!;
    if (!res.ok) {
      errors.push({ node: task.node, error: res.error });
      continue;
    }
    if (!root?.ok) continue;
    const y = Float64Array.from(task.rows, (row) => truth![row]);
    nodes[task.node].model = {
      family: 'gbdt',
      target: t.target!.column,
      rows: task.rows.length,
      trained_rows: res.trainedRows,
      folds: opt.models.folds,
      features: res.features,
      dropped: res.dropped,
      params: res.params,
      cv: accuracy(y, res.oof),
      global: accuracy(y, Float64Array.from(task.rows, (row) => globalPred[row])),
      baseline: accuracy(y, res.baselineOof),
    };
    nodes[task.node].explanation = {
      shap: { baseline: 'path', rows: res.shap.rows, features: res.shap.features.map((s) => ({ ...s, label: labelOf.get(s.feature) ?? s.feature })) },
      rule: rules[task.node],
    };
  }
  for (const node of nodes) if (!node.explanation && rules[node.id]) node.explanation = { shap: null, rule: rules[node.id] };

  let noise = 0;
  for (const l of r.labels) if (l < 0) noise++;
  const params: Record<string, unknown> = {
    min_cluster_size: opt.minClusterSize,
    min_samples: opt.minSamples,
    selection: opt.selection,
    epsilon: opt.epsilon,
    preparation: {
      log_transformed: t.features.filter((f) => f.logTransform).map((f) => f.name),
      scaling: 'robust: (x − median) / IQR per column (standard deviation where the IQR is 0)',
      pca: r.prepared.pca ? r.prepared.dims : null,
      pca_option: opt.pca,
      dims: r.prepared.dims,
      imputed_values: t.imputed,
    },
    target: t.target?.column ?? null,
    io_time: t.ioTime?.column ?? null,
    models: {
      family: 'gbdt',
      max_models: opt.models.maxModels,
      min_rows: opt.models.minRows,
      folds: opt.models.folds,
      max_train_rows: opt.models.maxTrainRows,
      explain_rows: opt.models.explainRows,
      seed: opt.models.seed,
      inputs: inputs.map((j) => t.features[j].name),
      timings_left_out: t.features.filter((f) => f.timing).map((f) => f.name),
      fitted: nodes.filter((n) => n.model).length,
      errors,
    },
    algorithm: r.info.algorithm,
    threads: r.info.threads,
    seconds: { ...r.info.seconds, ...seconds },
  };
  return {
    info: {
      source_table: t.table,
      key_column: t.keyColumn,
      features: t.features.map((f) => f.name),
      params,
      rows: t.n,
      clusters: r.selectedClusters.length,
      noise,
    },
    nodes,
    keys: t.keys,
    members: { cluster: r.labels, node: r.tree.pointCluster, probability: r.probabilities, outlier_score: r.outlierScores },
  };
}
