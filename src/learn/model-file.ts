import { LearnInputError } from './errors.js';
import type { Metrics } from './metrics.js';
import type { FittedModel, ModelKind } from './models.js';
import type { OodModel } from './ood.js';
import type { Preprocessor } from './preprocess.js';
import { treeFromArrays, type Tree } from './tree.js';

/** The model file's schema version; a loader refuses a newer one. */
export const SCHEMA_VERSION = 1;

/** One member of the ensemble: the fitted model, its validation scores and its ensemble weight. */
export interface Member {
  model: FittedModel;
  validation: Metrics;
  weight: number;
  tried: { params: Record<string, unknown>; rmse: number }[];
}

/**
 * What each feature is and what its blame is weighed against (docs/learn.md, "What blame is weighed against"):
 * `counter` (what the job did: 0 = it did not), `setting` or `context`; the reference `zero`, `typical` (training
 * median, most frequent category) or `own` (constant in training: never blamed). Set by whoever trains the model
 * from the columns' names and kinds (src/models/reference.ts); the engine reads it as data.
 */
export interface FeatureRoleEntry {
  feature: string;
  role: 'counter' | 'setting' | 'context';
  reference: 'zero' | 'typical' | 'own';
}

/** Everything a trained model needs to predict, explain and describe itself. */
export interface TrainedModel {
  schemaVersion: number;
  target: { column: string; transform: 'log10(1+y)' };
  preprocessor: Preprocessor;
  leakGuard: { dropped: { feature: string; reason: string }[] };
  members: Member[];
  ensemble: {
    method: 'average' | 'closest';
    /** How `average` weights were set. */
    weighting: string;
    validation: Metrics;
    /**
     * The prediction interval in model space: split-conformal bounds from the validation residuals (truth − ensemble
     * of the models fitted without those rows), the order statistics ⌊(n + 1)·5 %⌋ and ⌈(n + 1)·95 %⌉, which cover
     * a new job with probability ≥ `coverage` when it is exchangeable with the validation rows (with `--time` they are
     * the latest jobs; drift can lower it). `coverage` and `rows` are absent in files written before they were kept.
     */
    interval: { low: number; high: number; coverage?: number; rows?: number };
  };
  /** The best single member by validation RMSE (Kim et al.'s choice). */
  best: ModelKind;
  /** Per feature (the preprocessor's order), its role and reference; absent in files written before it was kept. */
  roles?: FeatureRoleEntry[];
  ood: OodModel;
  /** Training rows as z-scores (float32, seeded order) and their targets: kNN's data; the first `oodRows` are OOD's reference. */
  reference: { rows: Float32Array; y: Float64Array; nRows: number; oodRows: number };
  card: {
    rows: number;
    fitRows: number;
    validationRows: number;
    droppedRows: number;
    validation: 'time' | 'random';
    timeColumn: string | null;
    timeSpan: { from: string | number; to: string | number } | null;
    seed: number;
    baseline: Metrics;
    mlpBackend: string | null;
  };
}

/** A float32 as the shortest decimal that reads back to it (9 significant digits suffice). */
function f32(x: number): number {
  return Number(Math.fround(x).toPrecision(9));
}

function f32Base64(a: Float32Array): string {
  const buf = Buffer.alloc(a.length * 4);
  for (let i = 0; i < a.length; i++) buf.writeFloatLE(a[i], i * 4);
  return buf.toString('base64');
}

function f32FromBase64(s: string, n: number): Float32Array {
  const buf = Buffer.from(s, 'base64');
  if (buf.length !== n * 4) throw new LearnInputError('model file: reference rows have the wrong size');
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = buf.readFloatLE(i * 4);
  return out;
}

function treeJson(t: Tree): Record<string, number[]> {
  return {
    feature: Array.from(t.feature),
    threshold: Array.from(t.threshold),
    left: Array.from(t.left),
    right: Array.from(t.right),
    value: Array.from(t.value),
    cover: Array.from(t.cover),
    defaultLeft: Array.from(t.defaultLeft),
  };
}

function modelJson(m: FittedModel): Record<string, unknown> {
  switch (m.type) {
    case 'gbdt':
    case 'forest':
      return { type: m.type, params: m.params, base: m.trees.base, trees: m.trees.trees.map(treeJson) };
    case 'ridge':
    case 'poly2':
      return { type: m.type, params: m.params, ridge: m.ridge };
    case 'knn':
      // The rows and targets are the file's reference block; only the settings are stored here.
      return { type: m.type, params: m.params };
    case 'mlp':
      return {
        type: m.type,
        params: m.params,
        yMean: m.mlp.yMean,
        yStd: m.mlp.yStd,
        layers: m.mlp.layers.map((l) => ({ inputs: l.inputs, outputs: l.outputs, weights: Array.from(l.weights, f32), bias: Array.from(l.bias, f32) })),
      };
  }
}

/**
 * The model as one JSON document (schema in docs/learn.md). Deterministic: the same model gives the same bytes.
 * Standardisation statistics live once, in `columnStats`; kNN and the MLP read them from there.
 */
export function serializeModel(model: TrainedModel): string {
  const pre = model.preprocessor;
  const doc = {
    format: 'iolens-model',
    schemaVersion: model.schemaVersion,
    target: model.target,
    features: pre.features,
    columns: pre.columns,
    columnStats: pre.stats,
    leakGuard: model.leakGuard,
    models: model.members.map((mb) => ({ ...modelJson(mb.model), weight: mb.weight, validation: mb.validation, tried: mb.tried })),
    ensemble: model.ensemble,
    best: model.best,
    ...(model.roles ? { roles: model.roles } : {}),
    ood: model.ood,
    reference: {
      nRows: model.reference.nRows,
      nCols: pre.columns.length,
      oodRows: model.reference.oodRows,
      encoding: 'float32 little-endian, base64',
      rows: f32Base64(model.reference.rows),
      y: Array.from(model.reference.y),
    },
    card: model.card,
  };
  return JSON.stringify(doc) + '\n';
}

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function need(cond: unknown, what: string): asserts cond {
  if (!cond) throw new LearnInputError(`model file: ${what}`);
}

/** Reads a model file (text or parsed JSON). Refuses other formats and newer schema versions in one line. */
/** Whether every element is a finite number (JSON's null, a string or a missing entry is not). */
function finiteAll(a: unknown): boolean {
  return Array.isArray(a) && a.every((v) => typeof v === 'number' && Number.isFinite(v));
}

const isObj = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);
const fin = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const int = (v: unknown): v is number => Number.isInteger(v);
const str = (v: unknown): v is string => typeof v === 'string';

/**
 * The document's shape, checked before anything reads it: every field the loader, `predict` and `explain` use is
 * there with its type (a mutated or hand-edited file fails here with the field named, not later with a TypeError).
 */
function checkShape(doc: Doc): void {
  need(isObj(doc.target) && str(doc.target.column), 'target malformed');
  need(doc.columns.every(str), 'columns must be names');
  doc.columnStats.forEach((c: unknown, i: number) => need(isObj(c) && ['mean', 'std', 'lo', 'hi', 'missing'].every((k) => fin((c as Doc)[k])) && (c as Doc).std > 0 && ((c as Doc).median === undefined || fin((c as Doc).median)), `columnStats ${i} malformed`));
  doc.features.forEach((f: unknown, i: number) => {
    need(isObj(f) && str(f.name) && int(f.column), `feature ${i} is malformed`);
    if (f.kind === 'numeric') need(f.transform === 'slog' || f.transform === 'none', `feature ${i} has an unknown transform`);
    else need(f.kind === 'categorical' && Array.isArray(f.categories) && f.categories.every(str) && typeof f.other === 'boolean', `feature ${i} is malformed`);
  });
  const ref = doc.reference;
  need(isObj(ref) && str(ref.rows) && int(ref.nRows) && ref.nRows >= 0 && int(ref.oodRows) && ref.oodRows >= 0 && ref.oodRows <= ref.nRows && finiteAll(ref.y), 'reference block malformed');
  const e = doc.ensemble;
  need(isObj(e) && (e.method === 'average' || e.method === 'closest') && isObj(e.interval) && fin(e.interval.low) && fin(e.interval.high) && isObj(e.validation), 'ensemble malformed');
  const o = doc.ood;
  need(
    isObj(o) && Array.isArray(o.ranges) && o.ranges.every((r: unknown) => isObj(r) && int(r.column) && r.column >= 0 && r.column < doc.columns.length && fin(r.lo) && fin(r.hi)) &&
      Array.isArray(o.novelty) && o.novelty.every((n: unknown) => isObj(n) && str(n.feature) && typeof n.flagged === 'boolean' && fin(n.validationRate)) &&
      ['maxOutOfRange', 'distanceThreshold', 'noveltyExpectedRate', 'quantile'].every((k) => fin(o[k])),
    'ood block malformed',
  );
  need(Array.isArray(doc.models) && doc.models.every((m: unknown) => isObj(m) && str(m.type) && fin(m.weight) && m.weight >= 0 && isObj(m.validation)), 'models malformed');
  for (const m of doc.models as Doc[]) {
    if (m.type === 'mlp') need(fin(m.yMean) && fin(m.yStd) && Array.isArray(m.layers) && m.layers.every((l: unknown) => isObj(l) && int(l.inputs) && int(l.outputs) && l.inputs > 0 && l.outputs > 0), 'mlp malformed');
    if (m.type === 'ridge' || m.type === 'poly2') need(isObj(m.ridge) && Array.isArray(m.ridge.interactions) && m.ridge.interactions.every(isObj), `${m.type} malformed`);
    if (m.type === 'gbdt' || m.type === 'forest') need(Array.isArray(m.trees) && m.trees.every((t: unknown) => isObj(t) && ['feature', 'threshold', 'left', 'right', 'value', 'cover', 'defaultLeft'].every((k) => Array.isArray(t[k]))), `${m.type}: trees malformed`);
  }
  need(isObj(doc.leakGuard) && Array.isArray(doc.leakGuard.dropped), 'leakGuard malformed');
  need(isObj(doc.card), 'card malformed');
}

export function parseModel(input: string | unknown): TrainedModel {
  let doc: Doc;
  try {
    doc = (typeof input === 'string' ? JSON.parse(input) : input) as Doc;
  } catch {
    throw new LearnInputError('model file is not valid JSON');
  }
  need(doc && doc.format === 'iolens-model', 'not an IOLens model (format is not iolens-model)');
  need(Number.isInteger(doc.schemaVersion), 'no schemaVersion');
  if (doc.schemaVersion > SCHEMA_VERSION) {
    throw new LearnInputError(`model file has schema version ${doc.schemaVersion}; this IOLens reads up to ${SCHEMA_VERSION} (upgrade IOLens)`);
  }
  need(Array.isArray(doc.features) && Array.isArray(doc.columns) && Array.isArray(doc.columnStats), 'features, columns or columnStats missing');
  checkShape(doc);
  const nCols = doc.columns.length;
  need(doc.columnStats.length === nCols, 'columnStats does not match columns');
  const columnFeature: number[] = new Array(nCols).fill(-1);
  doc.features.forEach((f: Doc, fi: number) => {
    need(typeof f.name === 'string' && (f.kind === 'numeric' || f.kind === 'categorical'), `feature ${fi} is malformed`);
    const width = f.kind === 'numeric' ? 1 : f.categories.length + (f.other ? 1 : 0);
    for (let c = f.column; c < f.column + width; c++) {
      need(c >= 0 && c < nCols && columnFeature[c] === -1, `feature ${f.name} has bad columns`);
      columnFeature[c] = fi;
    }
  });
  need(!columnFeature.includes(-1), 'a column belongs to no feature');
  const preprocessor: Preprocessor = { features: doc.features, columns: doc.columns, columnFeature, stats: doc.columnStats };
  const ref = doc.reference;
  need(ref && ref.nCols === nCols && Number.isInteger(ref.nRows) && Array.isArray(ref.y) && ref.y.length === ref.nRows, 'reference block malformed');
  const reference = { rows: f32FromBase64(ref.rows, ref.nRows * nCols), y: Float64Array.from(ref.y as number[]), nRows: ref.nRows, oodRows: ref.oodRows };
  const mean = preprocessor.stats.map((s) => s.mean);
  const std = preprocessor.stats.map((s) => s.std);
  need(Array.isArray(doc.models) && doc.models.length > 0, 'no models');
  const members: Member[] = doc.models.map((m: Doc): Member => {
    let model: FittedModel;
    switch (m.type) {
      case 'gbdt':
      case 'forest': {
        need(Array.isArray(m.trees), `${m.type}: no trees`);
        const trees = m.trees.map((t: Doc) => {
          let tree: Tree;
          try {
            tree = treeFromArrays(t as Parameters<typeof treeFromArrays>[0]);
          } catch (e) {
            throw new LearnInputError(`model file: ${m.type}: ${(e as Error).message}`);
          }
          for (const f of tree.feature) need(f < nCols, `${m.type}: a tree splits on a column that does not exist`);
          return tree;
        });
        need(Number.isFinite(m.base), `${m.type}: base is not a finite number`);
        model = { type: m.type, params: m.params, trees: { base: m.base, trees } };
        break;
      }
      case 'ridge':
      case 'poly2':
        need(m.ridge && m.ridge.weights?.length === nCols && m.ridge.mean?.length === nCols && m.ridge.std?.length === nCols, `${m.type}: weights do not match the columns`);
        need(
          Array.isArray(m.ridge.interactions) && m.ridge.interactions.every((t: Doc) => t.a >= 0 && t.a < nCols && t.b >= 0 && t.b < nCols),
          `${m.type}: an interaction names a column that does not exist`,
        );
        for (const k of ['weights', 'mean', 'std'] as const) need(finiteAll(m.ridge[k]), `${m.type}: ${k} holds a value that is not a finite number`);
        need(Number.isFinite(m.ridge.intercept) && m.ridge.interactions.every((t: Doc) => [t.mean, t.std, t.weight].every(Number.isFinite)), `${m.type}: a weight is not a finite number`);
        model = { type: m.type, params: m.params, ridge: m.ridge };
        break;
      case 'knn':
        need(Number.isInteger(m.params?.k) && m.params.k >= 1 && (m.params.weighting === 'uniform' || m.params.weighting === 'distance'), 'knn: bad k or weighting');
        need(reference.nRows > 0, 'knn: no reference rows');
        model = { type: 'knn', params: m.params, knn: { k: m.params.k, weighting: m.params.weighting, mean, std, rows: reference.rows, y: reference.y } };
        break;
      case 'mlp':
        need(Array.isArray(m.layers) && m.layers.length > 0 && m.layers[0].inputs === nCols, 'mlp: layers do not match the columns');
        m.layers.forEach((l: Doc, i: number) => {
          need(l.weights?.length === l.inputs * l.outputs && l.bias?.length === l.outputs, `mlp: layer ${i} has the wrong size`);
          need(i === 0 || l.inputs === m.layers[i - 1].outputs, `mlp: layer ${i} does not follow layer ${i - 1}`);
          need(finiteAll(l.weights) && finiteAll(l.bias), `mlp: layer ${i} holds a value that is not a finite number`);
        });
        need(m.layers[m.layers.length - 1].outputs === 1, 'mlp: the last layer must have one output');
        model = {
          type: 'mlp',
          params: m.params,
          mlp: {
            mean,
            std,
            yMean: m.yMean,
            yStd: m.yStd,
            layers: m.layers.map((l: Doc) => ({ inputs: l.inputs, outputs: l.outputs, weights: Float32Array.from(l.weights), bias: Float32Array.from(l.bias) })),
          },
        };
        break;
      default:
        throw new LearnInputError(`model file: unknown model type ${m.type}`);
    }
    return { model, validation: m.validation, weight: m.weight, tried: m.tried ?? [] };
  });
  return {
    schemaVersion: doc.schemaVersion,
    target: doc.target,
    preprocessor,
    leakGuard: doc.leakGuard,
    members,
    ensemble: doc.ensemble,
    best: doc.best,
    ...(doc.roles !== undefined ? { roles: parseRoles(doc.roles, preprocessor) } : {}),
    ood: doc.ood,
    reference,
    card: doc.card,
  };
}

/** The roles block: one entry per feature, in the preprocessor's order, with known words. */
function parseRoles(roles: unknown, pre: Preprocessor): FeatureRoleEntry[] {
  const ok =
    Array.isArray(roles) &&
    roles.length === pre.features.length &&
    roles.every(
      (r: Doc, i) =>
        isObj(r) && r.feature === pre.features[i].name && ['counter', 'setting', 'context'].includes(r.role as string) && ['zero', 'typical', 'own'].includes(r.reference as string),
    );
  need(ok, 'roles block malformed');
  return (roles as FeatureRoleEntry[]).map((r) => ({ feature: r.feature, role: r.role, reference: r.reference }));
}
