/**
 * Feature sets: named, versioned lists of typed columns computed per job (from a report's facts) for the learned
 * models and clustering. The job store keeps them as columns; model files record the set id and version they were
 * trained on, so a model never meets columns of another meaning.
 */

export type FeatureType = 'double' | 'bigint' | 'varchar' | 'boolean';

export interface FeatureColumn {
  /** Column name (lower-case, `[a-z0-9_]`), unique in its set. */
  readonly name: string;
  readonly type: FeatureType;
  /** Unit of the value as stored (`log10` for log-scaled magnitudes). */
  readonly unit: 'count' | 'bytes' | 'seconds' | 'ratio' | 'log10' | 'bytes/s' | 'none';
  /** What the value is, in one sentence (with the Darshan counters it comes from). */
  readonly doc: string;
}

export interface FeatureSet {
  /** `aiio`, `gauge`, `totals` … */
  readonly id: string;
  /** Bumped whenever a column's meaning changes. */
  readonly version: number;
  readonly description: string;
  /** Prefix of the set's columns in the job store (`aiio_`), '' for none. */
  readonly columnPrefix: string;
  readonly columns: readonly FeatureColumn[];
}

/** One job's values of a feature set, in column order (null = not available for this job). */
export type FeatureValues = readonly (number | string | boolean | null)[];
