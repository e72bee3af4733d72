// Principal component analysis for the reduced-space approximation: covariance of the columns, its symmetric
// eigendecomposition (ml-matrix), projection on the leading components.
import { EigenvalueDecomposition, Matrix } from 'ml-matrix';

export interface Pca {
  /** Column means subtracted before projecting. */
  mean: Float64Array;
  /** k × d, row c = component c (unit length; sign fixed so its largest-magnitude entry is positive). */
  components: Float64Array;
  k: number;
  d: number;
  /** Variance along each component (eigenvalues of the covariance, descending). */
  variance: Float64Array;
  /** Share of the total variance each component explains. */
  varianceRatio: Float64Array;
}

/** Fits a k-component PCA on an n × d matrix (population covariance, divisor n). */
export function fitPca(data: Float64Array, n: number, d: number, k: number): Pca {
  if (!Number.isInteger(k) || k < 1 || k > d) throw new Error(`PCA to ${k} dimensions needs 1 ≤ k ≤ ${d}`);
  if (n < 1) throw new Error('PCA needs at least one row');
  const mean = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) mean[j] += data[i * d + j];
  for (let j = 0; j < d; j++) mean[j] /= n;
  // Upper triangle of XᵀX on centred rows, one row at a time.
  const cov = new Float64Array(d * d);
  const row = new Float64Array(d);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < d; j++) row[j] = data[i * d + j] - mean[j];
    for (let a = 0; a < d; a++) {
      const ra = row[a];
      if (ra === 0) continue;
      const o = a * d;
      for (let b = a; b < d; b++) cov[o + b] += ra * row[b];
    }
  }
  const m = new Matrix(d, d);
  for (let a = 0; a < d; a++) {
    for (let b = a; b < d; b++) {
      const v = cov[a * d + b] / n;
      m.set(a, b, v);
      m.set(b, a, v);
    }
  }
  const evd = new EigenvalueDecomposition(m, { assumeSymmetric: true });
  const values = evd.realEigenvalues;
  const vectors = evd.eigenvectorMatrix;
  const order = values.map((_, i) => i).sort((p, q) => values[q] - values[p] || p - q);
  let total = 0;
  for (const v of values) total += Math.max(0, v);
  const components = new Float64Array(k * d);
  const variance = new Float64Array(k);
  const varianceRatio = new Float64Array(k);
  for (let c = 0; c < k; c++) {
    const e = order[c];
    let big = 0;
    for (let j = 0; j < d; j++) if (Math.abs(vectors.get(j, e)) > Math.abs(vectors.get(big, e))) big = j;
    const sign = vectors.get(big, e) < 0 ? -1 : 1;
    for (let j = 0; j < d; j++) components[c * d + j] = sign * vectors.get(j, e);
    variance[c] = Math.max(0, values[e]);
    varianceRatio[c] = total > 0 ? variance[c] / total : 0;
  }
  return { mean, components, k, d, variance, varianceRatio };
}

/** Projects n rows of d columns on the PCA's k components: an n × k matrix. */
export function projectPca(p: Pca, data: Float64Array, n: number): Float64Array {
  const { d, k, mean, components } = p;
  if (data.length !== n * d) throw new Error(`expected ${n} × ${d} values for the projection, got ${data.length}`);
  const out = new Float64Array(n * k);
  const row = new Float64Array(d);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < d; j++) row[j] = data[i * d + j] - mean[j];
    for (let c = 0; c < k; c++) {
      let s = 0;
      const o = c * d;
      for (let j = 0; j < d; j++) s += row[j] * components[o + j];
      out[i * k + c] = s;
    }
  }
  return out;
}
