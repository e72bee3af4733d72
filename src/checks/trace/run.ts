import { KNOBS, optionValues, type Knob } from '../../config/knobs.js';
import type { ReportConfig } from '../../config/defaults.js';
import { LEVELS, PANELS, type CheckOutcome, type Finding, type ModuleCompleteness, type ThresholdUsed } from '../../contract/index.js';
import { renderTemplate } from '../../text/template.js';
import { costLevel, type LevelCuts } from '../../trace/score.js';
import { byShare } from './define.js';
import type { AnyTraceCheck, ScoredView, TraceCheckContext, TraceFindingInput } from './types.js';

/** Where the built-in trace checks are documented (relative to the IOLens package). */
export const TRACE_CHECKS_DOCS = 'docs/trace.md#trace-checks';

/** The knobs of the level rule: every trace finding uses them (listed with its thresholds). */
export const LEVEL_OPTIONS = { highTimeShare: 'trace_high_time_share', warnTimeShare: 'trace_warn_time_share' } as const satisfies Record<string, Knob>;

export interface TraceRunResult {
  /** In display order: METADATA before OPERATIONS, then problems before observations, the costliest first. */
  readonly insights: Finding[];
  /** Every check considered, in registry order. */
  readonly outcomes: CheckOutcome[];
  /** Knobs used by the checks that fired. */
  readonly marked: Set<Knob>;
  /** Message templates by qualified id (`T04.finding`). */
  readonly messages: Record<string, string>;
}

export interface TraceRunOptions {
  readonly config: ReportConfig;
  readonly cuts: LevelCuts;
  /** Checks listed as not applicable with this reason instead of being run (built-in checks turned off). */
  readonly skipped?: { readonly checks: readonly AnyTraceCheck[]; readonly reason: string };
  /**
   * What the trace is missing (the report's completeness): every trace finding rests on the whole trace, so each
   * then carries these caveats and is at most WARN.
   */
  readonly gaps?: readonly ModuleCompleteness[];
}

/** Option values of a trace check under a knob configuration. */
export function traceCheckOptions(check: AnyTraceCheck, config: ReportConfig): Record<string, number> {
  return optionValues(check.meta.options as Record<string, { knob: Knob }>, config.knobs);
}

/**
 * Runs trace checks over the scored views: each sees its option values and the flagged records; its findings are
 * completed from its meta (code, panel, problem, texts, thresholds) and leveled by their cost unless the check or
 * the configuration says otherwise. An exception becomes an `error` outcome of that check alone.
 */
export function runTraceChecks(checks: readonly AnyTraceCheck[], views: readonly ScoredView[], opts: TraceRunOptions): TraceRunResult {
  const flagged = views.flatMap((v) => v.records.filter((r) => r.level !== 'OK'));
  const insights: { f: Finding; order: number }[] = [];
  const outcomes: CheckOutcome[] = [];
  const marked = new Set<Knob>();
  const messages: Record<string, string> = {};
  const caveats = [...new Map((opts.gaps ?? []).map((g) => [g.module, g.status])).entries()].sort().map(([m, st]) => `rests on ${m} data that is ${st} (see the report's completeness)`);
  for (const c of opts.skipped?.checks ?? []) outcomes.push({ code: c.meta.code, status: 'notApplicable', reason: opts.skipped!.reason });
  for (const check of checks) {
    const meta = check.meta;
    const override = opts.config.checks[meta.code];
    if (override && !override.enabled) {
      outcomes.push({ code: meta.code, status: 'notApplicable', reason: 'disabled by configuration' });
      continue;
    }
    const options = traceCheckOptions(check, opts.config);
    const used: [string, Knob][] = [...Object.entries(meta.options as Record<string, { knob: Knob }>).map(([o, s]) => [o, s.knob] as [string, Knob]), ...Object.entries(LEVEL_OPTIONS)];
    const thresholds: ThresholdUsed[] = used.map(([option, knob]) => ({ option, knob, value: opts.config.knobs[knob], unit: KNOBS[knob].unit }));
    const emitted: Finding[] = [];
    const templates = meta.messages as Record<string, string>;
    const recs = meta.recommendations as Record<string, { text: string }>;
    const qualify = (id: string) => {
      const q = `${meta.code}.${id}`;
      messages[q] = templates[id];
      return q;
    };
    const ctx: TraceCheckContext<string, string, string> = {
      options,
      views,
      flagged,
      cuts: opts.cuts,
      report(input: TraceFindingInput<string, string>) {
        if (input.details.length === 0) throw new Error(`${meta.code}: a trace finding names at least one record`);
        const level = override?.level ?? input.level ?? costLevel(input.cost.share, opts.cuts);
        emitted.push({
          code: meta.code,
          level: caveats.length && level === 'HIGH' ? 'WARN' : level,
          panel: meta.panel,
          ...(meta.problem ? { problem: meta.problem } : {}),
          cost: input.cost,
          messageId: qualify(input.messageId),
          message: renderTemplate(templates[input.messageId], input.data),
          data: input.data,
          evidence: input.evidence ?? [],
          thresholds,
          details: input.details.map((d) => ({
            messageId: qualify(d.messageId),
            message: renderTemplate(templates[d.messageId], d.data),
            data: d.data,
            subject: { kind: 'record', view: d.record.view, key: d.record.key as Record<string, string | number> },
          })),
          recommendations: (input.recommendations ?? []).map((id) => ({ id: `${meta.code}.${id}`, text: recs[id].text })),
          ...(meta.source === 'builtin' ? { docs: TRACE_CHECKS_DOCS } : {}),
          ...(caveats.length ? { caveats } : {}),
        });
      },
    };
    try {
      check.run(ctx);
    } catch (err) {
      outcomes.push({ code: meta.code, status: 'error', reason: (err as Error).message ?? String(err) });
      continue;
    }
    for (const f of emitted) insights.push({ f, order: insights.length });
    outcomes.push({ code: meta.code, status: emitted.length ? 'fired' : 'quiet' });
    if (emitted.length) for (const [, knob] of used) marked.add(knob);
  }
  insights.sort(
    (a, b) =>
      PANELS.indexOf(a.f.panel) - PANELS.indexOf(b.f.panel) ||
      LEVELS.indexOf(a.f.level) - LEVELS.indexOf(b.f.level) ||
      byShare(a.f.cost?.share ?? 0, b.f.cost?.share ?? 0) ||
      a.order - b.order,
  );
  return { insights: insights.map((x) => x.f), outcomes, marked, messages };
}
