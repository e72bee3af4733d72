import { KNOBS, optionValues, type Knob, type KnobValues } from '../config/knobs.js';
import type { ReportConfig } from '../config/defaults.js';
import { FactUnavailable, type FactContext } from '../facts/fact-context.js';
import type { FactName } from '../facts/types.js';
import { renderTemplate, type TemplateStyle } from '../text/template.js';
import { completeCost, isQuiet, LEVEL_KNOBS, ruleLevel, type Yardstick } from './level-policy.js';
import { completeSavings, defaultSavingsInput, jobBandwidth, scaleSavings, shareSavings, type JobBandwidth } from './savings.js';
import type { Advice, CheckOutcome, Detail, Finding, Mode, Subject, ThresholdUsed } from '../contract/index.js';
import { contradictedAdvice } from './advice.js';
import type { TraceViews } from '../trace/score.js';
import type { AnyCheck, CheckContext, CheckEnvironment, FindingInput } from './types.js';

export interface RunResult {
  /** Insights in check order (not yet in display order). */
  readonly insights: Finding[];
  readonly outcomes: CheckOutcome[];
  /** Knobs the fired checks mark for the THRESHOLDS panel. */
  readonly marked: Set<Knob>;
  /** Message templates used, by qualified message id (`P05.smallReads`). */
  readonly messages: Record<string, string>;
}

export interface RunOptions {
  readonly mode: Mode;
  readonly config: ReportConfig;
  readonly env: CheckEnvironment;
  /**
   * At most this many details per finding (a positive integer; default all): the rest are counted in the finding's
   * `detailsOmitted`. For outputs that show a few per finding: a log may have tens of thousands of file details.
   */
  readonly detailLimit?: number;
  /** A trace's scored views, for the checks that judge them (`meta.views`). */
  readonly views?: TraceViews;
  /**
   * What the trace is missing (the report's completeness) when every finding rests on the whole input (a trace's
   * views): each finding then carries these caveats and is at most WARN. Log checks get theirs from the facts they read.
   */
  readonly gaps?: readonly { readonly module: string; readonly status: string }[];
}

/** A fact, or null when the input lacks it or computing it fails (what depends on it then does without). */
function optionalFact<K extends FactName>(facts: FactContext, name: K) {
  try {
    return facts.tryGet(name);
  } catch {
    return null;
  }
}

/** The yardsticks of a job from its time model (zeros when it has none: every share is then 0). */
export function yardstickOf(facts: FactContext): Yardstick {
  const m = optionalFact(facts, 'io.time');
  return m ? { ioTime: m.ioTime, cumulativeIoTime: m.cumulativeIoTime, runTime: m.runTime, processes: m.processes, overlapSeconds: m.overlapSeconds } : { ioTime: 0, cumulativeIoTime: 0, runTime: 0, processes: 0 };
}

/** Thrown by `ctx.views()` when the report has no trace views: the check is not applicable. */
class ViewsUnavailable extends Error {}

/** Option values of a check under a knob configuration. */
export function resolveOptions(check: AnyCheck, knobs: KnobValues): Record<string, number> {
  return optionValues(check.meta.options as Record<string, { knob: Knob }>, knobs);
}

/**
 * Runs checks in order over one fact context (Lighthouse's `_runAudit`): each check sees the merged options, its
 * insights are completed from meta (code, level, panel, texts, thresholds), and an exception becomes an `error`
 * outcome for that check alone.
 */
export function runChecks(checks: readonly AnyCheck[], facts: FactContext, opts: RunOptions): RunResult {
  const detailLimit = opts.detailLimit ?? Infinity;
  if (!(detailLimit >= 1) || (detailLimit !== Infinity && !Number.isInteger(detailLimit))) throw new RangeError(`detailLimit must be a positive integer, got ${detailLimit}`);
  const insights: Finding[] = [];
  const outcomes: CheckOutcome[] = [];
  const marked = new Set<Knob>();
  const messages: Record<string, string> = {};
  let moduleNames: readonly string[] = [];
  try {
    moduleNames = facts.tryGet('modules')?.names ?? [];
  } catch {
    // leave it empty: the checks that need modules then report their own error or not-applicable outcome
  }
  const modules = new Set(moduleNames);
  // The job's I/O and run time in both semantics: what every cost is a share of.
  const yardstick = yardstickOf(facts);
  // The bandwidth of the job's own large requests: what "done well" means for data calls (savings.ts), read once.
  let bandwidth: JobBandwidth | null = null;
  const bw = () => (bandwidth ??= jobBandwidth(optionalFact(facts, 'posix.files')));
  // Findings the level rule judges (default mode, no override), with the level their check proposed: the rule runs
  // once every finding's savings are known and shared (the overlap rule).
  const ruledProposals = new Map<Finding, Finding['level']>();
  const policyThresholds: ThresholdUsed[] = LEVEL_KNOBS.map((k) => ({ option: k, knob: k, value: opts.config.knobs[k], unit: KNOBS[k].unit }));
  // What the log is missing, by module: findings that rest on such a module get a caveat and are capped at WARN.
  const gaps = new Map<string, string>();
  // (Drishti mode reproduces Drishti, which knows nothing of this.)
  if (opts.mode === 'default') try {
    for (const m of facts.tryGet('completeness')?.modules ?? []) if (!gaps.has(m.module)) gaps.set(m.module, m.status);
  } catch {
    // completeness unknown: no caveats
  }
  // Advice the job's own facts show it follows already is not given (Drishti's mode prints Drishti's bullets).
  const contradicted = opts.mode === 'default' ? contradictedAdvice(facts) : new Map<Advice, string>();
  const wholeInputCaveats = [...new Map((opts.gaps ?? []).map((g) => [g.module, g.status])).entries()].sort().map(([m, st]) => `rests on ${m} data that is ${st} (see the report's completeness)`);
  // Checks of other modes do not run at all; checks superseded by a check of this mode are skipped.
  const active = checks.filter((c) => !c.meta.modes || c.meta.modes.includes(opts.mode));
  // Superseded checks run after the others, and only when none of the checks superseding them could run (on a trace
  // without the facts D10 needs, Drishti's P06 still reports the small writes).
  const superseders = new Map<string, string[]>();
  for (const c of active) for (const code of c.meta.supersedes ?? []) superseders.set(code, [...(superseders.get(code) ?? []), c.meta.code]);
  const results = new Map<string, { outcome: CheckOutcome; emitted: Finding[] }>();

  const runOne = (check: AnyCheck): { outcome: CheckOutcome; emitted: Finding[] } => {
    const meta = check.meta;
    const override = opts.config.checks[meta.code];
    if (override && !override.enabled) {
      return { outcome: { code: meta.code, status: 'notApplicable', reason: 'disabled by configuration' }, emitted: [] };
    }
    const level = override?.level ?? meta.level;
    const options = resolveOptions(check, opts.config.knobs);
    const thresholds: ThresholdUsed[] = Object.entries(meta.options as Record<string, { knob: Knob }>).map(([option, spec]) => ({
      option,
      knob: spec.knob,
      value: options[option],
      unit: KNOBS[spec.knob].unit,
    }));
    const emitted: Finding[] = [];
    // A finding rebuilt with caveats keeps its check's proposed level for the level rule.
    const carry = (from: Finding, to: Finding) => {
      const p = ruledProposals.get(from);
      if (p && to !== from) {
        ruledProposals.delete(from);
        ruledProposals.set(to, p);
      }
      return to;
    };
    const used = new Set<FactName>(meta.requires);
    // A check's message ids, qualified with its code and recorded in `messages` once each (a finding may have
    // tens of thousands of details sharing one).
    const qualified = new Map<string, string>();
    const qualify = (id: string) => {
      let q = qualified.get(id);
      if (q === undefined) {
        q = `${meta.code}.${id}`;
        messages[q] = (meta.messages as Record<string, string>)[id];
        qualified.set(id, q);
      }
      return q;
    };
    const ctx: CheckContext<string, string, string> = {
      mode: opts.mode,
      options,
      env: opts.env,
      fact: (name) => {
        used.add(name);
        return facts.get(name);
      },
      tryFact: (name) => {
        used.add(name);
        return facts.tryGet(name);
      },
      hasModule: (name) => modules.has(name),
      detailLimit,
      file: (id, rank): Subject => (rank === undefined ? { kind: 'file', id: id.toString(), name: facts.fileName(id) } : { kind: 'file', id: id.toString(), name: facts.fileName(id), rank }),
      views: () => {
        if (!opts.views) throw new ViewsUnavailable();
        return opts.views;
      },
      report(input: FindingInput<string, string>) {
        const proposed = input.level ?? level;
        const cost = input.cost ? completeCost(input.cost, yardstick) : undefined;
        // The default mode's level rule caps what a check proposes by what fixing the finding would save
        // (level-policy.ts), after the overlap rule: below, once every check has run.
        const ruled = opts.mode === 'default' && !override?.level && (proposed === 'HIGH' || proposed === 'WARN');
        const savingsInput = opts.mode === 'default' && cost ? (input.savings ?? (ruled ? defaultSavingsInput(cost) : undefined)) : undefined;
        const savings = savingsInput && cost ? completeSavings(savingsInput, cost, bw()) : undefined;
        const f = buildInsight(check, override?.level ?? proposed, input, cost, savings, ruled ? [...thresholds, ...policyThresholds] : thresholds, qualify, opts.mode === 'drishti' ? 'drishti' : 'iec', detailLimit, contradicted);
        if (ruled) ruledProposals.set(f, proposed);
        emitted.push(f);
      },
    };
    try {
      // Required facts are computed here, inside the try: a fact that fails (a damaged module region, say)
      // makes this check an `error` outcome, never the whole report.
      if (meta.views && !opts.views) return { outcome: { code: meta.code, status: 'notApplicable', reason: "judges a trace's views (iolens trace)" }, emitted: [] };
      const missing = meta.requires.find((f) => facts.tryGet(f) === null);
      if (missing) {
        return { outcome: { code: meta.code, status: 'notApplicable', reason: facts.unavailableReason(missing) ?? `no ${missing} for this log` }, emitted: [] };
      }
      check.run(ctx);
    } catch (err) {
      if (err instanceof FactUnavailable) {
        return { outcome: { code: meta.code, status: 'notApplicable', reason: err.reason ?? `no ${err.fact} for this log` }, emitted: [] };
      }
      if (err instanceof ViewsUnavailable) {
        return { outcome: { code: meta.code, status: 'notApplicable', reason: "judges a trace's views (iolens trace)" }, emitted: [] };
      }
      return { outcome: { code: meta.code, status: 'error', reason: (err as Error).message ?? String(err) }, emitted: [] };
    }
    if (emitted.length) {
      const marks = opts.mode === 'drishti' && meta.compat.marks ? meta.compat.marks : [...new Set(emitted.flatMap((f) => f.thresholds.map((t) => t.knob as Knob)))];
      for (const k of marks) marked.add(k);
    }
    const caveated = gaps.size ? emitted.map((f) => carry(f, withCaveats(f, used, facts, gaps))) : emitted;
    return { outcome: { code: meta.code, status: emitted.length ? 'fired' : 'quiet' }, emitted: wholeInputCaveats.length ? caveated.map((f) => carry(f, withWholeCaveats(f, wholeInputCaveats))) : caveated };
    };

  for (const check of active) if (!superseders.has(check.meta.code)) results.set(check.meta.code, runOne(check));
  for (const check of active) {
    const by = superseders.get(check.meta.code);
    if (!by) continue;
    const ran = by.find((code) => results.get(code)?.outcome.status === 'fired' || results.get(code)?.outcome.status === 'quiet');
    results.set(check.meta.code, ran ? { outcome: { code: check.meta.code, status: 'notApplicable', reason: `superseded by ${ran} in the ${opts.mode} mode` }, emitted: [] } : runOne(check));
  }
  for (const check of active) {
    const r = results.get(check.meta.code)!;
    outcomes.push(r.outcome);
    insights.push(...r.emitted);
  }
  // The quiet rule (level-policy.ts) judges trace reports (their views are given); a log's report keeps WARN for a
  // pattern that is present, its savings stated (docs/report.md, "How levels are decided").
  const quiet = opts.views !== undefined && isQuiet(yardstick, opts.config.knobs);
  return { insights: settleLevels(insights, ruledProposals, yardstick, opts.config.knobs, quiet), outcomes, marked, messages };
}

/**
 * The overlap rule, then the level rule, once every check has run: findings whose problems overlap share their savings
 * (savings.ts `shareSavings`: together never more than the I/O time), and each finding the rule judges takes the level
 * its shared savings allow, never above what its check proposed, and at most WARN with caveats.
 */
function settleLevels(insights: readonly Finding[], proposals: ReadonlyMap<Finding, Finding['level']>, y: Yardstick, knobs: KnobValues, quiet: boolean): Finding[] {
  const factor = shareSavings(insights, { slowest: y.ioTime, cumulative: y.cumulativeIoTime });
  return insights.map((f, i) => {
    const savings = f.savings ? scaleSavings(f.savings, factor[i]) : undefined;
    const proposed = proposals.get(f);
    let level = f.level;
    if (proposed) {
      level = ruleLevel(proposed, f.cost, savings, knobs, quiet);
      if (f.caveats?.length && level === 'HIGH') level = 'WARN';
    }
    return savings === f.savings && level === f.level ? f : { ...f, level, ...(savings ? { savings } : {}) };
  });
}

/**
 * A finding resting on a module the log says is incomplete: it says so, and it is at most WARN (a HIGH needs the
 * data to stand on). The modules come from the facts the check read (the fact context records what each fact read).
 */
function withCaveats(f: Finding, used: ReadonlySet<FactName>, facts: FactContext, gaps: ReadonlyMap<string, string>): Finding {
  const mods = new Set<string>();
  for (const name of used) for (const m of facts.modulesOf(name)) mods.add(m);
  const caveats = [...mods].filter((m) => gaps.has(m)).sort().map((m) => `rests on ${m} data that is ${gaps.get(m)} (see the report's completeness)`);
  if (caveats.length === 0) return f;
  return { ...f, level: f.level === 'HIGH' ? 'WARN' : f.level, caveats };
}

/** A finding resting on the whole of an incomplete input (a trace's views): it says so and is at most WARN. */
function withWholeCaveats(f: Finding, caveats: readonly string[]): Finding {
  return { ...f, level: f.level === 'HIGH' ? 'WARN' : f.level, caveats: [...(f.caveats ?? []), ...caveats] };
}

function buildInsight(
  check: AnyCheck,
  level: Finding['level'],
  input: FindingInput<string, string>,
  cost: Finding['cost'],
  savings: Finding['savings'],
  thresholds: ThresholdUsed[],
  qualify: (id: string) => string,
  style: TemplateStyle,
  detailLimit: number,
  contradicted: ReadonlyMap<Advice, string>,
): Finding {
  const meta = check.meta;
  const templates = meta.messages as Record<string, string>;
  const recs = meta.recommendations as Record<string, { text: string; snippet?: string; advises?: Advice }>;
  const given = input.details ?? [];
  const kept = given.length > detailLimit ? given.slice(0, detailLimit) : given;
  // A check that stopped building details at the limit says how many it has; one that built them all is cut here.
  const omitted = Math.max(input.detailCount ?? 0, given.length) - kept.length;
  const details: Detail[] = kept.map((d) => ({
    messageId: qualify(d.messageId),
    message: renderTemplate(templates[d.messageId], d.data, style),
    data: d.data,
    subject: d.subject,
  }));
  return {
    code: meta.code,
    level,
    panel: meta.panel,
    ...(meta.problem ? { problem: meta.problem } : {}),
    ...(cost ? { cost } : {}),
    ...(savings ? { savings } : {}),
    messageId: qualify(input.messageId),
    message: renderTemplate(templates[input.messageId], input.data, style),
    data: input.data,
    evidence: input.evidence ?? [],
    thresholds,
    details,
    ...(omitted > 0 ? { detailsOmitted: omitted } : {}),
    ...(meta.docsUrl ? { docs: meta.docsUrl } : {}),
    recommendations: (input.recommendations ?? [])
      .filter((id) => !(recs[id].advises && contradicted.has(recs[id].advises)))
      .map((id) => ({
        id: `${meta.code}.${id}`,
        text: recs[id].text,
        ...(recs[id].snippet ? { snippet: recs[id].snippet } : {}),
        ...(recs[id].advises ? { advises: recs[id].advises } : {}),
      })),
  };
}
