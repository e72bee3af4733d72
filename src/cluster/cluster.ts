// The clustering entry point for job tables: signed log transform, robust standardisation, optional reduction to
// principal components, then HDBSCAN*. Exact in the full space for moderate tables; above that 'auto' clusters the
// leading principal components instead (documented approximation, see docs/cluster.md).
import { checkMatrix, hdbscan } from './hdbscan.js';
import { robustScaling, robustStandardize, signedLog10Matrix, type RobustScaling } from './features.js';
import { fitPca, projectPca, type Pca } from './pca.js';
import type { HdbscanOptions, HdbscanResult } from './types.js';

export interface ClusterOptions extends HdbscanOptions {
  /** Apply sign(x)·log10(1 + |x|) to every value first (default true: counters span many decades). */
  logTransform?: boolean;
  /** Robust standardisation of every column (default true). */
  standardize?: boolean;
  /**
   * Cluster the leading principal components instead of all columns: a number of components, null for none, or
   * 'auto' (default): none while n² · d ≤ EXACT_BUDGET, else AUTO_PCA_DIMS components.
   */
  pca?: number | 'auto' | null;
}

/** Largest n² · d clustered exactly in the full space by pca: 'auto' (≈ 30,000 rows × 60 columns). */
export const EXACT_BUDGET = 6e10;
/** Components kept by pca: 'auto' when the table is too large for the full space. */
export const AUTO_PCA_DIMS = 15;

export interface ClusterResult extends HdbscanResult {
  prepared: {
    logTransform: boolean;
    scaling: RobustScaling | null;
    /** The PCA the clustering ran on, or null when it ran on all columns. */
    pca: Pca | null;
    /** Columns of the space clustered. */
    dims: number;
  };
}

/** Resolves the pca option to a number of components (0 = none). */
export function pcaDims(pca: ClusterOptions['pca'], n: number, d: number): number {
  if (pca === null) return 0;
  const p = pca === undefined ? 'auto' : pca;
  if (p === 'auto') return n * n * d > EXACT_BUDGET && d > AUTO_PCA_DIMS ? AUTO_PCA_DIMS : 0;
  if (!Number.isInteger(p) || p < 1 || p > d) throw new Error(`PCA to ${p} dimensions needs an integer from 1 to ${d}`);
  return p === d ? 0 : p;
}

/** Clusters n rows of d raw feature values (row-major). */
export async function clusterMatrix(data: Float64Array, n: number, d: number, options: ClusterOptions): Promise<ClusterResult> {
  checkMatrix(data, n, d);
  const dims = pcaDims(options.pca, n, d);
  const logTransform = options.logTransform ?? true;
  let x = logTransform ? signedLog10Matrix(data) : data;
  let scaling: RobustScaling | null = null;
  if (options.standardize ?? true) {
    scaling = robustScaling(x, n, d);
    x = robustStandardize(x, n, d, scaling);
  }
  let pca: Pca | null = null;
  if (dims > 0) {
    pca = fitPca(x, n, d, dims);
    x = projectPca(pca, x, n);
  }
  const r = await hdbscan(x, n, dims || d, options);
  return { ...r, prepared: { logTransform, scaling, pca, dims: dims || d } };
}
