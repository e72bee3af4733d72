import { DIAGNOSIS_CHECKS } from '../checks/diagnosis-registry.js';
import { LEVEL_KNOBS } from '../checks/level-policy.js';
import { KNOBS, type Knob } from '../config/knobs.js';
import { addToTally, emptyTally, type Judgement, type Tally } from './score.js';
import { readersOf, type EvalCorpus } from './engine.js';

/**
 * Leave-one-family-out tuning (docs/eval.md, "Tuning"). For each family F of the lab:
 *
 * 1. every tuned knob is tried, one at a time (the others at their defaults), at each value of its grid, and scored
 *    on the runs of the *other* families: hits − FALSE_ALARM_WEIGHT × false alarms − UNLABELLED_WARN_WEIGHT × WARN
 *    findings on healthy runs (scoring of score.ts; without the last term every floor would sink to its lowest value,
 *    since a WARN is never a false alarm; a WARN naming a real but unlabelled pattern of a problem run — a re-read
 *    file also read out of order — is not penalised);
 * 2. a knob keeps its default when the default scores within TIE_TOLERANCE (one label) of the best value; otherwise it
 *    moves to the nearest value (in grid steps) that does: a knob moves only when the other families show a real
 *    gain, and only as far as that gain needs;
 * 3. F's runs are scored once, with every knob at its pick: the held-out result of F.
 *
 * Nothing of F enters its own picks. The knobs tuned are the detection thresholds of the diagnosis checks: those
 * that decide whether a problem is named at all. Knobs that only decide HIGH versus WARN (the level rule's, and the
 * few a check uses to propose HIGH) are not tuned: the labels say which problems a run has, not what they cost, so
 * the objective could only learn from them never to say HIGH (LEVEL_ONLY_KNOBS; a test checks they move levels only).
 */

/** One false HIGH weighs as much as this many missed labels in the tuning objective. */
export const FALSE_ALARM_WEIGHT = 5;
/** One WARN finding on a healthy run weighs this many missed labels. */
export const UNLABELLED_WARN_WEIGHT = 0.25;

/** Candidate values of a knob, by its unit and range, with its default among them. */
export function knobGrid(knob: Knob, start: number = KNOBS[knob].default): number[] {
  const s = KNOBS[knob];
  let g: number[];
  switch (s.unit) {
    case 'ratio':
      if (s.max === 1) g = [0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99];
      else if ((s.min ?? 0) >= 1) g = [1.05, 1.1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 7, 10, 20];
      else g = [0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 1, 1.5, 2, 4, 8];
      break;
    case 'count':
    case 'files':
      g = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096];
      break;
    case 'bytes':
      g = [4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
      break;
    case 'seconds':
      g = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2];
      break;
    default:
      g = [];
  }
  const within = g.filter((v) => (s.min === undefined || v >= s.min) && (s.max === undefined || v <= s.max));
  return [...new Set([...within, start])].sort((a, b) => a - b);
}

/**
 * Knobs that decide only the level of a finding (HIGH or WARN), never whether the problem is named: the level rule's
 * (high_cost_share, high_run_share; warn_cost_share decides WARN versus INFO and is tuned) and the HIGH thresholds
 * of D02/D16/D17 (piece size), D10/D11 (small share, time share) and D14 (spread).
 */
export const LEVEL_ONLY_KNOBS: readonly Knob[] = ['high_cost_share', 'high_run_share', 'large_piece_bytes', 'small_share', 'small_time_share', 'rank_spread'];

/** The knobs the tuning sets: every knob a diagnosis check reads, and the level rule's WARN floor, less the level-only ones. */
export function tunedKnobs(): Knob[] {
  const out = new Set<Knob>(LEVEL_KNOBS);
  for (const c of DIAGNOSIS_CHECKS) for (const o of Object.values(c.meta.options as Record<string, { knob: Knob }>)) out.add(o.knob);
  return [...out].filter((k) => knobGrid(k).length > 1 && !LEVEL_ONLY_KNOBS.includes(k)).sort();
}

export interface KnobPicks {
  readonly knob: Knob;
  readonly default: number;
  readonly grid: readonly number[];
  /** Value picked with each family held out, in family order. */
  readonly picks: readonly number[];
  /** Families for which the default tied with the best score on the other families. */
  readonly defaultAmongBest: number;
}

export interface FoldResult {
  readonly family: string;
  /** Knobs whose pick differs from the default. */
  readonly moved: Readonly<Partial<Record<Knob, number>>>;
  readonly tally: Tally;
  /** The held-out runs' judgements (index into the corpus, judgement). */
  readonly runs: readonly { readonly index: number; readonly judgement: Judgement }[];
}

export interface HeldOut {
  readonly folds: readonly FoldResult[];
  readonly knobs: readonly KnobPicks[];
  readonly total: Tally;
  readonly weight: number;
  readonly warnWeight: number;
}

/** Scores within this of the best count as ties: one label's worth. */
export const TIE_TOLERANCE = 1;

/** The default's grid position when it ties with the best score, else the nearest tying position (the better, then the lower, of two). */
export function pickBest(scores: readonly number[], defaultAt: number): { pick: number; best: Set<number> } {
  const top = Math.max(...scores);
  const best = scores.map((s, i) => (s >= top - TIE_TOLERANCE ? i : -1)).filter((i) => i >= 0);
  let pick = best[0];
  for (const i of best) {
    const d = Math.abs(i - defaultAt), dp = Math.abs(pick - defaultAt);
    if (d < dp || (d === dp && scores[i] > scores[pick])) pick = i;
  }
  return { pick, best: new Set(best) };
}

export function leaveOneFamilyOut(corpus: EvalCorpus, knobs: readonly Knob[] = tunedKnobs()): HeldOut {
  const groups = [...corpus.groups()];
  const groupOf = new Int32Array(corpus.size);
  groups.forEach(([, idx], g) => idx.forEach((i) => (groupOf[i] = g)));
  const score = (i: number, j: Judgement) => j.hits.length - FALSE_ALARM_WEIGHT * j.falseAlarms.length - (corpus.run(i).healthy ? UNLABELLED_WARN_WEIGHT * j.unlabelledWarn.length : 0);
  // Per knob and grid value: the score of each family (sum over its runs); a fold's training score is the total
  // minus the held-out family's part.
  const perKnob = knobs.map((knob) => {
    const grid = knobGrid(knob, corpus.defaults[knob]);
    const readers = readersOf(knob);
    const byGroup = grid.map((v) => {
      const s = new Float64Array(groups.length);
      for (let i = 0; i < corpus.size; i++) s[groupOf[i]] += score(i, corpus.judge(i, corpus.findings(i, { [knob]: v }, readers)));
      return s;
    });
    return { knob, grid, byGroup, totals: byGroup.map((s) => s.reduce((a, b) => a + b, 0)) };
  });
  const picks = perKnob.map(() => [] as number[]);
  const defaultAmongBest = perKnob.map(() => 0);
  const folds: FoldResult[] = [];
  const total = emptyTally();
  groups.forEach(([family, idx], g) => {
    const moved: Partial<Record<Knob, number>> = {};
    perKnob.forEach((k, n) => {
      const at = k.grid.indexOf(corpus.defaults[k.knob]);
      const { pick, best } = pickBest(k.byGroup.map((s, v) => k.totals[v] - s[g]), at);
      const value = k.grid[pick];
      picks[n].push(value);
      if (best.has(at)) defaultAmongBest[n]++;
      if (value !== corpus.defaults[k.knob]) moved[k.knob] = value;
    });
    const tally = emptyTally();
    const runs = idx.map((i) => {
      const judgement = corpus.judge(i, corpus.findings(i, moved));
      addToTally(tally, corpus.run(i), judgement);
      addToTally(total, corpus.run(i), judgement);
      return { index: i, judgement };
    });
    folds.push({ family, moved, tally, runs });
  });
  return {
    folds,
    knobs: perKnob.map((k, n) => ({ knob: k.knob, default: corpus.defaults[k.knob], grid: k.grid, picks: picks[n], defaultAmongBest: defaultAmongBest[n] })),
    total,
    weight: FALSE_ALARM_WEIGHT,
    warnWeight: UNLABELLED_WARN_WEIGHT,
  };
}
