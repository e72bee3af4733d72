import { basename } from 'node:path';
import { explain, makeTable, predict, type Column, type TrainedModel } from '../learn/index.js';

/**
 * The learned diagnosis of one job by the service's model (`--model`): the predicted target with its interval and
 * out-of-distribution flag, the measured value, and every feature's SHAP contribution (against the all-zero
 * baseline, so a counter the job never used gets no blame; base + Σ shap = output = log10(1 + prediction)). The
 * job page draws it as a waterfall. Computed from the job's store row, which holds every feature a model trained on
 * the `jobs` table reads.
 */
export interface LearnedDiagnosis {
  readonly model: string;
  readonly target: string;
  readonly prediction: number;
  readonly low: number;
  readonly high: number;
  readonly ood: boolean;
  readonly oodReasons: readonly string[];
  readonly measured: number | null;
  readonly base: number;
  readonly output: number;
  readonly contributions: readonly { readonly feature: string; readonly value: number | string | null; readonly shap: number }[];
}

/** The learned diagnosis of a job row, or null when the row lacks a feature the model reads. */
export function learnedFor(model: TrainedModel, modelPath: string, row: Readonly<Record<string, unknown>>): LearnedDiagnosis | null {
  const columns: Record<string, Column> = {};
  for (const f of model.preprocessor.features) {
    if (!(f.name in row)) return null;
    const v = row[f.name];
    columns[f.name] = f.kind === 'categorical' ? [v === null || v === undefined ? null : String(v)] : Float64Array.of(typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : Number.NaN);
  }
  const table = makeTable(columns);
  const p = predict(model, table);
  const [e] = explain(model, table);
  const m = row[model.target.column];
  return {
    model: basename(modelPath),
    target: model.target.column,
    prediction: p.prediction[0],
    low: p.low[0],
    high: p.high[0],
    ood: p.ood[0],
    oodReasons: p.oodReasons[0],
    measured: typeof m === 'number' && Number.isFinite(m) ? m : null,
    base: e.base,
    output: e.output,
    contributions: e.contributions,
  };
}
