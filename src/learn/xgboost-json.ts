import type { TreeEnsemble } from './ensemble-trees.js';
import { LearnInputError } from './errors.js';
import { validateTree, type Tree } from './tree.js';

/** A tree ensemble read from XGBoost's JSON model format, with the number of features it expects. */
export interface XgboostModel extends TreeEnsemble {
  nFeatures: number;
}

/** The largest double below `t` (so `x ≤ nextDown(t)` is exactly `x < t`). */
function nextDown(t: number): number {
  if (Number.isNaN(t) || t === -Infinity) return t;
  if (t === 0) return -Number.MIN_VALUE;
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, t);
  const bits = buf.getBigUint64(0);
  buf.setBigUint64(0, t > 0 ? bits - 1n : bits + 1n);
  return buf.getFloat64(0);
}

function numbers(v: unknown, what: string): number[] {
  if (!Array.isArray(v)) throw new LearnInputError(`XGBoost model: ${what} is not an array`);
  return v.map((x) => {
    const n = typeof x === 'boolean' ? Number(x) : Number(x);
    if (!Number.isFinite(n)) throw new LearnInputError(`XGBoost model: ${what} holds a non-number`);
    return n;
  });
}

/**
 * Reads a regression model saved by XGBoost's `save_model('model.json')` (the 1.x JSON format, gbtree booster,
 * objective reg:squarederror). XGBoost sends x left when x < split_condition (compared in float32) and keeps leaf
 * values in split_conditions; thresholds here become the largest double below the float32 split value, so the
 * tree's `x ≤ threshold` test agrees with XGBoost for every input representable in float32. Cover = sum_hessian,
 * the weights XGBoost's own TreeSHAP uses.
 */
export function loadXgboostJson(json: unknown): XgboostModel {
  const root = json as { learner?: Record<string, unknown> };
  const learner = root?.learner;
  if (!learner || typeof learner !== 'object') throw new LearnInputError('not an XGBoost JSON model (no learner)');
  const objective = (learner.objective as { name?: string } | undefined)?.name;
  if (objective !== 'reg:squarederror') throw new LearnInputError(`XGBoost model: objective ${objective} is not supported (reg:squarederror only)`);
  const booster = learner.gradient_booster as { name?: string; model?: { trees?: unknown[] } } | undefined;
  if (booster?.name !== 'gbtree' || !Array.isArray(booster.model?.trees)) throw new LearnInputError('XGBoost model: only the gbtree booster is supported');
  const lmp = learner.learner_model_param as { base_score?: string; num_feature?: string } | undefined;
  const base = Math.fround(Number(lmp?.base_score));
  const nFeatures = Number(lmp?.num_feature);
  if (!Number.isFinite(base) || !Number.isInteger(nFeatures)) throw new LearnInputError('XGBoost model: bad learner_model_param');
  const trees: Tree[] = booster.model.trees.map((t, ti) => {
    const tr = t as Record<string, unknown>;
    const left = numbers(tr.left_children, `tree ${ti} left_children`);
    const right = numbers(tr.right_children, `tree ${ti} right_children`);
    const index = numbers(tr.split_indices, `tree ${ti} split_indices`);
    const cond = numbers(tr.split_conditions, `tree ${ti} split_conditions`);
    const hess = numbers(tr.sum_hessian, `tree ${ti} sum_hessian`);
    const dl = numbers(tr.default_left, `tree ${ti} default_left`);
    const types = Array.isArray(tr.split_type) ? numbers(tr.split_type, `tree ${ti} split_type`) : [];
    if (types.some((x) => x !== 0)) throw new LearnInputError(`XGBoost model: tree ${ti} has categorical splits (not supported)`);
    const n = left.length;
    const tree: Tree = {
      feature: new Int32Array(n),
      threshold: new Float64Array(n),
      left: Int32Array.from(left),
      right: Int32Array.from(right),
      value: new Float64Array(n),
      cover: Float64Array.from(hess),
      defaultLeft: Uint8Array.from(dl, (v) => (v ? 1 : 0)),
    };
    for (let i = 0; i < n; i++) {
      if (left[i] === -1) {
        tree.feature[i] = -1;
        tree.value[i] = Math.fround(cond[i]);
      } else {
        if (index[i] < 0 || index[i] >= nFeatures) throw new LearnInputError(`XGBoost model: tree ${ti} splits on feature ${index[i]}`);
        tree.feature[i] = index[i];
        tree.threshold[i] = nextDown(Math.fround(cond[i]));
      }
    }
    try {
      validateTree(tree);
    } catch (e) {
      throw new LearnInputError(`XGBoost model: tree ${ti}: ${(e as Error).message}`);
    }
    return tree;
  });
  return { base, trees, nFeatures };
}
