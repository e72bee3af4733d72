// Public types of the clustering engine (HDBSCAN*, Campello, Moulavi & Sander 2013; Campello et al. 2015).

/** How flat clusters are picked from the condensed tree. */
export type SelectionMethod = 'eom' | 'leaf';

/** Options that shape the hierarchy and the flat clustering taken from it. */
export interface SelectionOptions {
  /** Smallest group that counts as a cluster (≥ 2). Smaller groups that split off are noise at that density. */
  minClusterSize: number;
  /** 'eom' (excess of mass, the default) or 'leaf' (the finest clusters of the condensed tree). */
  selection?: SelectionMethod;
  /**
   * cluster_selection_epsilon (Malzer & Baum 2020): splits below this distance are ignored; a selected cluster born
   * at a distance below it is replaced by its first ancestor born above it. 0 (default) turns it off.
   */
  epsilon?: number;
  /** Let the root (all rows) be the one selected cluster (default false: the root is never selected). */
  allowSingleCluster?: boolean;
}

/** Options of a whole HDBSCAN* run. */
export interface HdbscanOptions extends SelectionOptions {
  /**
   * k of the core distance: the distance from a row to its k-th nearest row, counting the row itself (as in
   * Campello et al. and scikit-learn; the `hdbscan` Python package's min_samples = this − 1). Default minClusterSize;
   * capped at the number of rows.
   */
  minSamples?: number;
  /**
   * Minimum-spanning-tree algorithm; both are exact in the space given. 'prim': O(n²d) dense Prim, any dimension.
   * 'boruvka': Borůvka over a kd-tree, fast in low dimension (≲ 20). 'auto' (default) picks by dimension.
   */
  algorithm?: 'auto' | 'prim' | 'boruvka';
  /** Worker threads (default: the machine's available parallelism). Small inputs always run in this thread. */
  threads?: number;
}

/** One cluster of the condensed tree. Ids are breadth-first: the root is 0, children have larger ids than parents. */
export interface ClusterNode {
  id: number;
  /** Parent cluster id; -1 for the root. */
  parent: number;
  /** Child cluster ids, ordered by their smallest row index. */
  children: number[];
  /** Rows in the cluster when it is born. */
  size: number;
  /** λ = 1/distance at which the cluster splits off its parent (0 for the root). */
  lambdaBirth: number;
  /** Largest λ at which a row or child cluster leaves this cluster (the hdbscan package's "death"). */
  lambdaDeath: number;
  /** Largest λ at which anything leaves this cluster or any descendant. */
  lambdaMax: number;
  /** Σ over its rows of (λ at which the row leaves the cluster − lambdaBirth). */
  stability: number;
  /** Picked for the flat clustering. */
  selected: boolean;
  /** Flat label of this cluster when selected, else -1. */
  label: number;
  /** Rows of this cluster and its descendants are `order[start..end)`; the first `directCount` leave it directly. */
  start: number;
  end: number;
  directCount: number;
}

/** The whole condensed tree: every cluster, and for each row the cluster it leaves last and at which λ. */
export interface CondensedTree {
  /** Number of rows clustered. */
  n: number;
  minClusterSize: number;
  clusters: ClusterNode[];
  /** Deepest cluster each row belongs to (the one it falls out of). */
  pointCluster: Int32Array;
  /** λ at which each row falls out of `pointCluster` (Infinity for exact duplicates of ≥ minSamples rows). */
  pointLambda: Float64Array;
  /** Row indices laid out so that every cluster's rows are contiguous (see ClusterNode.start/end). */
  order: Int32Array;
}

/** Flat clustering taken from a condensed tree. */
export interface FlatClustering {
  /** Cluster label per row, 0..k-1; -1 = noise. Labels follow cluster ids (breadth-first order of the tree). */
  labels: Int32Array;
  /** Membership strength in [0, 1] per row (0 for noise), as in the hdbscan package. */
  probabilities: Float64Array;
  /** GLOSH outlier score in [0, 1] per row (Campello et al. 2015): 1 − λ(row) / λmax(its cluster). */
  outlierScores: Float64Array;
  /** Tree cluster id of each label. */
  selectedClusters: number[];
  /** Per label: stability / (size × largest λ of the tree), the hdbscan package's cluster_persistence_. */
  persistence: Float64Array;
}

/** Minimum spanning tree of the mutual-reachability graph, n − 1 edges. */
export interface SpanningTree {
  from: Int32Array;
  to: Int32Array;
  /** Mutual-reachability distance max(core(a), core(b), d(a, b)). */
  weight: Float64Array;
}

export interface HdbscanResult extends FlatClustering {
  tree: CondensedTree;
  /** Core distance of each row (distance to its minSamples-th nearest row, itself included). */
  coreDistances: Float64Array;
  mst: SpanningTree;
  /** What ran: algorithm, threads, and seconds per stage. */
  info: { algorithm: 'prim' | 'boruvka'; threads: number; minSamples: number; seconds: Record<string, number> };
}
