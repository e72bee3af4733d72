import { CholeskyDecomposition, Matrix as MlMatrix } from 'ml-matrix';
import { Rng } from './rng.js';

/** Predicts a batch of rows (row-major, `nCols` wide). */
export type BatchPredict = (rows: Float64Array, nRows: number) => Float64Array;

export interface KernelShapOptions {
  /** Enumerate every coalition (exact Shapley values) when at most this many players differ from the baseline. */
  maxExact: number;
  /** Coalitions evaluated by KernelSHAP beyond that. */
  samples: number;
  seed: number;
}

export const KERNEL_SHAP_DEFAULTS: KernelShapOptions = { maxExact: 12, samples: 2048, seed: 0 };

/** Whether two model values are the same for explanation purposes (NaN equals NaN). */
function same(a: number, b: number): boolean {
  return a === b || (a !== a && b !== b);
}

/**
 * Model-agnostic SHAP values of row x against one baseline row b, the players being groups of columns (`group[c]`
 * = player of column c, e.g. all one-hot columns of one input feature): v(S) = f(x on S's columns, b elsewhere).
 * Players whose columns all equal the baseline are fixed to it and get exactly 0. With at most `maxExact` other
 * players every coalition is evaluated and the Shapley values are exact; otherwise KernelSHAP (Lundberg & Lee 2017):
 * coalition sizes fully enumerated from the outside in while the budget allows, the rest sampled by the Shapley
 * kernel with paired complements, and a weighted least-squares fit constrained to Σ φ = f(x) − f(b).
 */
export function kernelShap(
  predict: BatchPredict,
  x: ArrayLike<number>,
  b: ArrayLike<number>,
  group: ArrayLike<number>,
  nPlayers: number,
  options: Partial<KernelShapOptions> = {},
): { base: number; output: number; phi: Float64Array } {
  const nCols = group.length;
  const { players, colsOf } = differingPlayers(x, b, group, nPlayers);
  const m = players.length;
  // Rows for a list of coalitions (0/1 per differing player): x on the coalition's columns, b elsewhere.
  const value = (coalitions: Uint8Array[]): Float64Array => {
    const rows = new Float64Array(coalitions.length * nCols);
    coalitions.forEach((s, k) => {
      const o2 = k * nCols;
      for (let c = 0; c < nCols; c++) rows[o2 + c] = b[c];
      for (let i = 0; i < m; i++) if (s[i]) for (const c of colsOf[i]) rows[o2 + c] = x[c];
    });
    return predict(rows, coalitions.length);
  };
  const res = shapleyGame(m, value, options);
  const phi = new Float64Array(nPlayers);
  for (let i = 0; i < m; i++) phi[players[i]] = res.phi[i];
  return { base: res.base, output: res.output, phi };
}

/** The players (groups) with at least one column where x differs from b, and each one's columns. */
export function differingPlayers(x: ArrayLike<number>, b: ArrayLike<number>, group: ArrayLike<number>, nPlayers: number): { players: number[]; colsOf: number[][] } {
  const differs = new Uint8Array(nPlayers);
  for (let c = 0; c < group.length; c++) if (!same(x[c], b[c])) differs[group[c]] = 1;
  const players: number[] = [];
  for (let p = 0; p < nPlayers; p++) if (differs[p]) players.push(p);
  const slot = new Int32Array(nPlayers).fill(-1);
  players.forEach((p, i) => (slot[p] = i));
  const colsOf: number[][] = players.map(() => []);
  for (let c = 0; c < group.length; c++) if (slot[group[c]] >= 0) colsOf[slot[group[c]]].push(c);
  return { players, colsOf };
}

/**
 * Shapley values of a game on m players given its value on batches of coalitions (0/1 per player): every coalition
 * when m ≤ `maxExact`, else KernelSHAP. base = v(∅), output = v(all players).
 */
export function shapleyGame(m: number, value: (coalitions: Uint8Array[]) => Float64Array, options: Partial<KernelShapOptions> = {}): { base: number; output: number; phi: Float64Array } {
  const o = { ...KERNEL_SHAP_DEFAULTS, ...options };
  const ends = value([new Uint8Array(m), new Uint8Array(m).fill(1)]);
  const base = ends[0];
  const output = ends[1];
  const phi = new Float64Array(m);
  if (m === 0) return { base, output, phi };
  if (m <= o.maxExact) {
    const all: Uint8Array[] = [];
    for (let mask = 0; mask < 1 << m; mask++) all.push(Uint8Array.from({ length: m }, (_, i) => (mask >> i) & 1));
    const v = value(all);
    const fact = [1];
    for (let i = 1; i <= m; i++) fact.push(fact[i - 1] * i);
    for (let i = 0; i < m; i++) {
      let s = 0;
      for (let mask = 0; mask < 1 << m; mask++) {
        if (mask & (1 << i)) continue;
        let size = 0;
        for (let k = mask; k; k &= k - 1) size++;
        s += ((fact[size] * fact[m - size - 1]) / fact[m]) * (v[mask | (1 << i)] - v[mask]);
      }
      phi[i] = s;
    }
    // v(∅) and v(all) as evaluated in the batch, so Σ φ = output − base holds to the last bit of the formula.
    return { base: v[0], output: v[(1 << m) - 1], phi };
  }
  const { coalitions, weights } = kernelCoalitions(m, o.samples, new Rng(o.seed));
  const v = value(coalitions);
  return { base, output, phi: constrainedFit(coalitions, weights, v, base, output, m) };
}

function binomial(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/** Coalitions and their weights for KernelSHAP over m players within a budget of `samples` evaluations. */
function kernelCoalitions(m: number, samples: number, rng: Rng): { coalitions: Uint8Array[]; weights: number[] } {
  const coalitions: Uint8Array[] = [];
  const weights: number[] = [];
  // Total kernel weight of all coalitions of size s (and of its mirror size m − s).
  const sizeWeight = (s: number): number => (m - 1) / (s * (m - s));
  const half = Math.floor((m - 1) / 2);
  let budget = samples;
  let s = 1;
  for (; s <= half + (m % 2 === 0 ? 1 : 0) && s < m; s++) {
    const mirror = m - s !== s;
    const count = binomial(m, s) * (mirror ? 2 : 1);
    if (count > budget) break;
    const w = (m - 1) / (binomial(m, s) * s * (m - s));
    const idx = Array.from({ length: s }, (_, i) => i);
    for (;;) {
      const c = new Uint8Array(m);
      for (const i of idx) c[i] = 1;
      coalitions.push(c);
      weights.push(w);
      if (mirror) {
        coalitions.push(c.map((v) => 1 - v));
        weights.push(w);
      }
      // Next combination in lexicographic order.
      let k = s - 1;
      while (k >= 0 && idx[k] === m - s + k) k--;
      if (k < 0) break;
      idx[k]++;
      for (let j = k + 1; j < s; j++) idx[j] = idx[j - 1] + 1;
    }
    budget -= count;
  }
  // Sizes not enumerated: sample a size by its kernel weight, a random coalition of it, and its complement.
  const rest: number[] = [];
  for (let k = s; k <= m - s; k++) rest.push(k);
  if (rest.length && budget >= 2) {
    const total = rest.reduce((a, k) => a + sizeWeight(k), 0);
    const pairs = Math.floor(budget / 2);
    const w = total / (2 * pairs);
    for (let t = 0; t < pairs; t++) {
      let u = rng.next() * total;
      let size = rest[rest.length - 1];
      for (const k of rest) {
        u -= sizeWeight(k);
        if (u <= 0) {
          size = k;
          break;
        }
      }
      const perm = rng.shuffle(Int32Array.from({ length: m }, (_, i) => i));
      const c = new Uint8Array(m);
      for (let i = 0; i < size; i++) c[perm[i]] = 1;
      coalitions.push(c, c.map((v) => 1 - v));
      weights.push(w, w);
    }
  }
  return { coalitions, weights };
}

/**
 * Weighted least squares for φ with Σ φ = output − base: the last player's value is eliminated
 * (φ_m = Δ − Σ_{i<m} φ_i), the rest solved from the normal equations with a tiny ridge for stability.
 */
function constrainedFit(coalitions: Uint8Array[], weights: number[], v: Float64Array, base: number, output: number, m: number): Float64Array {
  const delta = output - base;
  const k = m - 1;
  const ata = new Float64Array(k * k);
  const atb = new Float64Array(k);
  for (let r = 0; r < coalitions.length; r++) {
    const c = coalitions[r];
    const w = weights[r];
    const last = c[m - 1];
    const t = v[r] - base - last * delta;
    for (let i = 0; i < k; i++) {
      const ai = c[i] - last;
      if (ai === 0) continue;
      atb[i] += w * ai * t;
      for (let j = 0; j < k; j++) {
        const aj = c[j] - last;
        if (aj !== 0) ata[i * k + j] += w * ai * aj;
      }
    }
  }
  const A = new MlMatrix(k, k);
  let trace = 0;
  for (let i = 0; i < k; i++) trace += ata[i * k + i];
  const ridge = 1e-10 * (trace / Math.max(1, k) || 1);
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) A.set(i, j, ata[i * k + j] + (i === j ? ridge : 0));
  const sol = new CholeskyDecomposition(A).solve(MlMatrix.columnVector(Array.from(atb))).getColumn(0);
  const phi = new Float64Array(m);
  let sum = 0;
  for (let i = 0; i < k; i++) {
    phi[i] = sol[i];
    sum += sol[i];
  }
  phi[m - 1] = delta - sum;
  return phi;
}
