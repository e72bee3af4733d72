import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROBLEMS } from '../contract/index.js';
import type { KnobValues } from '../config/knobs.js';
import { isHealthy, readLabManifest, type LabRun } from '../lab/manifest.js';
import { EvalCorpus, type EvalRun } from './engine.js';
import { addToTally, checkRows, emptyTally, labelRows, type CheckRow, type Judgement, type LabelRow, type ScoredFinding, type Tally } from './score.js';
import { leaveOneFamilyOut, type HeldOut } from './tune.js';

/** One lab run's outcome at the shipped defaults. */
export interface LabRunResult extends Judgement {
  readonly file: string;
  readonly family: string;
  readonly labels: readonly string[];
  readonly also: readonly string[];
  readonly healthy: boolean;
  readonly error?: string;
}

export interface LabEvaluation {
  readonly dir: string;
  readonly runs: readonly LabRunResult[];
  /** Per family at the shipped defaults, families in manifest order. */
  readonly families: readonly { readonly family: string; readonly tally: Tally }[];
  readonly labels: readonly LabelRow[];
  readonly checks: readonly CheckRow[];
  readonly totals: Tally;
  /** Leave-one-family-out: knobs tuned on the other families, each family scored held out (absent with `heldOut: false`). */
  readonly heldOut?: HeldOut;
  readonly missingLogs: readonly string[];
}

/** Whether a directory holds a lab (a MANIFEST.json of lab runs). */
export function isLabDirectory(dir: string): boolean {
  return existsSync(join(dir, 'MANIFEST.json'));
}

/** The lab's runs as labelled logs for the engine (family = group). */
export function labRuns(dir: string): { runs: LabRun[]; evalRuns: EvalRun[]; missing: string[] } {
  const manifest = readLabManifest(join(dir, 'MANIFEST.json'));
  const runs: LabRun[] = [];
  const missing: string[] = [];
  for (const r of manifest.runs) (existsSync(join(dir, 'logs', r.file)) ? runs : (missing.push(r.file), [])).push(r);
  const evalRuns = runs.map((r) => ({ file: r.file, path: join(dir, 'logs', r.file), group: r.family, labels: r.labels, also: r.also, healthy: isHealthy(r) }));
  return { runs, evalRuns, missing };
}

/**
 * Evaluates the default mode on a lab directory (lab/README.md): every run at the shipped defaults (per family, per
 * label, per check), and, unless `heldOut` is false, leave-one-family-out with tuning on the other families.
 */
export function evaluateLab(dir: string, opts: { heldOut?: boolean; corpus?: EvalCorpus; knobs?: KnobValues } = {}): LabEvaluation {
  const { evalRuns, missing } = labRuns(dir);
  const corpus = opts.corpus ?? new EvalCorpus(evalRuns, opts.knobs);
  const runs: LabRunResult[] = [];
  const scored: { run: EvalRun; findings: ScoredFinding[]; j: Judgement }[] = [];
  const fam = new Map<string, Tally>();
  const totals = emptyTally();
  for (let i = 0; i < corpus.size; i++) {
    const run = corpus.run(i);
    const findings = corpus.baseFindings(i);
    const j = corpus.judge(i, findings);
    scored.push({ run, findings, j });
    const err = corpus.error(i);
    runs.push({ file: run.file, family: run.group, labels: run.labels, also: run.also, healthy: run.healthy, ...j, ...(err ? { error: err } : {}) });
    addToTally(fam.get(run.group) ?? fam.set(run.group, emptyTally()).get(run.group)!, run, j);
    addToTally(totals, run, j);
  }
  return {
    dir,
    runs,
    families: [...fam].map(([family, tally]) => ({ family, tally })),
    labels: labelRows(PROBLEMS, scored).filter((r) => r.logs > 0 || r.falseAlarms > 0),
    checks: checkRows(scored),
    totals,
    ...(opts.heldOut === false ? {} : { heldOut: leaveOneFamilyOut(corpus) }),
    missingLogs: missing,
  };
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

function pct(x: number | null): string {
  return x === null ? '-' : `${(100 * x).toFixed(1)}%`;
}

function tallyCells(t: Tally): string {
  return `${pad(String(t.runs), 5)} ${pad(String(t.healthy), 8)} ${pad(String(t.labels), 7)} ${pad(String(t.hits), 5)} ${pad(String(t.misses), 7)} ${pad(pct(t.labels ? t.hits / t.labels : null), 7)} ${pad(String(t.falseAlarms), 11)} ${pad(String(t.highOnHealthy), 13)} ${pad(pct(t.problemRuns ? t.firstIsCause / t.problemRuns : null), 12)}`;
}

const TALLY_HEAD = `${pad('runs', 5)} ${pad('healthy', 8)} ${pad('labels', 7)} ${pad('hits', 5)} ${pad('misses', 7)} ${pad('recall', 7)} ${pad('false HIGH', 11)} ${pad('HIGH/healthy', 13)} ${pad('first=cause', 12)}`;

function short(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(3)));
}

/** The held-out table alone (leave-one-family-out). */
export function formatHeldOut(h: HeldOut): string {
  const o: string[] = [];
  o.push(`${pad('held-out family', 22)} ${TALLY_HEAD} knobs tuned away from the default on the other families`);
  for (const f of h.folds) o.push(`${pad(f.family, 22)} ${tallyCells(f.tally)} ${Object.entries(f.moved).map(([k, v]) => `${k}=${short(v as number)}`).join(' ') || '-'}`);
  o.push(`${pad('all families', 22)} ${tallyCells(h.total)}`);
  return o.join('\n') + '\n';
}

/** The knobs' picks across folds (docs/eval.md, "Tuning"). */
export function formatKnobPicks(h: HeldOut): string {
  const o: string[] = [];
  o.push(`${pad('knob', 32)} ${pad('default', 9)} ${pad('picked (families)', 44)} default among the best`);
  for (const k of h.knobs) {
    const counts = new Map<number, number>();
    for (const v of k.picks) counts.set(v, (counts.get(v) ?? 0) + 1);
    const picked = [...counts].sort((a, b) => a[0] - b[0]).map(([v, n]) => `${short(v)} (${n})`).join(', ');
    o.push(`${pad(k.knob, 32)} ${pad(short(k.default), 9)} ${pad(picked, 44)} ${k.defaultAmongBest}/${k.picks.length}`);
  }
  return o.join('\n') + '\n';
}

/** The lab evaluation as text: held-out table, shipped defaults per family, per label, per check, then the runs with a miss or a false alarm. */
export function formatLabEvaluation(e: LabEvaluation, dirLabel: string = e.dir, opts: { runs?: 'problems' | 'all' } = {}): string {
  const o: string[] = [];
  o.push(`Lab evaluation of ${dirLabel} (${e.totals.runs} runs, ${e.families.length} families; default mode; a label is found by a HIGH or WARN finding with its tag; a false alarm is a HIGH finding with a tag the run has neither as label nor as side effect; first=cause: problem runs whose first-ranked finding has one of their labels)`, '');
  if (e.heldOut) {
    o.push(`Leave one family out: knobs tuned on the other families (one at a time over their grids; objective hits − ${e.heldOut.weight} × false HIGH − ${e.heldOut.warnWeight} × WARN on healthy runs), the held-out family scored with them`, '');
    o.push(formatHeldOut(e.heldOut));
  }
  o.push('Shipped defaults, per family', '');
  o.push(`${pad('family', 22)} ${TALLY_HEAD} unlabelled WARN`);
  for (const f of e.families) o.push(`${pad(f.family, 22)} ${tallyCells(f.tally)} ${f.tally.unlabelledWarn}`);
  o.push(`${pad('all families', 22)} ${tallyCells(e.totals)} ${e.totals.unlabelledWarn}`, '');
  o.push('Shipped defaults, per label', '');
  o.push(`${pad('label', 20)} ${pad('runs', 5)} ${pad('hits', 5)} ${pad('misses', 7)} ${pad('recall', 7)} false HIGH`);
  for (const r of e.labels) o.push(`${pad(r.label, 20)} ${pad(String(r.logs), 5)} ${pad(String(r.hits), 5)} ${pad(String(r.misses), 7)} ${pad(pct(r.logs ? r.hits / r.logs : null), 7)} ${r.falseAlarms}`);
  o.push('', 'Shipped defaults, per check (runs on which it raised its tag)', '');
  o.push(`${pad('check', 6)} ${pad('tag', 20)} ${pad('raised', 7)} ${pad('hits', 5)} ${pad('side effect', 12)} ${pad('false HIGH', 11)} ${pad('unlabelled WARN', 16)} ${pad('precision', 10)} ${pad('recall', 7)} of labelled`);
  for (const c of e.checks) o.push(`${pad(c.code, 6)} ${pad(c.problem, 20)} ${pad(String(c.raised), 7)} ${pad(String(c.hits), 5)} ${pad(String(c.accepted), 12)} ${pad(String(c.falseAlarms), 11)} ${pad(String(c.unlabelledWarn), 16)} ${pad(pct(c.precision), 10)} ${pad(pct(c.recall), 7)} ${c.labelled}`);
  if (e.heldOut) o.push('', 'Knob picks across the held-out folds', '', formatKnobPicks(e.heldOut).trimEnd());
  const notFirst = (r: LabRunResult) => !r.healthy && r.labels.length > 0 && r.first !== null && !r.first.cause;
  const shown = opts.runs === 'all' ? e.runs : e.runs.filter((r) => r.misses.length || r.falseAlarms.length || r.error || notFirst(r));
  o.push('', opts.runs === 'all' ? 'Runs (shipped defaults)' : 'Runs with a miss, a false alarm or another problem ranked first (shipped defaults)', '');
  for (const r of shown) {
    const found = r.found.map((f) => `${f.problem}:${f.level}`).join(', ') || '-';
    const extra = [
      r.misses.length ? `MISSED ${r.misses.join(', ')}` : '',
      r.falseAlarms.length ? `FALSE ${r.falseAlarms.map((f) => `${f.problem} (${f.code})`).join(', ')}` : '',
      notFirst(r) ? `FIRST ${r.first!.problem} (${r.first!.code})` : '',
      r.error ? `ERROR ${r.error}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    o.push(`${r.misses.length || r.falseAlarms.length || r.error ? '✗' : '✓'} ${r.file} | expected: ${r.labels.join(', ')}${r.also.length ? ` (also ${r.also.join(', ')})` : ''} | found: ${found}${extra ? ` | ${extra}` : ''}`);
  }
  if (!shown.length) o.push('(none)');
  if (e.missingLogs.length) o.push('', `Listed in MANIFEST.json but absent: ${e.missingLogs.join(', ')}`);
  return o.join('\n') + '\n';
}
