import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from '../contract/index.js';
import { isHealthy, readLabManifest, type LabRun } from '../lab/manifest.js';
import { waitedSeconds } from '../compare/diff.js';
import { logFacts, reportOf } from '../pipeline/diagnose.js';
import { firstRanked, scoredFindings } from './score.js';
import { labTwin } from './twins.js';

/**
 * Costs checked against reruns (docs/eval.md, "Costs"): each problem run of a lab is paired with its healthy twin
 * (`labTwin`), and the seconds its report says the injected problem costs are set against the measured difference in
 * run time between the twins.
 *
 * - **measured**: the problem run's time (`run_time_s`: barrier to barrier, so the slowest rank's) less what its twin
 *   would take for the same work: the twin's time scaled by the bytes the two applications moved (twins may move
 *   different amounts: the healthy writer of a family writes 32 MiB a rank, its small-request runs less). Where the
 *   extra bytes are the problem itself (redundant reads and writes), or either run moves no data, the twin's time as
 *   it is.
 * - **estimate**: the cost of the HIGH or WARN finding that names an injected label, in seconds of the slowest rank's
 *   I/O time (`cost.ioShare × io.ioTime`, the semantics the run time has); with several labels, the largest. Null when
 *   no raised finding names a label (the report states no cost for the cause).
 * - **within ×2**: the problem run is slower and estimate / measured lies in [0.5, 2]. A pair whose problem run is not
 *   slower than its twin cannot check an estimate: it is counted (`pairs`), not judged (`slower`).
 * - An estimate's `basis` is the finding's: `time` (the time of the calls that are the problem) or `bound` (the time
 *   of calls that include the pattern's: an upper bound). A bound **holds** when the measured cost is at most twice
 *   it; `within ×2` still counts every estimate, bounds included, as the one strict figure.
 */
export interface CostPair {
  readonly family: string;
  readonly healthy: string;
  readonly problem: string;
  readonly labels: readonly string[];
  /** problem run time − the twin's time for the same work, seconds. */
  readonly measured: number;
  /** The twin's time for the problem run's work (its run time, scaled by bytes moved), seconds. */
  readonly twinTime: number;
  readonly estimate: number | null;
  /** The finding the estimate is taken from, and its cost's basis. */
  readonly estimateCode: string | null;
  readonly basis: 'time' | 'bound' | null;
  readonly slower: boolean;
  /** estimate / measured, when the problem run is slower and the report states a cost. */
  readonly ratio: number | null;
  readonly within2x: boolean;
  /** The first-ranked HIGH/WARN finding of the problem run, and whether it names an injected label. */
  readonly first: { readonly code: string; readonly problem: string; readonly cause: boolean } | null;
}

export interface CostTally {
  pairs: number;
  /** Pairs whose problem run is slower than its twin. */
  slower: number;
  /** Slower pairs whose report states a cost for the cause. */
  estimated: number;
  within2x: number;
  /** Slower pairs whose estimate is measured time (`basis: time`), and those of them within ×2. */
  timeEstimates: number;
  timeWithin2x: number;
  /** Slower pairs whose estimate is an upper bound, and those whose measured cost is at most twice the bound. */
  bounds: number;
  boundsHold: number;
  firstIsCause: number;
}

export interface CostEvaluation {
  readonly dir: string;
  /** The file systems of the runs (the manifest's `fs`). */
  readonly fs: readonly string[];
  readonly pairs: readonly CostPair[];
  readonly labels: readonly ({ readonly label: string } & CostTally)[];
  readonly families: readonly ({ readonly family: string } & CostTally)[];
  readonly totals: CostTally;
  /** Runs that could not be read, with the reason. */
  readonly failed: readonly { readonly file: string; readonly error: string }[];
}

/** Problems whose cost is the extra bytes themselves: the twin's time is not scaled by bytes for them. */
const VOLUME_PROBLEMS = new Set(['redundant-read', 'redundant-write']);

/** What the healthy twin would take for the problem run's work (see `CostPair.measured`). */
export function twinTime(problem: LabRun, twin: LabRun): number {
  if (problem.labels.some((l) => VOLUME_PROBLEMS.has(l)) || problem.bytes_moved <= 0 || twin.bytes_moved <= 0) return twin.run_time_s;
  return twin.run_time_s * (problem.bytes_moved / twin.bytes_moved);
}

const emptyTally = (): CostTally => ({ pairs: 0, slower: 0, estimated: 0, within2x: 0, timeEstimates: 0, timeWithin2x: 0, bounds: 0, boundsHold: 0, firstIsCause: 0 });

function add(t: CostTally, p: CostPair): void {
  t.pairs++;
  if (p.slower) t.slower++;
  if (p.slower && p.estimate !== null) t.estimated++;
  if (p.within2x) t.within2x++;
  if (p.slower && p.basis === 'time') {
    t.timeEstimates++;
    if (p.within2x) t.timeWithin2x++;
  }
  if (p.slower && p.basis === 'bound') {
    t.bounds++;
    if (p.measured <= 2 * p.estimate!) t.boundsHold++;
  }
  if (p.first?.cause) t.firstIsCause++;
}

/** The injected cause's cost, in seconds of the slowest rank's I/O time: the largest over the run's labels. */
export function causeEstimate(report: Report, labels: readonly string[]): { seconds: number; code: string; basis: 'time' | 'bound' } | null {
  let best: { seconds: number; code: string; basis: 'time' | 'bound' } | null = null;
  for (const f of report.insights) {
    if (!f.problem || !labels.includes(f.problem) || (f.level !== 'HIGH' && f.level !== 'WARN') || !f.cost) continue;
    const seconds = waitedSeconds(f.cost, report.io);
    if (!best || seconds > best.seconds) best = { seconds, code: f.code, basis: f.cost.basis };
  }
  return best;
}

/** Pairs every problem run of the lab at `dir` with its healthy twin and checks the stated cost against the rerun. */
export function evaluateCosts(dir: string): CostEvaluation {
  const runs = readLabManifest(join(dir, 'MANIFEST.json')).runs.filter((r) => existsSync(join(dir, 'logs', r.file)));
  const pairs: CostPair[] = [];
  const failed: { file: string; error: string }[] = [];
  for (const p of runs) {
    if (isHealthy(p)) continue;
    const h = labTwin(runs, p);
    if (!h) continue;
    let rep: Report;
    try {
      rep = reportOf(logFacts(join(dir, 'logs', p.file)), { snippets: false, logName: p.file });
    } catch (err) {
      failed.push({ file: p.file, error: (err as Error).message });
      continue;
    }
    const expected = twinTime(p, h);
    const measured = p.run_time_s - expected;
    const est = causeEstimate(rep, p.labels);
    const slower = measured > 0;
    const ratio = slower && est ? est.seconds / measured : null;
    const top = firstRanked(scoredFindings(rep.insights));
    pairs.push({
      family: p.family,
      healthy: h.file,
      problem: p.file,
      labels: p.labels,
      measured,
      twinTime: expected,
      estimate: est?.seconds ?? null,
      estimateCode: est?.code ?? null,
      basis: est?.basis ?? null,
      slower,
      ratio,
      within2x: ratio !== null && ratio >= 0.5 && ratio <= 2,
      first: top ? { code: top.code, problem: top.problem, cause: p.labels.includes(top.problem) } : null,
    });
  }
  const byLabel = new Map<string, CostTally>();
  const byFamily = new Map<string, CostTally>();
  const totals = emptyTally();
  for (const p of pairs) {
    add(totals, p);
    for (const l of p.labels) {
      if (!byLabel.has(l)) byLabel.set(l, emptyTally());
      add(byLabel.get(l)!, p);
    }
    if (!byFamily.has(p.family)) byFamily.set(p.family, emptyTally());
    add(byFamily.get(p.family)!, p);
  }
  return {
    dir,
    fs: [...new Set(runs.map((r) => r.fs))],
    pairs,
    labels: [...byLabel].sort((a, b) => b[1].pairs - a[1].pairs || a[0].localeCompare(b[0])).map(([label, t]) => ({ label, ...t })),
    families: [...byFamily].map(([family, t]) => ({ family, ...t })),
    totals,
    failed,
  };
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : '–');

function tallyLine(name: string, t: CostTally): string {
  return `${name.padEnd(20)} ${String(t.pairs).padStart(5)} ${`${t.slower} (${pct(t.slower, t.pairs)})`.padStart(14)} ${String(t.estimated).padStart(9)} ${`${t.within2x} (${pct(t.within2x, t.slower)})`.padStart(14)} ${`${t.firstIsCause} (${pct(t.firstIsCause, t.pairs)})`.padStart(14)}`;
}

const secs = (s: number | null) => (s === null ? '—' : `${s >= 0 ? '' : '−'}${Math.abs(s) < 1 ? `${(Math.abs(s) * 1e3).toFixed(1)} ms` : `${Math.abs(s).toFixed(3)} s`}`);

/** The cost check as text: per label, per family, in all, then the pairs (those not within ×2, or all). */
export function formatCosts(e: CostEvaluation, opts: { all?: boolean } = {}): string {
  const o: string[] = [
    `Costs checked against reruns: ${e.dir} (file system: ${e.fs.join(', ')}; ${e.totals.pairs} problem runs paired with a healthy twin)`,
    "measured = problem run time − the twin's time for the same bytes; estimate = the seconds the report states for the injected cause (slowest rank);",
    'within ×2 counts slower pairs whose estimate / measured lies in [0.5, 2]; first = cause: the first-ranked finding names a label.',
    '',
  ];
  const head = `${''.padEnd(20)} ${'pairs'.padStart(5)} ${'slower'.padStart(14)} ${'estimated'.padStart(9)} ${'within ×2'.padStart(14)} ${'first = cause'.padStart(14)}`;
  o.push(`${'label'.padEnd(20)}${head.slice(20)}`);
  for (const l of e.labels) o.push(tallyLine(l.label, l));
  o.push('', `${'family'.padEnd(20)}${head.slice(20)}`);
  for (const f of e.families) o.push(tallyLine(f.family, f));
  o.push('', tallyLine('all', e.totals));
  const t = e.totals;
  o.push(
    `  estimates that are measured time: ${t.timeEstimates}, within ×2: ${t.timeWithin2x} (${pct(t.timeWithin2x, t.timeEstimates)}); ` +
      `upper bounds: ${t.bounds}, holding (measured at most twice the bound): ${t.boundsHold} (${pct(t.boundsHold, t.bounds)})`,
  );
  const shown = opts.all ? e.pairs : e.pairs.filter((p) => !p.within2x);
  o.push('', opts.all ? 'Every pair (twin → problem: labels; measured, estimate, ratio; first-ranked):' : 'Pairs not within ×2 (twin → problem: labels; measured, estimate, ratio; first-ranked):');
  for (const p of shown) {
    const first = p.first ? `${p.first.code} ${p.first.problem}` : 'no finding';
    const est = p.estimate === null ? 'no cost stated' : `${secs(p.estimate)} (${p.estimateCode}${p.basis === 'bound' ? ', a bound' : ''})`;
    o.push(`${p.within2x ? '  ' : '✗ '}${p.healthy} → ${p.problem}: ${p.labels.join(', ')}; measured ${secs(p.measured)}, estimate ${est}${p.ratio !== null ? `, ×${p.ratio.toFixed(2)}` : p.slower ? '' : ' (not slower)'}; first ${first}`);
  }
  for (const f of e.failed) o.push(`unreadable: ${f.file}: ${f.error}`);
  return `${o.join('\n')}\n`;
}
