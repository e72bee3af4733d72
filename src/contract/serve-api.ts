/**
 * JSON answers of the web service's store queries (`iolens serve`, docs/serve.md) that its pages read: the
 * contract between src/serve and src/web. The report itself is the Report of report.ts.
 */

/** A clustering node's per-feature description (clusters.summary), as stored by the clustering run. */
export interface ClusterNodeSummary {
  readonly features?: Readonly<Record<string, { readonly median: number; readonly q1: number; readonly q3: number; readonly iqr?: number }>>;
  readonly target?: { readonly column: string; readonly rows: number; readonly median: number | null } | null;
  readonly io_time?: { readonly column: string; readonly rows: number; readonly total: number } | null;
}

/** A clustering node's explanation (clusters.explanation): its SHAP summary and the rule that sets it apart. */
export interface ClusterNodeExplanation {
  readonly shap?: { readonly features?: readonly { readonly feature: string; readonly label?: string; readonly mean_abs: number; readonly sign: string }[] } | null;
  readonly rule?: { readonly text?: string } | null;
}

/** A node of a clustering run's tree as the dashboard reads it (`GET /api/clusters`). */
export interface ClusterNodeView {
  readonly id: number;
  readonly parent: number | null;
  readonly depth: number;
  readonly size: number;
  readonly selected: boolean;
  readonly label: number | null;
  readonly stability: number | null;
  readonly lambdaBirth: number | null;
  /** Jobs of the node's subtree that are in `jobs`. */
  readonly jobs: number;
  /** Median POSIX throughput (MiB/s, agg_perf_by_slowest) of those jobs, else the run's target median. */
  readonly medianThroughput: number | null;
  /** Σ I/O time (s) of those jobs, else the run's stored io_time total. */
  readonly ioTime: number | null;
  readonly summary: ClusterNodeSummary | null;
  readonly explanation: ClusterNodeExplanation | null;
  readonly model: unknown;
}

/** A node's rows for parallel coordinates and predicted-vs-measured (`GET /api/clusters/RUN/nodes/ID`). */
export interface ClusterNodeRows {
  readonly features: readonly string[];
  readonly rows: readonly { readonly key: string; readonly values: readonly (number | null)[] }[];
  readonly scatter: readonly { readonly key: string; readonly predicted: number; readonly measured: number | null; readonly ood: boolean }[] | null;
  readonly target: string | null;
}
