import { basename } from 'node:path';
import type { LearnedContribution, LearnedProblem, LearnedSection, Problem, Report } from '../contract/index.js';
import { PROBLEMS } from '../contract/finding.js';
import { explain, predict } from '../learn/index.js';
import { extract, type ExtractOptions, type Extracted } from '../pipeline/extract.js';
import { JOB_COLUMNS } from '../store/schema.js';
import { checkJobsModel, modelTable, optionalColumns, requiredColumns, type ModelBundle } from './bundle.js';
import { rowsToTable, type ColumnKind } from './log-rows.js';
import type { Table, TrainedModel } from '../learn/index.js';
import { factorDigits, factorOf, numberText, problemsOf } from './words.js';
import { blameLines, blameText, oodWords, referenceChoice, type BlameLine } from './reference.js';
import { learnedFindings, LEARNED_MESSAGES } from './learned-findings.js';
import { rankFindings } from '../checks/level-policy.js';

/**
 * The learned-diagnosis section of a report (`iolens report LOG --model M`): the model's prediction for the job,
 * its measured value, the largest SHAP contributions in words, and which heuristic findings the blame corroborates.
 */

/** A feature "costs" the job when its SHAP value is at most −log10(1.1): at least ×1.1 of throughput. */
export const BLAME_MIN = Math.log10(1.1);

/** Contributions listed in the section. */
export const TOP_CONTRIBUTORS = 10;

/** The unit of a `jobs` column from its documentation (`… (MiB/s) …`), '' when it names none. */
export function targetUnit(target: string): string {
  const doc = JOB_COLUMNS.find((c) => c.name === target)?.doc ?? '';
  return /\(([A-Za-z]+\/s)\)/.exec(doc)?.[1] ?? '';
}

function rate(v: number, unit: string): string {
  return `${numberText(Number(v.toPrecision(3)))}${unit ? ` ${unit}` : ''}`;
}

/**
 * The problems the blame names, most costly first: each problem with the features that cost the job at least ×1.1
 * and map to it (costliest first), ranked by its costliest feature (ties in vocabulary order). Only features that
 * name a problem rank: process count, volume, striping and file layout are the job's context, not causes a user can
 * change, however much of the throughput they explain.
 */
export function rankedCauses(contributions: readonly { feature: string; shap: number }[]): { problem: Problem; features: string[]; cost: number }[] {
  const costly = contributions.filter((c) => c.shap <= -BLAME_MIN).sort((a, b) => a.shap - b.shap || (a.feature < b.feature ? -1 : 1));
  const causes = new Map<Problem, { problem: Problem; features: string[]; cost: number }>();
  for (const c of costly) {
    for (const p of problemsOf(c.feature)) {
      const cause = causes.get(p) ?? { problem: p, features: [], cost: c.shap };
      cause.features.push(c.feature);
      causes.set(p, cause);
    }
  }
  return [...causes.values()].sort((a, b) => a.cost - b.cost || PROBLEMS.indexOf(a.problem) - PROBLEMS.indexOf(b.problem));
}

/**
 * The contributions that may name causes, from a model's grouped blame lines: a group's blame counts once, for every
 * problem its members name; a line beyond what the training data can show names none.
 */
export function causeContributions(lines: readonly BlameLine[]): { feature: string; shap: number }[] {
  return lines.filter((l) => !l.beyondData).flatMap((l) => [l.feature, ...l.alike].map((feature) => ({ feature, shap: l.shap })));
}

/** Which problems the blame names (most costly first, `rankedCauses`), and how they match the report's HIGH/WARN findings. */
export function matchProblems(
  contributions: readonly { feature: string; shap: number }[],
  insights: Report['insights'],
  modelFeatures: readonly string[],
): { corroborated: LearnedProblem[]; modelOnly: LearnedProblem[]; findingsOnly: LearnedProblem[] } {
  const blamed = rankedCauses(contributions);
  const found = new Map<Problem, string[]>();
  for (const i of insights) {
    if (!i.problem || (i.level !== 'HIGH' && i.level !== 'WARN')) continue;
    const list = found.get(i.problem) ?? [];
    if (!list.includes(i.code)) list.push(i.code);
    found.set(i.problem, list);
  }
  const visible = new Set(modelFeatures.flatMap((f) => problemsOf(f)));
  const order = (a: LearnedProblem, b: LearnedProblem) => PROBLEMS.indexOf(a.problem) - PROBLEMS.indexOf(b.problem);
  const corroborated: LearnedProblem[] = [];
  const modelOnly: LearnedProblem[] = [];
  const findingsOnly: LearnedProblem[] = [];
  for (const { problem, features, cost } of blamed) (found.has(problem) ? corroborated : modelOnly).push({ problem, findings: found.get(problem) ?? [], features, shap: cost });
  for (const [problem, findings] of found) if (!blamed.some((b) => b.problem === problem) && visible.has(problem)) findingsOnly.push({ problem, findings, features: [] });
  return { corroborated, modelOnly, findingsOnly: findingsOnly.sort(order) };
}

/** The learned section of one extracted log. */
export function learnedSection(bundle: ModelBundle, modelFile: string, x: Extracted, options: { baseline?: 'zero' | 'path' | 'typical' } = {}): LearnedSection {
  checkJobsModel(bundle);
  const names = [...new Set([...requiredColumns(bundle), ...optionalColumns(bundle)])].filter((c) => JOB_COLUMNS.some((j) => j.name === c));
  return learnedOfRow(bundle, modelFile, rowsToTable([x.row], names), x.report.insights, options);
}

/**
 * The learned section of a one-row table holding the model's input columns (a log's extract, or a stored job row
 * as the web service reads it), matched against the job's findings.
 */
export function learnedOfRow(
  bundle: ModelBundle,
  modelFile: string,
  loaded: { readonly table: Table; readonly kinds: Readonly<Record<string, ColumnKind>> },
  insights: Report['insights'],
  options: { baseline?: 'zero' | 'path' | 'typical' } = {},
): LearnedSection {
  const { table, kinds } = loaded;
  const mt = modelTable(bundle, { name: 'logs', table, kinds });
  const baseline = options.baseline ?? 'typical';
  const p = predict(bundle.model, mt);
  const [e] = explain(bundle.model, mt, { rows: [0], baseline, ...referenceChoice(bundle.model) });
  const m = bundle.model;
  const unit = targetUnit(bundle.inputs.target);
  const y = table.columns[bundle.inputs.target];
  const measured = y instanceof Float64Array && y[0] >= 0 ? y[0] : null;
  // near duplicates as one line each, weighed against what the job could have done instead (src/models/reference.ts)
  const lines = blameLines(m, e.contributions);
  const contributors: LearnedContribution[] = lines.slice(0, TOP_CONTRIBUTORS).map((c) => ({
    feature: c.feature,
    value: c.value,
    shap: c.shap,
    factor: factorOf(c.shap),
    text: blameText(m, c),
    problems: [...new Set([c.feature, ...c.alike].flatMap((f) => problemsOf(f)))],
    role: c.role,
    against: c.against,
    reference: c.reference,
    alike: c.alike,
    beyondData: c.beyondData,
  }));
  const why = baselineGate(m);
  const bar = m.card.baseline;
  const notUsed = why && `${why}: no learned diagnosis`;
  const match = notUsed ? { corroborated: [], modelOnly: [], findingsOnly: [] } : matchProblems(causeContributions(lines), insights, m.preprocessor.features.map((f) => f.name));
  const predicted = p.prediction[0];
  let summary = `The model expected ${rate(predicted, unit)} (${rate(p.low[0], unit)} to ${rate(p.high[0], unit)})`;
  if (measured !== null) {
    const ratio = (1 + measured) / (1 + predicted);
    summary += `; the job measured ${rate(measured, unit)}`;
    summary += ratio < 1 ? `, ×${factorDigits(1 / ratio)} slower than expected.` : ratio > 1 ? `, ×${factorDigits(ratio)} faster than expected.` : ', as expected.';
  } else summary += '.';
  if (p.ood[0]) summary += ` The job is outside what the model learned: ${oodWords(m)}.`;
  if (why) summary += ` No causes: ${why}.`;
  return {
    model: {
      file: basename(modelFile),
      table: bundle.inputs.table,
      target: bundle.inputs.target,
      unit,
      members: m.members.map((mb) => mb.model.type),
      best: m.best,
      rows: m.card.rows,
      timeSpan: m.card.timeSpan,
      validation: { rmse: m.ensemble.validation.rmse, r2: m.ensemble.validation.r2, medianErrorFactor: m.ensemble.validation.medianErrorFactor },
      baselineValidation: { rmse: bar.rmse, r2: bar.r2, medianErrorFactor: bar.medianErrorFactor },
    },
    predicted,
    low: p.low[0],
    high: p.high[0],
    measured,
    ood: p.ood[0],
    oodReasons: p.oodReasons[0],
    baseline,
    base: e.base,
    output: p.output[0],
    contributors: notUsed ? [] : contributors,
    ...match,
    summary,
    ...(notUsed ? { notUsed } : {}),
  };
}

/**
 * The baseline gate of every learned diagnosis (`report --model`, `explain`, the web): a model no better than
 * predicting the median of its training jobs on its own validation rows has nothing to say about causes. Why not,
 * or null when it beats the median.
 */
export function baselineGate(m: TrainedModel): string | null {
  const v = m.ensemble.validation, bar = m.card.baseline;
  return v.rmse >= bar.rmse
    ? `the model does not predict better than the median of its training jobs on its validation rows (error ×${factorDigits(v.medianErrorFactor)} against ×${factorDigits(bar.medianErrorFactor)}, RMSE ${v.rmse.toFixed(3)} against ${bar.rmse.toFixed(3)} in log10 space)`
    : null;
}

/**
 * The report with its learned section and the model's findings (L01, L02: src/models/learned-findings.ts) among its
 * insights, ranked with the checks' as the mode ranks them, counted in the summary.
 */
export function withLearned(report: Report, section: LearnedSection): Report {
  const own = report.insights.filter((i) => i.source !== 'model');
  const added = learnedFindings({ ...report, insights: own }, section);
  const insights = [...own, ...added].map((ins, order) => ({ ins, order }));
  if (report.mode === 'default') insights.sort((a, b) => rankFindings(a.ins, b.ins) || a.order - b.order);
  const summary = { high: 0, warn: 0, ok: 0, info: 0, recommendations: 0 };
  for (const { ins } of insights) {
    summary[ins.level.toLowerCase() as 'high' | 'warn' | 'ok' | 'info']++;
    summary.recommendations += ins.recommendations.length;
  }
  return { ...report, learned: section, insights: insights.map((x) => x.ins), summary, messages: { ...report.messages, ...LEARNED_MESSAGES } };
}

/**
 * `iolens report LOG --model M`: the log's report (the pipeline's `extract`, the same report `diagnoseLog` gives
 * with these options) with the learned section.
 */
export function diagnoseWithModel(input: string | { readonly path: string; readonly bytes: Uint8Array }, options: ExtractOptions, bundle: ModelBundle, modelFile: string): Report {
  const x = extract(input, options);
  return withLearned(x.report, learnedSection(bundle, modelFile, x));
}
