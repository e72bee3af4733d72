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

export function pct(x: number): string {
  return `${(x * 100).toFixed(x >= 0.995 || x === 0 ? 0 : 1)}%`;
}

export function bytes(n: number): string {
  const u = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let i = 0;
  let v = n;
  while (Math.abs(v) >= 1024 && i < u.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${Math.round(v)} B` : `${v.toFixed(v >= 100 ? 0 : v >= 10 ? 1 : 2)} ${u[i]}`;
}

export function secs(s: number): string {
  if (s >= 100) return `${s.toFixed(0)} s`;
  if (s >= 1) return `${s.toFixed(2)} s`;
  if (s >= 1e-3) return `${(s * 1e3).toFixed(2)} ms`;
  return `${(s * 1e6).toFixed(1)} µs`;
}

export function int(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
