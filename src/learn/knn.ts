import type { Matrix } from './table.js';

/**
 * k-nearest-neighbour regression in standardised model-feature space (missing = the mean, z = 0). `rows` holds the
 * training rows' z-scores (row-major, rounded to float32 to halve the model file) and `y` their targets.
 */
export interface KnnModel {
  k: number;
  /** 'uniform': plain mean of the k targets; 'distance': weights 1/(d + ε). */
  weighting: 'uniform' | 'distance';
  mean: number[];
  std: number[];
  rows: Float32Array;
  y: Float64Array;
}

const EPS = 1e-9;

/** Standardised copy of `m` (NaN → 0) using the given statistics. */
export function zScores(m: Matrix, mean: ArrayLike<number>, std: ArrayLike<number>): Float64Array {
  const out = new Float64Array(m.nRows * m.nCols);
  for (let r = 0; r < m.nRows; r++) {
    for (let c = 0; c < m.nCols; c++) {
      const v = m.data[r * m.nCols + c];
      out[r * m.nCols + c] = v === v ? (v - mean[c]) / std[c] : 0;
    }
  }
  return out;
}

/** Fits a kNN model: records standardisation statistics and the training rows. */
export function fitKnn(m: Matrix, y: Float64Array, k: number, weighting: KnnModel['weighting'], stats: { mean: number[]; std: number[] }): KnnModel {
  if (m.nRows === 0) throw new RangeError('no training rows');
  return { k, weighting, mean: stats.mean, std: stats.std, rows: Float32Array.from(zScores(m, stats.mean, stats.std)), y: Float64Array.from(y) };
}

/**
 * The `k` nearest training rows of each query row (squared Euclidean distance; ties by lower training index), as
 * flat arrays [query × k]: indices and squared distances, nearest first.
 */
export function nearest(rows: Float32Array, nCols: number, queries: Float64Array, nQueries: number, k: number): { index: Int32Array; dist2: Float64Array } {
  const nTrain = rows.length / nCols;
  const kk = Math.min(k, nTrain);
  const index = new Int32Array(nQueries * kk);
  const dist2 = new Float64Array(nQueries * kk);
  const bestD = new Float64Array(kk);
  const bestI = new Int32Array(kk);
  for (let q = 0; q < nQueries; q++) {
    bestD.fill(Infinity);
    bestI.fill(-1);
    const qo = q * nCols;
    for (let t = 0; t < nTrain; t++) {
      const to = t * nCols;
      let d = 0;
      const worst = bestD[kk - 1];
      for (let c = 0; c < nCols; c++) {
        const e = queries[qo + c] - rows[to + c];
        d += e * e;
        // Early exit: this row can no longer enter the k best.
        if ((c & 15) === 15 && d > worst) break;
      }
      if (d < worst) insertBest(bestD, bestI, d, t);
    }
    index.set(bestI, q * kk);
    dist2.set(bestD, q * kk);
  }
  return { index, dist2 };
}

/** Inserts (d, t) into the ascending k-best lists, dropping the last; an equal distance keeps the earlier row first. */
function insertBest(bestD: Float64Array, bestI: Int32Array, d: number, t: number): void {
  let i = bestD.length - 1;
  while (i > 0 && bestD[i - 1] > d) {
    bestD[i] = bestD[i - 1];
    bestI[i] = bestI[i - 1];
    i--;
  }
  bestD[i] = d;
  bestI[i] = t;
}

/** Combines neighbour targets into predictions for the first `k` of each query's neighbour list (width `stride`). */
export function knnCombine(y: Float64Array, nb: { index: Int32Array; dist2: Float64Array }, stride: number, k: number, weighting: KnnModel['weighting']): Float64Array {
  const nQ = nb.index.length / stride;
  const out = new Float64Array(nQ);
  for (let q = 0; q < nQ; q++) {
    let s = 0;
    let w = 0;
    for (let i = 0; i < k && i < stride; i++) {
      const wi = weighting === 'uniform' ? 1 : 1 / (Math.sqrt(nb.dist2[q * stride + i]) + EPS);
      s += wi * y[nb.index[q * stride + i]];
      w += wi;
    }
    out[q] = s / w;
  }
  return out;
}

/** Predictions of a kNN model for every row of `m`. */
export function predictKnn(model: KnnModel, m: Matrix): Float64Array {
  const q = zScores(m, model.mean, model.std);
  const nb = nearest(model.rows, m.nCols, q, m.nRows, model.k);
  return knnCombine(model.y, nb, Math.min(model.k, model.y.length), model.k, model.weighting);
}

/**
 * The kNN prediction as a game over players (groups of columns where x differs from the baseline b), for SHAP:
 * v(S) = kNN(x on S's columns, b elsewhere). Squared distances decompose by column, so each training row's
 * distance to the baseline and each player's change of it are computed once; a coalition then costs one sum per
 * training row over its players instead of a pass over every column.
 */
export function knnGame(model: KnnModel, x: ArrayLike<number>, b: ArrayLike<number>, colsOf: number[][]): (coalitions: Uint8Array[]) => Float64Array {
  const nCols = model.mean.length;
  const nTrain = model.y.length;
  const z = (v: ArrayLike<number>): Float64Array => Float64Array.from({ length: nCols }, (_, c) => (v[c] === v[c] ? (v[c] - model.mean[c]) / model.std[c] : 0));
  const zx = z(x);
  const zb = z(b);
  const rows = model.rows;
  const d0 = new Float64Array(nTrain);
  const m = colsOf.length;
  const delta = new Float64Array(m * nTrain);
  for (let t = 0; t < nTrain; t++) {
    const o = t * nCols;
    let d = 0;
    for (let c = 0; c < nCols; c++) {
      const e = zb[c] - rows[o + c];
      d += e * e;
    }
    d0[t] = d;
    for (let i = 0; i < m; i++) {
      let s = 0;
      for (const c of colsOf[i]) {
        const ex = zx[c] - rows[o + c];
        const eb = zb[c] - rows[o + c];
        s += ex * ex - eb * eb;
      }
      delta[i * nTrain + t] = s;
    }
  }
  // Distances with every player on x's side: a coalition holding most players starts here and removes the others.
  const dFull = Float64Array.from(d0);
  for (let i = 0; i < m; i++) for (let t = 0; t < nTrain; t++) dFull[t] += delta[i * nTrain + t];
  const k = Math.min(model.k, nTrain);
  const dist = new Float64Array(nTrain);
  const bestD = new Float64Array(k);
  const bestI = new Int32Array(k);
  return (coalitions) =>
    Float64Array.from(coalitions, (s) => {
      let size = 0;
      for (let i = 0; i < m; i++) size += s[i];
      if (2 * size <= m) {
        dist.set(d0);
        for (let i = 0; i < m; i++) {
          if (!s[i]) continue;
          const o = i * nTrain;
          for (let t = 0; t < nTrain; t++) dist[t] += delta[o + t];
        }
      } else {
        dist.set(dFull);
        for (let i = 0; i < m; i++) {
          if (s[i]) continue;
          const o = i * nTrain;
          for (let t = 0; t < nTrain; t++) dist[t] -= delta[o + t];
        }
      }
      bestD.fill(Infinity);
      for (let t = 0; t < nTrain; t++) {
        const d = dist[t];
        if (d < bestD[k - 1]) insertBest(bestD, bestI, d, t);
      }
      let num = 0;
      let den = 0;
      for (let j = 0; j < k; j++) {
        const w = model.weighting === 'uniform' ? 1 : 1 / (Math.sqrt(Math.max(0, bestD[j])) + EPS);
        num += w * model.y[bestI[j]];
        den += w;
      }
      return num / den;
    });
}
