import { LEVELS, type Evidence, type Level, type MessageData } from '../../contract/index.js';
import { scoreEvidence } from '../../trace/score.js';
import type { Metrics, MetricName } from '../../trace/views.js';
import type { RecordDetail, ScoredRecord, TraceCheck, TraceCheckContext, TraceCheckMeta } from './types.js';

/**
 * Declares a trace check (the default export of every `t<NN>-<slug>.ts`). The generics tie message ids,
 * recommendation ids and option names to `meta`, so a misspelt id is a compile error.
 */
export function defineTraceCheck<O extends string, M extends string, R extends string>(spec: {
  meta: TraceCheckMeta<O, M, R>;
  run(ctx: TraceCheckContext<O, M, R>): void;
}): TraceCheck<O, M, R> {
  if (spec.meta.source === 'builtin' && !/^T\d\d$/.test(spec.meta.code)) throw new Error(`trace check code '${spec.meta.code}' is not like T05`);
  return Object.freeze({ meta: Object.freeze({ ...spec.meta }), run: spec.run });
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
 * cost is the largest, over views, of the summed time shares of the records it names in that view — never a sum
 * across views. Ties go to the view whose records come first in `records` (callers pass them in report order); shares
 * within SHARE_TIE are a tie (the same calls summed in another order: four processes' shares against the one
 * application's that holds them all).
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

function sums(records: readonly ScoredRecord[]): Sums {
  const out = Object.fromEntries(ADDITIVE_METRICS.map((k) => [k, 0])) as Record<(typeof ADDITIVE_METRICS)[number], number>;
  for (const r of records) for (const k of ADDITIVE_METRICS) out[k] += r.metrics[k];
  return out;
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
   * The finding's own data, from the column sums over the records of the costing view (`records`, `views`, `view`
   * and `share` are added).
   */
  summary?(sum: Sums): MessageData;
  /** Evidence besides the record count, the cost and the metric score of the costliest record. */
  evidence?(sum: Sums): Evidence[];
  readonly recommendations: readonly R[];
  /** A fixed level instead of the level rule's (user checks that declare one). */
  readonly level?: Level;
}

/** Reports one finding naming every flagged record `where` accepts (nothing when there is none). */
export function reportFlagged<O extends string, M extends string, R extends string>(ctx: TraceCheckContext<O, M, R>, spec: FlaggedSpec<M, R>): void {
  const order = new Map(ctx.views.map((v, i) => [v.name, i]));
  const named = ctx.flagged.filter((r) => spec.where(r.metrics, r));
  if (named.length === 0) return;
  named.sort((a, b) => byCost(a, b) || order.get(a.view)! - order.get(b.view)! || (recordLabel(a) < recordLabel(b) ? -1 : recordLabel(a) > recordLabel(b) ? 1 : 0));
  const cost = costingView([...named].sort((a, b) => order.get(a.view)! - order.get(b.view)!));
  const sum = sums(cost.records);
  const top = cost.records[0];
  const details: RecordDetail<M>[] = named.map((record) => ({ record, messageId: spec.detail, data: { record: recordLabel(record), ...spec.detailData(record.metrics, record) } }));
  ctx.report({
    messageId: spec.finding,
    data: { records: named.length, views: new Set(named.map((r) => r.view)).size, view: cost.view, share: cost.share, ...(spec.summary?.(sum) ?? {}) },
    details,
    cost: { share: cost.share, basis: 'time' },
    evidence: [
      { name: 'records', value: named.length, unit: 'count', source: 'flagged view records the finding names' },
      { name: 'timeShare', value: cost.share, unit: 'ratio', source: `time_share summed over the records of the ${cost.view} view` },
      ...scoreEvidence(top.score, `the costliest record, ${recordLabel(top)}`),
      ...(spec.evidence?.(sum) ?? []),
    ],
    recommendations: spec.recommendations,
    ...(spec.level ? { level: spec.level } : {}),
  });
}
