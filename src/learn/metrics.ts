import { quantileSorted } from '../util/stats.js';

/**
 * Accuracy in the model's own space, log10(1 + y): RMSE and R², plus the error factor
 * 10^|log10(1+pred) − log10(1+true)| (Gauge's measure, on the same log scale the model is fitted in).
 */
export interface Metrics {
  rows: number;
  rmse: number;
  r2: number;
  medianErrorFactor: number;
  meanErrorFactor: number;
}

/** Metrics of predictions `pred` against `truth`, both in log10(1 + y) space. */
export function logMetrics(truth: ArrayLike<number>, pred: ArrayLike<number>): Metrics {
  const n = truth.length;
  if (n === 0) return { rows: 0, rmse: NaN, r2: NaN, medianErrorFactor: NaN, meanErrorFactor: NaN };
  let mean = 0;
  for (let i = 0; i < n; i++) mean += truth[i];
  mean /= n;
  let sse = 0;
  let sst = 0;
  const factors = new Float64Array(n);
  let sumFactor = 0;
  for (let i = 0; i < n; i++) {
    const e = pred[i] - truth[i];
    sse += e * e;
    sst += (truth[i] - mean) ** 2;
    factors[i] = 10 ** Math.abs(e);
    sumFactor += factors[i];
  }
  return {
    rows: n,
    rmse: Math.sqrt(sse / n),
    r2: sst > 0 ? 1 - sse / sst : NaN,
    medianErrorFactor: quantileSorted(factors.sort(), 0.5),
    meanErrorFactor: sumFactor / n,
  };
}

/** The baseline every model is compared with: predict the training median for every row. */
export function baselineMetrics(trainTruth: ArrayLike<number>, truth: ArrayLike<number>): Metrics {
  const med = quantileSorted(Float64Array.from(trainTruth).sort(), 0.5);
  return logMetrics(truth, new Float64Array(truth.length).fill(med));
}

/** The target transform: log10(1 + y). */
export function toModelSpace(y: number): number {
  return Math.log10(1 + y);
}

/** The inverse of the target transform: 10^v − 1. */
export function fromModelSpace(v: number): number {
  return 10 ** v - 1;
}
