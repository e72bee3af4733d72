import type { Attribution, AttributionTerm } from '../contract/index.js';
import { explain } from '../learn/predict.js';
import { fromModelSpace } from '../learn/metrics.js';
import { modelTable, type ModelBundle } from '../models/bundle.js';
import { readRows } from '../models/run.js';

/**
 * The learned model's account of how each other run differs from the base: the model's inputs read from every log,
 * then interventional SHAP with the base run as the one reference, so each feature's part is what changing it from
 * the base's value to the other's moved the prediction, and the parts sum to the difference of the outputs (exactly
 * for tree and linear members; kNN and MLP members by KernelSHAP, which keeps the sum). A feature equal in both runs
 * gets exactly 0 from trees and linear members and is left out. One entry per other run: its attribution, or why
 * there is none (a run the model could not read).
 */
export async function attributeRuns(bundle: ModelBundle, modelName: string, paths: readonly string[]): Promise<(Attribution | string)[]> {
  const rows = await readRows(bundle, { kind: 'logs', paths });
  const failed = new Set(rows.failures.map((f) => f.path));
  // rows hold the logs that were read, in order
  const rowOf = new Map<string, number>();
  let r = 0;
  for (const p of paths) if (!failed.has(p) && !rowOf.has(p)) rowOf.set(p, r++);
  const base = rowOf.get(paths[0]);
  const table = modelTable(bundle, rows.loaded);
  const target = bundle.inputs.target;
  const notes: string[] = [];
  const kinds = new Set(bundle.model.members.map((m) => m.model.type));
  if ([...kinds].some((k) => k === 'knn' || k === 'mlp')) notes.push('kNN and MLP members are explained by KernelSHAP: their parts are estimates that keep the sum');
  return paths.slice(1).map((p) => {
    const row = rowOf.get(p);
    const why = (q: string) => rows.failures.find((f) => f.path === q)?.error ?? 'not read';
    if (base === undefined) return `the model could not read the base run: ${why(paths[0])}`;
    if (row === undefined) return `the model could not read this run: ${why(p)}`;
    const [e] = explain(bundle.model, table, { rows: [row], reference: base, ood: false });
    const terms: AttributionTerm[] = e.contributions
      .filter((c) => c.shap !== 0)
      .map((c) => {
        const col = table.columns[c.feature];
        const v = (i: number) => {
          const x = col ? col[i] : null;
          return typeof x === 'number' ? (Number.isNaN(x) ? null : x) : (x ?? null);
        };
        return { feature: c.feature, base: v(base), other: v(row), shap: c.shap };
      })
      .sort((a, b) => Math.abs(b.shap) - Math.abs(a.shap) || a.feature.localeCompare(b.feature));
    return {
      model: modelName,
      target,
      basePrediction: fromModelSpace(e.base),
      otherPrediction: e.prediction,
      baseOutput: e.base,
      otherOutput: e.output,
      terms,
      notes,
    };
  });
}
