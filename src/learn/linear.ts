import { CholeskyDecomposition, Matrix as MlMatrix } from 'ml-matrix';
import type { Matrix } from './table.js';

/**
 * Ridge regression on standardised model features: f(x) = intercept + Σ_j w_j·z_j with z_j = (x_j − mean_j)/std_j
 * (a missing value counts as the mean, z = 0). `interactions` lists the degree-2 terms of the polynomial variant:
 * term t multiplies z_a·z_b and is itself standardised with (termMean, termStd) before its weight applies.
 */
export interface RidgeModel {
  alpha: number;
  mean: number[];
  std: number[];
  weights: number[];
  intercept: number;
  interactions: { a: number; b: number; mean: number; std: number; weight: number }[];
}

/** z-scores of row `r` of `m` under the model's standardisation (NaN → 0). */
function zRow(model: Pick<RidgeModel, 'mean' | 'std'>, data: ArrayLike<number>, offset: number, out: Float64Array): Float64Array {
  for (let j = 0; j < out.length; j++) {
    const v = data[offset + j];
    out[j] = v === v ? (v - model.mean[j]) / model.std[j] : 0;
  }
  return out;
}

function stats(m: Matrix): { mean: number[]; std: number[] } {
  const mean: number[] = [];
  const std: number[] = [];
  for (let c = 0; c < m.nCols; c++) {
    let n = 0;
    let s = 0;
    for (let r = 0; r < m.nRows; r++) {
      const v = m.data[r * m.nCols + c];
      if (v === v) {
        n++;
        s += v;
      }
    }
    const mu = n ? s / n : 0;
    let ss = 0;
    for (let r = 0; r < m.nRows; r++) {
      const v = m.data[r * m.nCols + c];
      if (v === v) ss += (v - mu) ** 2;
    }
    const sd = n ? Math.sqrt(ss / n) : 0;
    mean.push(mu);
    std.push(sd > 1e-12 ? sd : 1);
  }
  return { mean, std };
}

/** The design matrix: standardised features, then the standardised interaction terms. */
function design(
  m: Matrix,
  st: { mean: number[]; std: number[] },
  pairs: [number, number][],
): { z: Float64Array; width: number; termMean: number[]; termStd: number[] } {
  const p = m.nCols;
  const width = p + pairs.length;
  const z = new Float64Array(m.nRows * width);
  const row = new Float64Array(p);
  for (let r = 0; r < m.nRows; r++) {
    zRow(st, m.data, r * p, row);
    const o = r * width;
    z.set(row, o);
    for (let t = 0; t < pairs.length; t++) z[o + p + t] = row[pairs[t][0]] * row[pairs[t][1]];
  }
  const termMean: number[] = [];
  const termStd: number[] = [];
  for (let t = 0; t < pairs.length; t++) {
    let s = 0;
    for (let r = 0; r < m.nRows; r++) s += z[r * width + p + t];
    const mu = s / m.nRows;
    let ss = 0;
    for (let r = 0; r < m.nRows; r++) ss += (z[r * width + p + t] - mu) ** 2;
    const sd = Math.sqrt(ss / m.nRows);
    termMean.push(mu);
    termStd.push(sd > 1e-12 ? sd : 1);
    for (let r = 0; r < m.nRows; r++) z[r * width + p + t] = (z[r * width + p + t] - mu) / termStd[t];
  }
  return { z, width, termMean, termStd };
}

/**
 * Fits ridge models, one per penalty in `alphas`, sharing one Gram matrix: w = (ZᵀZ + αI)⁻¹ Zᵀ(y − ȳ), solved by
 * Cholesky (ml-matrix). With `interactionColumns`, the degree-2 products of those columns (squares included) join
 * the design: the polynomial ridge.
 */
export function fitRidge(m: Matrix, y: Float64Array, alphas: readonly number[], interactionColumns: readonly number[] = []): RidgeModel[] {
  const n = m.nRows;
  if (n === 0) throw new RangeError('no training rows');
  const st = stats(m);
  const pairs: [number, number][] = [];
  for (let i = 0; i < interactionColumns.length; i++) {
    for (let k = i; k < interactionColumns.length; k++) pairs.push([interactionColumns[i], interactionColumns[k]]);
  }
  const { z, width, termMean, termStd } = design(m, st, pairs);
  let ybar = 0;
  for (let i = 0; i < n; i++) ybar += y[i];
  ybar /= n;
  // Gram matrix ZᵀZ and Zᵀy, accumulated row by row (upper triangle, then mirrored).
  const gram = new Float64Array(width * width);
  const zty = new Float64Array(width);
  for (let r = 0; r < n; r++) {
    const o = r * width;
    const yc = y[r] - ybar;
    for (let a = 0; a < width; a++) {
      const za = z[o + a];
      if (za === 0) continue;
      zty[a] += za * yc;
      const ga = a * width;
      for (let b = a; b < width; b++) gram[ga + b] += za * z[o + b];
    }
  }
  for (let a = 0; a < width; a++) for (let b = 0; b < a; b++) gram[a * width + b] = gram[b * width + a];
  const rhs = MlMatrix.columnVector(Array.from(zty));
  return alphas.map((alpha) => {
    const A = new MlMatrix(width, width);
    for (let a = 0; a < width; a++) for (let b = 0; b < width; b++) A.set(a, b, gram[a * width + b] + (a === b ? alpha : 0));
    const w = new CholeskyDecomposition(A).solve(rhs).getColumn(0);
    return {
      alpha,
      mean: st.mean,
      std: st.std,
      weights: w.slice(0, m.nCols),
      intercept: ybar,
      interactions: pairs.map(([a, b], t) => ({ a, b, mean: termMean[t], std: termStd[t], weight: w[m.nCols + t] })),
    };
  });
}

/** Predictions of a ridge model for every row. */
export function predictRidge(model: RidgeModel, m: Matrix): Float64Array {
  const out = new Float64Array(m.nRows);
  const z = new Float64Array(m.nCols);
  for (let r = 0; r < m.nRows; r++) {
    zRow(model, m.data, r * m.nCols, z);
    let s = model.intercept;
    for (let j = 0; j < m.nCols; j++) s += model.weights[j] * z[j];
    for (const t of model.interactions) s += (t.weight * (z[t.a] * z[t.b] - t.mean)) / t.std;
    out[r] = s;
  }
  return out;
}

/**
 * Exact SHAP values of a (polynomial) ridge model for row x against baseline row b: v(S) = f(x_S, b_rest).
 * A linear term gives w_j(z_j(x) − z_j(b)) to its feature; a product term c·z_a·z_b gives
 * ½c(u_a − v_a)(u_b + v_b) to a and ½c(u_b − v_b)(u_a + v_a) to b (u = z(x), v = z(b)), its two-player Shapley
 * values; a square c·z_a² gives c(u_a² − v_a²) to a. A feature equal to the baseline gets exactly 0, and
 * Σ phi = f(x) − f(b).
 */
export function ridgeShap(model: RidgeModel, x: ArrayLike<number>, xOffset: number, b: ArrayLike<number>, nCols: number): { base: number; phi: Float64Array } {
  const u = zRow(model, x, xOffset, new Float64Array(nCols));
  const v = zRow(model, b, 0, new Float64Array(nCols));
  const phi = new Float64Array(nCols);
  let base = model.intercept;
  for (let j = 0; j < nCols; j++) {
    base += model.weights[j] * v[j];
    if (u[j] !== v[j]) phi[j] += model.weights[j] * (u[j] - v[j]);
  }
  for (const t of model.interactions) {
    const c = t.weight / t.std;
    base += c * (v[t.a] * v[t.b] - t.mean);
    if (t.a === t.b) {
      if (u[t.a] !== v[t.a]) phi[t.a] += c * (u[t.a] * u[t.a] - v[t.a] * v[t.a]);
    } else {
      if (u[t.a] !== v[t.a]) phi[t.a] += 0.5 * c * (u[t.a] - v[t.a]) * (u[t.b] + v[t.b]);
      if (u[t.b] !== v[t.b]) phi[t.b] += 0.5 * c * (u[t.b] - v[t.b]) * (u[t.a] + v[t.a]);
    }
  }
  return { base, phi };
}

/** The `k` columns most correlated (in absolute value) with y, ties by column index: the interaction candidates. */
export function topCorrelated(m: Matrix, y: Float64Array, k: number): number[] {
  const st = stats(m);
  let ybar = 0;
  for (let i = 0; i < m.nRows; i++) ybar += y[i];
  ybar /= m.nRows;
  let syy = 0;
  for (let i = 0; i < m.nRows; i++) syy += (y[i] - ybar) ** 2;
  const score: { c: number; r: number }[] = [];
  const z = new Float64Array(m.nCols);
  const sxy = new Float64Array(m.nCols);
  const sxx = new Float64Array(m.nCols);
  for (let r = 0; r < m.nRows; r++) {
    zRow(st, m.data, r * m.nCols, z);
    for (let c = 0; c < m.nCols; c++) {
      sxy[c] += z[c] * (y[r] - ybar);
      sxx[c] += z[c] * z[c];
    }
  }
  for (let c = 0; c < m.nCols; c++) score.push({ c, r: sxx[c] > 0 && syy > 0 ? Math.abs(sxy[c]) / Math.sqrt(sxx[c] * syy) : 0 });
  score.sort((a, b) => b.r - a.r || a.c - b.c);
  return score
    .slice(0, k)
    .filter((s) => s.r > 0)
    .map((s) => s.c)
    .sort((a, b) => a - b);
}
