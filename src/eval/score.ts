/**
 * Scoring a diagnosis against labels (docs/eval.md, "Scoring"): the one definition the shared-log and the lab
 * evaluations use.
 *
 * - A label is **found** (a hit) when a HIGH or WARN finding carries its problem tag; otherwise it is **missed**.
 * - A **false alarm** is a HIGH finding whose tag is neither a label nor a side effect (`also`) of the run; on a
 *   healthy run every HIGH finding is one.
 * - A finding whose tag is a side effect is **accepted**: neither a hit nor a false alarm.
 * - A WARN finding with a tag the run has neither as label nor as side effect is **unlabelled WARN**: counted and
 *   shown, never a false alarm (WARN is how a check says "present but mild").
 * - The **first-ranked** finding is the HIGH or WARN finding the report puts first (level, then the share of the I/O
 *   time it costs, then seconds); on a problem run it **names the cause** when its tag is one of the run's labels.
 */

/** The findings of one run as the scoring sees them. */
export interface ScoredFinding {
  readonly code: string;
  readonly problem: string;
  readonly level: 'HIGH' | 'WARN';
  /** What it costs. */
  readonly cost?: { readonly ioShare: number; readonly seconds: number };
  /** What fixing it saves, in the cost's semantics (the report ranks by it). */
  readonly savings?: { readonly seconds: number };
}

/** What a run was built (or labelled) to have. */
export interface Labelled {
  readonly labels: readonly string[];
  readonly also: readonly string[];
  readonly healthy: boolean;
}

export interface Judgement {
  /** Problem tags of HIGH and WARN findings, with their best level and the codes that raised them. */
  readonly found: readonly { readonly problem: string; readonly level: 'HIGH' | 'WARN'; readonly codes: readonly string[] }[];
  readonly hits: readonly string[];
  readonly misses: readonly string[];
  /** Side effects the diagnosis named (accepted, not hits). */
  readonly accepted: readonly string[];
  /** HIGH findings whose tag is neither a label nor a side effect: `tag (code)`. */
  readonly falseAlarms: readonly { readonly problem: string; readonly code: string }[];
  /** WARN findings whose tag is neither a label nor a side effect. */
  readonly unlabelledWarn: readonly { readonly problem: string; readonly code: string }[];
  /** The first-ranked HIGH/WARN finding, and whether its tag is a label of the run (null: none raised). */
  readonly first: { readonly code: string; readonly problem: string; readonly cause: boolean } | null;
}

/** HIGH and WARN findings with a problem tag, from any list of report insights. */
export function scoredFindings(insights: readonly { code: string; level: string; problem?: string; cost?: { ioShare: number; seconds: number }; savings?: { seconds: number } }[]): ScoredFinding[] {
  const out: ScoredFinding[] = [];
  for (const i of insights) {
    if (!i.problem || (i.level !== 'HIGH' && i.level !== 'WARN')) continue;
    out.push({ code: i.code, problem: i.problem, level: i.level, ...(i.cost ? { cost: { ioShare: i.cost.ioShare, seconds: i.cost.seconds } } : {}), ...(i.savings ? { savings: { seconds: i.savings.seconds } } : {}) });
  }
  return out;
}

/** The share of the I/O time a finding is ranked by: what fixing it saves (else what it costs), as in `rankFindings`. */
const rankShare = (f: ScoredFinding) => (f.cost && f.savings ? (f.cost.seconds > 0 ? (f.cost.ioShare * Math.min(f.savings.seconds, f.cost.seconds)) / f.cost.seconds : 0) : (f.cost?.ioShare ?? -1));

/**
 * The finding the report ranks first among these (src/checks/level-policy.ts `rankFindings`: the share of the I/O time
 * fixing it saves, then level, then seconds spent; ties keep the given order, the checks' order).
 */
export function firstRanked(findings: readonly ScoredFinding[]): ScoredFinding | null {
  let best: ScoredFinding | null = null;
  const before = (a: ScoredFinding, b: ScoredFinding) =>
    rankShare(b) - rankShare(a) || (a.level === 'HIGH' ? 0 : 1) - (b.level === 'HIGH' ? 0 : 1) || (b.cost?.seconds ?? -1) - (a.cost?.seconds ?? -1);
  for (const f of findings) if (!best || before(f, best) < 0) best = f;
  return best;
}

export function judge(run: Labelled, findings: readonly ScoredFinding[]): Judgement {
  const byTag = new Map<string, { level: 'HIGH' | 'WARN'; codes: string[] }>();
  const falseAlarms: { problem: string; code: string }[] = [];
  const unlabelledWarn: { problem: string; code: string }[] = [];
  for (const f of findings) {
    const e = byTag.get(f.problem) ?? { level: f.level, codes: [] };
    if (f.level === 'HIGH') e.level = 'HIGH';
    e.codes.push(f.code);
    byTag.set(f.problem, e);
    const expected = !run.healthy && (run.labels.includes(f.problem) || run.also.includes(f.problem));
    if (expected) continue;
    (f.level === 'HIGH' ? falseAlarms : unlabelledWarn).push({ problem: f.problem, code: f.code });
  }
  const labels = run.healthy ? [] : run.labels;
  const top = firstRanked(findings);
  return {
    first: top ? { code: top.code, problem: top.problem, cause: labels.includes(top.problem) } : null,
    found: [...byTag].map(([problem, e]) => ({ problem, level: e.level, codes: e.codes })),
    hits: labels.filter((l) => byTag.has(l)),
    misses: labels.filter((l) => !byTag.has(l)),
    accepted: run.also.filter((l) => byTag.has(l)),
    falseAlarms,
    unlabelledWarn,
  };
}

/** Counts over a set of judged runs. */
export interface Tally {
  runs: number;
  healthy: number;
  labels: number;
  hits: number;
  misses: number;
  falseAlarms: number;
  /** False alarms on healthy runs. */
  highOnHealthy: number;
  unlabelledWarn: number;
  /** Problem runs (not healthy, with labels), and those whose first-ranked finding names one of their labels. */
  problemRuns: number;
  firstIsCause: number;
}

export function emptyTally(): Tally {
  return { runs: 0, healthy: 0, labels: 0, hits: 0, misses: 0, falseAlarms: 0, highOnHealthy: 0, unlabelledWarn: 0, problemRuns: 0, firstIsCause: 0 };
}

export function addToTally(t: Tally, run: Labelled, j: Judgement): Tally {
  t.runs++;
  if (run.healthy) t.healthy++;
  t.labels += j.hits.length + j.misses.length;
  t.hits += j.hits.length;
  t.misses += j.misses.length;
  t.falseAlarms += j.falseAlarms.length;
  if (run.healthy) t.highOnHealthy += j.falseAlarms.length;
  t.unlabelledWarn += j.unlabelledWarn.length;
  if (!run.healthy && run.labels.length > 0) {
    t.problemRuns++;
    if (j.first?.cause) t.firstIsCause++;
  }
  return t;
}

/** Per problem label: runs labelled with it, how many found it, and HIGH false alarms with that tag. */
export interface LabelRow {
  readonly label: string;
  readonly logs: number;
  readonly hits: number;
  readonly misses: number;
  /** HIGH findings with this tag on runs that have it neither as label nor as side effect. */
  readonly falseAlarms: number;
}

export function labelRows(vocabulary: readonly string[], runs: readonly { run: Labelled; j: Judgement }[]): LabelRow[] {
  const tags = new Set<string>(vocabulary.filter((v) => v !== 'healthy'));
  for (const { j } of runs) for (const f of j.falseAlarms) tags.add(f.problem);
  return [...tags].map((label) => ({
    label,
    logs: runs.filter((r) => !r.run.healthy && r.run.labels.includes(label)).length,
    hits: runs.filter((r) => r.j.hits.includes(label)).length,
    misses: runs.filter((r) => r.j.misses.includes(label)).length,
    falseAlarms: runs.reduce((n, r) => n + r.j.falseAlarms.filter((f) => f.problem === label).length, 0),
  }));
}

/**
 * Per check: the runs on which it raised its tag (HIGH or WARN), split into hits (the tag is a label of the run),
 * accepted (a side effect), false alarms (HIGH otherwise) and unlabelled WARN; precision = hits / (hits + false
 * alarms); recall = hits / runs labelled with the check's tag.
 */
export interface CheckRow {
  readonly code: string;
  readonly problem: string;
  readonly raised: number;
  readonly hits: number;
  readonly accepted: number;
  readonly falseAlarms: number;
  readonly unlabelledWarn: number;
  /** Runs labelled with the check's tag. */
  readonly labelled: number;
  readonly precision: number | null;
  readonly recall: number | null;
}

export function checkRows(runs: readonly { run: Labelled; findings: readonly ScoredFinding[] }[]): CheckRow[] {
  const rows = new Map<string, { code: string; problem: string; raised: number; hits: number; accepted: number; falseAlarms: number; unlabelledWarn: number }>();
  for (const { run, findings } of runs) {
    const seen = new Set<string>();
    for (const f of findings) {
      const key = `${f.code}\u0000${f.problem}`;
      const r = rows.get(key) ?? { code: f.code, problem: f.problem, raised: 0, hits: 0, accepted: 0, falseAlarms: 0, unlabelledWarn: 0 };
      rows.set(key, r);
      // One outcome per run and check: its best level decides (a check raising its tag twice counts once).
      if (seen.has(key)) continue;
      seen.add(key);
      const level = findings.some((g) => g.code === f.code && g.problem === f.problem && g.level === 'HIGH') ? 'HIGH' : 'WARN';
      r.raised++;
      if (!run.healthy && run.labels.includes(f.problem)) r.hits++;
      else if (!run.healthy && run.also.includes(f.problem)) r.accepted++;
      else if (level === 'HIGH') r.falseAlarms++;
      else r.unlabelledWarn++;
    }
  }
  return [...rows.values()]
    .map((r) => {
      const labelled = runs.filter((x) => !x.run.healthy && x.run.labels.includes(r.problem)).length;
      return { ...r, labelled, precision: r.hits + r.falseAlarms ? r.hits / (r.hits + r.falseAlarms) : null, recall: labelled ? r.hits / labelled : null };
    })
    .sort((a, b) => a.code.localeCompare(b.code) || a.problem.localeCompare(b.problem));
}
