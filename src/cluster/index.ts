// Public API of the clustering engine (issue 15). See docs/cluster.md.
export { clusterMatrix, pcaDims, EXACT_BUDGET, AUTO_PCA_DIMS, type ClusterOptions, type ClusterResult } from './cluster.js';
export { hdbscan, checkMatrix } from './hdbscan.js';
export { condenseTree, clusterRows, directMembers, lambdaOf } from './tree.js';
export { selectClusters } from './select.js';
export {
  signedLog10,
  signedLog10Matrix,
  robustScaling,
  robustStandardize,
  columnSummary,
  oneSplitRule,
  type RobustScaling,
  type ColumnSummary,
  type SplitRule,
} from './features.js';
export { fitPca, projectPca, type Pca } from './pca.js';
export { adjustedRandIndex } from './ari.js';
export { jobMixture, type Mixture, type MixtureOptions } from './synth.js';
export type * from './types.js';
