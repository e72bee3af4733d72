import type { Dim, Metrics, ViewRecord } from '../views.js';

/** What a rule sees besides the record's metrics. */
export interface RuleContext {
  /** dimensions of the view the record belongs to */
  dims: readonly Dim[];
  /** the record's key (dimension values) */
  key: ViewRecord['key'];
  /** requests below this many bytes are small */
  smallBytes: number;
}

/** One explanation attached to a bottleneck. */
export interface Reason {
  rule: string;
  message: string;
}

/** A rule: given a bottleneck record, zero or more reasons. Built-in rules and compiled YAML rules share it. */
export interface Rule {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly source: 'builtin' | 'user';
  explain(m: Metrics, ctx: RuleContext): string[];
}

export const KiB = 1024;
export const MiB = 1024 * 1024;
