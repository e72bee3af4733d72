import { LEVELS, type Evidence, type Level, type MessageData } from '../../contract/index.js';
import { scoreEvidence, type ScoredRecord } from '../../trace/score.js';
import type { Metrics, MetricName } from '../../trace/views.js';
import { defineCheck } from '../define-check.js';
import type { Check, CheckContext, CheckMeta, CostInput, DetailInput } from '../types.js';
import type { SavingsInput } from '../savings.js';

/**
 * Trace checks: checks of the one engine (`runChecks`) that judge a trace's scored views (`ctx.views()`) instead of
 * a log's counters. Their meta is the check meta with the trace's defaults filled in: layer `trace`, scope `record`,
 * proposing HIGH (the level rule then caps it by the seconds the named records cost), default mode only.
 */
export type TraceCheckMeta<O extends string, M extends string, R extends string> = Omit<CheckMeta<O, M, R>, 'layer' | 'scope' | 'level' | 'requires' | 'views' | 'modes' | 'compat'> &
  Partial<Pick<CheckMeta<O, M, R>, 'level' | 'requires'>>;

/** Declares a trace check (the default export of every `t<NN>-<slug>.ts`). */
export function defineTraceCheck<O extends string, M extends string, R extends string>(spec: {
  meta: TraceCheckMeta<O, M, R>;
  run(ctx: CheckContext<O, M, R>): void;
  docsUrl?: string;
}): Check<O, M, R> {
  const { level, requires, ...rest } = spec.meta;
  return defineCheck<O, M, R>({
    meta: { ...rest, layer: 'trace', scope: 'record', level: level ?? 'HIGH', requires: requires ?? ['io.time'], views: true, modes: ['default'], compat: {} },
    run: spec.run,
    ...(spec.docsUrl !== undefined ? { docsUrl: spec.docsUrl } : {}),
  });
}

/** Columns that add up over disjoint records (counts, bytes, seconds and shares of the trace totals). */
export const ADDITIVE_METRICS = [
  'time', 'ops', 'bytes',
  'read_time', 'read_ops', 'read_bytes', 'write_time', 'write_ops', 'write_bytes',
  'metadata_time', 'metadata_ops', 'metadata_bytes', 'sync_time', 'sync_ops', 'sync_bytes',
  'other_time', 'other_ops', 'other_bytes',
  'data_time', 'data_ops', 'data_bytes',
  'small_read_ops', 'small_write_ops', 'random_ops', 'offset_ops',
  'time_share', 'ops_share', 'bytes_share',
] as const satisfies readonly MetricName[];
export type Sums = Readonly<Record<(typeof ADDITIVE_METRICS)[number], number>>;

/** `file=/d/a.dat`, `proc=3 file=/d/a.dat`, `time=1.5s`: a record as detail lines name it. */
export function recordLabel(r: Pick<ScoredRecord, 'dims' | 'key'>): string {
  return r.dims.map((d) => `${d}=${r.key[d]}${d === 'time' ? 's' : ''}`).join(' ');
}

/**
 * Shares closer than this, relative to the larger, are equal (rounding, not cost, tells them apart: the same calls
 * added in another order differ in the last bits).
 */
export const SHARE_TIE = 1e-9;

/** Which of a set of records set a finding's cost, and that cost. */
export interface CostingView {
  readonly view: string;
  /** The named records of that view, costliest first. */
  readonly records: readonly ScoredRecord[];
  /** Their summed share of the trace's I/O time. */
  readonly share: number;
}

/**
 * The no-double-counting rule of trace findings: the records of one view never overlap (each call belongs to one
 * record), the records of different views do (a call is in its file's record and in its process's). So a finding's
 * cost is the largest, over views, of the summed time of the records it names in that view — never a sum across
 * views. Ties go to the view whose records come first in `records` (callers pass them in report order); shares
 * within SHARE_TIE are a tie (the same calls summed in another order).
 */
export function costingView(records: readonly ScoredRecord[]): CostingView {
  const byView = new Map<string, ScoredRecord[]>();
  for (const r of records) {
    const list = byView.get(r.view);
    if (list) list.push(r);
    else byView.set(r.view, [r]);
  }
  let best: CostingView | null = null;
  for (const [view, list] of byView) {
    const share = list.reduce((a, r) => a + r.metrics.time_share, 0);
    if (!best || byShare(share, best.share) < 0) best = { view, records: [...list].sort(byCost), share };
  }
  if (!best) throw new Error('costingView needs at least one record');
  return { ...best, share: Math.min(1, best.share) };
}

/** Costliest first: level, share of the I/O time, badness (shares and badness within SHARE_TIE are equal). */
export function byCost(a: ScoredRecord, b: ScoredRecord): number {
  return LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) || byShare(a.metrics.time_share, b.metrics.time_share) || byShare(a.score.badness, b.score.badness);
}

/** Larger first; values within SHARE_TIE of each other (relative) are equal: the caller's next key decides. */
export function byShare(a: number, b: number): number {
  return Math.abs(a - b) <= SHARE_TIE * Math.max(Math.abs(a), Math.abs(b)) ? 0 : b - a;
}

export function sums(records: readonly ScoredRecord[]): Sums {
  const out = Object.fromEntries(ADDITIVE_METRICS.map((k) => [k, 0])) as Record<(typeof ADDITIVE_METRICS)[number], number>;
  for (const r of records) for (const k of ADDITIVE_METRICS) out[k] += r.metrics[k];
  return out;
}

/** A record as a detail subject. */
export function recordSubject(r: ScoredRecord): DetailInput<string>['subject'] {
  return { kind: 'record', view: r.view, key: r.key as Record<string, string | number> };
}

/** What most trace checks do: name the flagged records that show one problem, with a line each. */
export interface FlaggedSpec<M extends string, R extends string> {
  /** Whether a flagged record shows the problem. */
  where(m: Metrics, r: ScoredRecord): boolean;
  readonly finding: M;
  readonly detail: M;
  /** A record's detail data (its label, `record`, is added). */
  detailData(m: Metrics, r: ScoredRecord): MessageData;
  /**
   * The seconds the problem costs in the records of the costing view (default: their whole time, summed over calls):
   * the time of the calls that show the pattern, or what the job waited for it (`semantics: 'slowest'`).
   */
  cost?(sum: Sums, records: readonly ScoredRecord[]): CostInput;
  /** What fixing it would save: the work the problem's calls did (savings.ts; default: an upper bound, the cost). */
  savings?(sum: Sums, records: readonly ScoredRecord[], cost: CostInput): SavingsInput;
  /**
   * The finding's own data, from the column sums over the records of the costing view (`records`, `views`, `view`,
   * `share` and `seconds` are added).
   */
  summary?(sum: Sums): MessageData;
  /** Evidence besides the record count, the cost and the metric score of the costliest record. */
  evidence?(sum: Sums): Evidence[];
  readonly recommendations: readonly R[];
  /** The level the finding proposes (user checks that declare one); the level rule still caps it. */
  readonly level?: Level;
}

/** Reports one finding naming every flagged record `where` accepts (nothing when there is none). */
export function reportFlagged<O extends string, M extends string, R extends string>(ctx: CheckContext<O, M, R>, spec: FlaggedSpec<M, R>): void {
  const { views, flagged } = ctx.views();
  const order = new Map(views.map((v, i) => [v.name, i]));
  const named = flagged.filter((r) => spec.where(r.metrics, r));
  if (named.length === 0) return;
  named.sort((a, b) => byCost(a, b) || order.get(a.view)! - order.get(b.view)! || (recordLabel(a) < recordLabel(b) ? -1 : recordLabel(a) > recordLabel(b) ? 1 : 0));
  const costing = costingView([...named].sort((a, b) => order.get(a.view)! - order.get(b.view)!));
  const sum = sums(costing.records);
  const top = costing.records[0];
  const cost = spec.cost ? spec.cost(sum, costing.records) : { seconds: sum.time };
  const details: DetailInput<M>[] = named.map((record) => ({ messageId: spec.detail, data: { record: recordLabel(record), ...spec.detailData(record.metrics, record) }, subject: recordSubject(record) }));
  ctx.report({
    messageId: spec.finding,
    data: { records: named.length, views: new Set(named.map((r) => r.view)).size, view: costing.view, share: costing.share, seconds: cost.seconds, ...(spec.summary?.(sum) ?? {}) },
    details,
    cost,
    ...(spec.savings ? { savings: spec.savings(sum, costing.records, cost) } : {}),
    evidence: [
      { name: 'records', value: named.length, unit: 'count', source: 'flagged view records the finding names' },
      { name: 'timeShare', value: costing.share, unit: 'ratio', source: `time_share summed over the records of the ${costing.view} view` },
      { name: 'seconds', value: cost.seconds, unit: 'seconds', source: `what the problem costs in the records of the ${costing.view} view` },
      ...scoreEvidence(top.score, `the costliest record, ${recordLabel(top)}`),
      ...(spec.evidence?.(sum) ?? []),
    ],
    recommendations: spec.recommendations,
    ...(spec.level ? { level: spec.level } : {}),
  });
}

/**
 * What the busiest process of each record spends beyond an even split of the record's time, summed over the records:
 * the seconds the others wait for it (the slowest rank's semantics).
 */
export function busiestExtra(records: readonly ScoredRecord[]): number {
  let s = 0;
  for (const r of records) {
    const m = r.metrics;
    if (m.nprocs >= 2) s += Math.max(0, m.time * (m.top_proc_time_share - 1 / m.nprocs));
  }
  return s;
}
