import { join } from 'node:path';
import { FEATURE_SETS } from '../features/registry.js';
import { isTimeFeature } from '../features/problems.js';
import { explain, makeTable, train, type Explanation, type FeatureSpec, type TrainedModel } from '../learn/index.js';
import { isHealthy, readLabManifest, type LabRun } from '../lab/manifest.js';
import { causeContributions, rankedCauses } from '../models/learned.js';
import { blameLines, referenceChoice } from '../models/reference.js';
import { problemsOf } from '../models/words.js';
import { extract } from '../pipeline/extract.js';
import { twinTime } from './costs.js';
import { labTwin } from './twins.js';

/**
 * Learned blame on a lab (docs/eval.md, "Blame on the lab"): a throughput model trained on the lab's runs (features
 * from the pipeline's `extract`, less those that restate time; target the measured throughput) explains each problem
 * run with SHAP against the per-feature reference (the report's), and the cause it ranks first (`rankedCauses`, as the report's learned section ranks
 * them) is checked against the run's labels. Held out: each family's runs are explained by a model trained on the
 * other families (leave one family out). The runs that count are those the problem made slower: slower than their
 * healthy twin would be for the same work (`twinTime`, as `eval --costs` measures).
 */
export interface BlameRun {
  readonly file: string;
  readonly family: string;
  readonly labels: readonly string[];
  /** Slower than the healthy twin for the same work. */
  readonly slower: boolean;
  /** The feature the model ranks first, and the problems it names. */
  readonly top: string | null;
  readonly topProblems: readonly string[];
  readonly blamed: boolean;
}

export interface BlameEvaluation {
  readonly dir: string;
  readonly fs: readonly string[];
  readonly model: string;
  /** Problem runs the problem made slower, and those whose first-ranked cause names a label (held out). */
  readonly runs: number;
  readonly blamed: number;
  /** The same over every problem run (slower or not). */
  readonly problemRuns: number;
  readonly problemRunsBlamed: number;
  readonly perRun: readonly BlameRun[];
}

/** Every model input: the feature sets' columns less those that restate time. */
export function blameColumns(): { name: string; set: string; index: number }[] {
  const out: { name: string; set: string; index: number }[] = [];
  for (const s of FEATURE_SETS) s.columns.forEach((c, index) => { if (!isTimeFeature(s.columnPrefix + c.name, c.unit)) out.push({ name: s.columnPrefix + c.name, set: s.id, index }); });
  return out;
}

/** The lab's features and targets, one row per run. */
function labTable(dir: string, runs: readonly LabRun[]): Record<string, Float64Array> {
  const columns = blameColumns();
  const data: Record<string, Float64Array> = Object.fromEntries(columns.map((c) => [c.name, new Float64Array(runs.length)]));
  runs.forEach((r, i) => {
    const e = extract(join(dir, 'logs', r.file), { report: false, perf: false });
    for (const c of columns) {
      const v = e.features[c.set][c.index];
      data[c.name][i] = v === null ? NaN : Number(v);
    }
  });
  return data;
}

/**
 * Explains `rows` with a GBDT (seeded) trained on the runs `admit` accepts; the others' target is withheld (-1 is
 * below any throughput and is not a training row: `train` keeps rows with a positive target).
 */
async function blameModel(data: Record<string, Float64Array>, runs: readonly LabRun[], admit: (r: LabRun) => boolean, rows: number[], seed = 1): Promise<{ explanations: Explanation[]; model: TrainedModel; trainedOn: number }> {
  const features: FeatureSpec[] = blameColumns().map((c) => ({ name: c.name, kind: 'numeric' }));
  const throughput = Float64Array.from(runs, (r) => (admit(r) ? r.throughput_mib_s : -1));
  const runTime = Float64Array.from(runs, (r) => r.run_time_s);
  const table = makeTable({ ...data, throughput_mib_s: throughput, run_time_s: runTime });
  const model = await train(table, { target: 'throughput_mib_s', features, runtimeColumn: 'run_time_s', models: ['gbdt'], seed, parallel: false });
  return { explanations: explain(model, table, { rows, baseline: 'typical', ...referenceChoice(model) }), model, trainedOn: model.card.rows };
}

/** The first-ranked cause of an explanation and whether it names one of the run's labels. */
function blameOf(model: TrainedModel, e: Explanation, labels: readonly string[]): { top: string | null; problems: readonly string[]; blamed: boolean } {
  // ranked as the report's learned section ranks them: grouped lines against the per-feature reference
  const top = rankedCauses(causeContributions(blameLines(model, e.contributions)))[0]?.features[0] ?? null;
  const problems = top === null ? [] : problemsOf(top);
  return { top, problems, blamed: problems.some((p) => labels.includes(p)) };
}

/** Leave-one-family-out learned blame on the lab at `dir`. */
export async function evaluateBlame(dir: string, opts: { seed?: number } = {}): Promise<BlameEvaluation> {
  const runs = readLabManifest(join(dir, 'MANIFEST.json')).runs;
  const data = labTable(dir, runs);
  const problemRows = runs.flatMap((r, i) => (isHealthy(r) ? [] : [i]));
  const explained = new Map<number, { e: Explanation; model: TrainedModel }>();
  for (const family of new Set(runs.map((r) => r.family))) {
    const rows = problemRows.filter((i) => runs[i].family === family);
    if (!rows.length) continue;
    const { explanations, model } = await blameModel(data, runs, (r) => r.family !== family, rows, opts.seed ?? 1);
    for (const e of explanations) explained.set(e.row, { e, model });
  }
  const perRun: BlameRun[] = problemRows.map((i) => {
    const r = runs[i];
    const twin = labTwin(runs, r);
    const slower = twin !== null && r.run_time_s > twinTime(r, twin);
    const x = explained.get(i)!;
    const b = blameOf(x.model, x.e, r.labels);
    return { file: r.file, family: r.family, labels: r.labels, slower, top: b.top, topProblems: b.problems, blamed: b.blamed };
  });
  const slower = perRun.filter((r) => r.slower);
  return {
    dir,
    fs: [...new Set(runs.map((r) => r.fs))],
    model: 'gbdt (seed 1), SHAP against the per-feature reference (docs/learn.md), leave one family out',
    runs: slower.length,
    blamed: slower.filter((r) => r.blamed).length,
    problemRuns: perRun.length,
    problemRunsBlamed: perRun.filter((r) => r.blamed).length,
    perRun,
  };
}

/** The blame check as text: the shares, what was blamed instead, and (with `all`) every run. */
export function formatBlame(e: BlameEvaluation, opts: { all?: boolean } = {}): string {
  const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : '–');
  const o = [
    `Learned blame on ${e.dir} (file system: ${e.fs.join(', ')}; ${e.model}):`,
    `  problem runs the problem made slower: ${e.runs}; first-ranked cause names an injected label: ${e.blamed} (${pct(e.blamed, e.runs)})`,
    `  every problem run: ${e.problemRuns}; blamed: ${e.problemRunsBlamed} (${pct(e.problemRunsBlamed, e.problemRuns)})`,
  ];
  const wrong = new Map<string, number>();
  for (const r of e.perRun) if (r.slower && !r.blamed) wrong.set(r.top ?? '(no cause)', (wrong.get(r.top ?? '(no cause)') ?? 0) + 1);
  if (wrong.size) o.push(`  blamed instead (slower runs): ${[...wrong].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([f, n]) => `${f} ${n}`).join(', ')}`);
  if (opts.all) {
    o.push('');
    for (const r of e.perRun) o.push(`${r.blamed ? '  ' : '✗ '}${r.file}: ${r.labels.join(', ')}${r.slower ? '' : ' (not slower)'}; first cause ${r.top ?? '—'}${r.topProblems.length ? ` (${r.topProblems.join(', ')})` : ''}`);
  }
  return `${o.join('\n')}\n`;
}
