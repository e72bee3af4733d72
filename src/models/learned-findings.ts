import { PROBLEMS, type Cost, type Detail, type Finding, type Level, type LearnedProblem, type LearnedSection, type Recommendation, type Report } from '../contract/index.js';
import { completeCost, costLevel } from '../checks/level-policy.js';
import { formatSeconds } from '../text/format.js';
import type { KnobValues } from '../config/knobs.js';
import { factorDigits } from './words.js';

/**
 * The learned diagnosis as findings of the one contract (`source: "model"`), so every renderer and the web show it
 * as they show a check's finding, ranked among them by the seconds it costs:
 *
 * - **L01**: how the job's throughput compares with what the model expected. Slower than the interval's low end
 *   costs the I/O time it would not have taken at the expected rate: ioTime × (1 − measured/expected) (same bytes,
 *   time ∝ 1/throughput). Its details are the largest contributions in words, and the checks' problems the model
 *   could see but does not blame (contradicted).
 * - **L02**: each cause the blame ranks (at most three; problems named by the same features are one): a problem whose
 *   features cost the job ×f of throughput (f = 10^−Σshap), that is (1 − 1/f) of the I/O time had those features
 *   been at their reference (docs/learn.md, "What blame is weighed against"). Where checks measured the problem, the
 *   seconds are in their semantics and never more than they measured (the time model has the last word), and it
 *   takes their recommendations; where none did, the seconds are the model's bound (`basis: bound`, never HIGH).
 *
 * Both are levelled by the report's level rule on those seconds (src/checks/level-policy.ts) and are at most WARN:
 * a model's estimate, not a measurement (their caveat says how accurate the model was). An out-of-distribution job
 * gets INFO only; a model no better than the median gets L01 alone, INFO, saying so.
 */

/** The number of ranked causes that become L02 findings. */
export const MAX_MODEL_CAUSES = 3;

/** The report's level knobs (its thresholds table holds the values it was built with). */
function knobs(report: Report): { high_cost_share: number; high_run_share: number; warn_cost_share: number; warn_run_share: number } {
  const v = (k: string, d: number) => report.thresholds.find((t) => t.knob === k)?.value ?? d;
  return { high_cost_share: v('high_cost_share', 0.25), high_run_share: v('high_run_share', 0.05), warn_cost_share: v('warn_cost_share', 0), warn_run_share: v('warn_run_share', 0.01) };
}

function levelOf(report: Report, cost: Cost, l: LearnedSection): Level {
  if (l.ood || cost.seconds <= 0) return 'INFO';
  const k = knobs(report);
  // (The quiet rule judges trace reports; a learned finding is on a log's report.)
  const allowed = costLevel(cost, k as unknown as KnobValues, report.trace !== undefined && report.io.runTime > 0 && report.io.ioTime / report.io.runTime < k.high_run_share);
  return allowed === 'HIGH' ? 'WARN' : allowed;
}

function costOf(report: Report, seconds: number, semantics: Cost['semantics'] = 'slowest', basis: Cost['basis'] = 'time'): Cost {
  const io = report.io;
  return completeCost({ seconds: Math.max(0, seconds), semantics, basis }, { ioTime: io.ioTime, cumulativeIoTime: io.cumulativeIoTime, runTime: io.runTime, processes: io.processes, overlapSeconds: io.overlapSeconds });
}

const PROBLEM_ORDER = (p: string) => (PROBLEMS as readonly string[]).indexOf(p);

const detail = (code: string, text: string): Detail => ({ messageId: `${code}.line`, message: text, data: { text }, subject: { kind: 'job' } });

/** The model's findings for a report and its learned section. */
export function learnedFindings(report: Report, l: LearnedSection): Finding[] {
  const model = { file: l.model.file, table: l.model.table, target: l.model.target };
  const v = l.model.validation;
  const caveats = [`a model's estimate (${l.model.file}, predicting ${l.model.target}): ${l.model.rows.toLocaleString('en-US')} training jobs, validation median error ×${v.medianErrorFactor.toFixed(2)}, R²(log) ${v.r2.toFixed(2)}`];
  if (l.ood) caveats.push(`the job is outside what the model learned (${l.oodReasons.join('; ')})`);
  const ioTime = report.io.ioTime;
  const out: Finding[] = [];

  // L01: expected against measured (a rate in MiB/s is evidence in bytes/s; another target as it is)
  const unit = l.model.unit === 'MiB/s' ? ('bytes/s' as const) : ('count' as const);
  const scale = l.model.unit === 'MiB/s' ? 2 ** 20 : 1;
  const slower = l.measured !== null && l.measured < l.low && l.predicted > 0;
  const lost = slower ? ioTime * (1 - (1 + l.measured!) / (1 + l.predicted)) : 0;
  const c1 = costOf(report, lost);
  const details: Detail[] = l.contributors.map((c) => detail('L01', c.text));
  for (const p of l.findingsOnly) details.push(detail('L01', `not blamed by the model: ${p.problem}, which ${p.findings.join(', ')} raised`));
  const summary = l.notUsed ? `${l.summary}` : slower ? `${l.summary} At the expected rate its I/O would have taken ${formatSeconds(lost)} less.` : l.summary;
  out.push({
    code: 'L01',
    level: l.notUsed ? 'INFO' : slower ? levelOf(report, c1, l) : 'INFO',
    panel: 'OPERATIONS',
    ...(slower && lost > 0 ? { cost: c1 } : {}),
    // What reaching the model's expected rate would save (at least what reaching its 5 % validation quantile would).
    ...(slower && lost > 0
      ? { savings: { seconds: lost, low: Math.max(0, Math.min(lost, ioTime * (1 - (1 + l.measured!) / (1 + l.low)))), high: lost, semantics: c1.semantics, basis: 'reference' as const, reference: `the model's expected ${l.model.target} for this job (${l.model.file})` } }
      : {}),
    messageId: 'L01.expected',
    message: summary,
    data: { summary },
    evidence: [
      { name: 'predicted', value: l.predicted * scale, unit, source: `${l.model.file}: ${l.model.target}` },
      { name: 'low', value: l.low * scale, unit, source: 'the 5 % quantile of validation residuals' },
      { name: 'high', value: l.high * scale, unit, source: 'the 95 % quantile of validation residuals' },
      ...(l.measured !== null ? [{ name: 'measured', value: l.measured * scale, unit, source: l.model.target }] : []),
    ],
    thresholds: [],
    details,
    recommendations: [],
    caveats,
    source: 'model',
    model,
  });
  if (l.notUsed) return out;

  // L02: the ranked causes; problems named by the same features are one finding (opens: metadata-heavy or
  // many-small-files)
  const ranked = [...l.corroborated.map((p) => ({ ...p, corroborated: true })), ...l.modelOnly.map((p) => ({ ...p, corroborated: false }))]
    .filter((p) => p.shap !== undefined && p.shap < 0)
    .sort((a, b) => a.shap! - b.shap! || PROBLEM_ORDER(a.problem) - PROBLEM_ORDER(b.problem));
  const causes: { problems: LearnedProblem[]; shap: number; features: readonly string[] }[] = [];
  for (const p of ranked) {
    const same = causes.find((c) => c.features.join() === p.features.join());
    if (same) same.problems.push(p);
    else causes.push({ problems: [p], shap: p.shap!, features: p.features });
  }
  for (const cause of causes.slice(0, MAX_MODEL_CAUSES)) {
    const factor = 10 ** -cause.shap;
    const problem = cause.problems[0].problem;
    const checks = [...new Set(cause.problems.flatMap((p) => p.findings))];
    const backing = report.insights.filter((f) => checks.includes(f.code) && cause.problems.some((p) => p.problem === f.problem) && f.cost && f.cost.seconds > 0);
    // Seconds in the time model's terms: the model's share of the I/O time, in the semantics of the checks that
    // measured the problem and never more than they measured; a problem no check measured is the model's bound.
    const worst = backing.reduce<Finding | null>((w, f) => (!w || f.cost!.seconds > w.cost!.seconds ? f : w), null);
    const semantics = worst?.cost?.semantics ?? 'slowest';
    const estimate = (semantics === 'slowest' ? ioTime : report.io.cumulativeIoTime) * (1 - 1 / factor);
    const seconds = worst ? Math.min(estimate, worst.cost!.seconds) : estimate;
    const cost = costOf(report, seconds, semantics, worst?.cost?.basis === 'time' ? 'time' : 'bound');
    const lines = l.contributors.filter((c) => cause.features.includes(c.feature) || (c.alike ?? []).some((f) => cause.features.includes(f)));
    const named = cause.problems.map((p) => p.problem).join(' or ');
    const how = worst
      ? `about ${formatSeconds(seconds)} of the I/O time${seconds < estimate ? ` (the model's ${formatSeconds(estimate)}, bounded by what ${worst.code} measured)` : ''}; the checks agree (${checks.join(', ')})`
      : `at most about ${formatSeconds(seconds)} of the I/O time by the model's estimate; no check measured it`;
    const text = `The model blames ${named}: it cost ×${factorDigits(factor)} of throughput, ${how}`;
    const recommendations: Recommendation[] = [];
    for (const f of backing) for (const r of f.recommendations) if (!recommendations.some((x) => x.id === r.id)) recommendations.push(r);
    out.push({
      code: 'L02',
      level: levelOf(report, cost, l),
      panel: 'OPERATIONS',
      problem,
      cost,
      // What the job would not spend without the blamed features' effect, as the model sees it (never more than the
      // checks measured): a stated reference, or a bound where no check measured it.
      savings: { seconds, low: worst ? seconds / 2 : 0, high: seconds, semantics, basis: worst ? ('reference' as const) : ('bound' as const), reference: `the model's throughput without ${named} (×${factorDigits(factor)})` },
      messageId: 'L02.blame',
      message: text,
      data: { text, problem, factor, checks: checks.join(', ') },
      evidence: [{ name: 'throughput factor', value: factor, unit: 'ratio', source: cause.features.join(', ') }],
      thresholds: [],
      details: lines.map((c) => detail('L02', c.text)),
      recommendations,
      caveats,
      source: 'model',
      model,
    });
  }
  return out;
}

/** The message templates of the model's findings (the report's `messages`). */
export const LEARNED_MESSAGES: Readonly<Record<string, string>> = {
  'L01.expected': '{summary}',
  'L01.line': '{text}',
  'L02.blame': '{text}',
  'L02.line': '{text}',
};
