import type { Cost, Finding, Level, Savings } from '../contract/index.js';
import type { Knob, KnobValues } from '../config/knobs.js';
import type { CostInput } from './types.js';

/**
 * The level rule of the default mode (docs/report.md, "How levels are decided"): a finding's level follows what fixing
 * it would save (its `savings`: the seconds of the job's I/O time the problem's calls take beyond what the same work
 * would take done well), in the semantics it is counted in (the slowest rank: what the job waited; or summed over
 * ranks: the calls' time). What the calls spent (`cost`) is not enough: a problem whose calls took long but would take
 * about as long done well is not raised. A check proposes a level from the pattern it sees; the rule caps it:
 *
 *   HIGH needs savings not resting on a bound alone (`basis: job` or `reference`, on a measured cost), at least
 *        high_cost_share (25 %) of the job's I/O time and at least high_run_share (5 %) of its run time (× processes
 *        for a sum over ranks), where known: fixing it changes the I/O and the I/O matters to the run;
 *   WARN needs savings whose range reaches above 0 (`high`) and at least warn_cost_share of the I/O time (default 0):
 *        the problem is present and fixing it can save time;
 *   below, the finding is INFO (noted, not raised), whatever its calls spent.
 *
 * On a trace whose I/O is not the run's bottleneck (its slowest process's I/O under high_run_share of the run:
 * `quiet`), a WARN also needs savings of at least warn_run_share (1 %) of the run time: a healthy run stays quiet, and
 * what is raised on it is worth a scientist's time. (Logs' reports keep WARN for a present pattern for now: the
 * labelled corpora score detection by HIGH/WARN, and their tiny runs would all go quiet.)
 *
 * A finding without a cost or savings is at most INFO (every WARN and HIGH states both). Findings on incomplete data
 * are at most WARN (run-checks.ts), and a `--config` level override wins over everything. The same rule, on a cost
 * alone, levels the flagged records of a trace's views (`costLevel`).
 */
export const LEVEL_KNOBS = ['high_cost_share', 'high_run_share', 'warn_cost_share', 'warn_run_share'] as const satisfies readonly Knob[];

const RANK: Record<Level, number> = { HIGH: 0, WARN: 1, OK: 2, INFO: 3 };

/** The yardsticks costs are measured against: the job's I/O and run time, in both semantics. */
export interface Yardstick {
  /** The slowest rank's I/O time, seconds. */
  readonly ioTime: number;
  /** The I/O time summed over ranks, seconds. */
  readonly cumulativeIoTime: number;
  /** Run time, seconds (0 when unknown). */
  readonly runTime: number;
  /** Ranks the sum runs over. */
  readonly processes: number;
  /** Seconds of the sum that ran alongside other calls of the same rank (threads); 0 when none or unknown. */
  readonly overlapSeconds?: number;
}

const clamp01 = (x: number) => Math.max(0, Math.min(1, x));

/** A check's cost with its shares of the job's I/O and run time (same semantics). */
export function completeCost(c: CostInput, y: Yardstick): Cost {
  const semantics = c.semantics ?? 'cumulative';
  const seconds = Number.isFinite(c.seconds) && c.seconds > 0 ? c.seconds : 0;
  const io = semantics === 'slowest' ? y.ioTime : y.cumulativeIoTime;
  const run = y.runTime > 0 ? (semantics === 'slowest' ? y.runTime : y.runTime * Math.max(1, y.processes)) : 0;
  // Seconds summed over calls that ran at once (threads) take less of the ranks' run time: their share of the calls'
  // time, applied to the ranks' time in I/O.
  const wall = semantics === 'cumulative' && io > 0 && (y.overlapSeconds ?? 0) > 0 ? Math.max(0, io - y.overlapSeconds!) / io : 1;
  return {
    seconds,
    semantics,
    ioShare: io > 0 ? clamp01(seconds / io) : 0,
    runShare: run > 0 ? clamp01((seconds * wall) / run) : null,
    basis: c.basis ?? 'time',
  };
}

/** Whether a job's I/O is not its bottleneck (under high_run_share of the run): the level rule's `quiet` case. */
export function isQuiet(y: Yardstick, knobs: KnobValues): boolean {
  return y.runTime > 0 && y.ioTime / y.runTime < knobs.high_run_share;
}

/** On a quiet job (I/O not its bottleneck), whether seconds of this run share are worth a WARN. */
function worthRaising(runShare: number | null, knobs: KnobValues, quiet: boolean): boolean {
  return !quiet || runShare === null || runShare >= knobs.warn_run_share;
}

/** The level a cost alone allows: HIGH, WARN or INFO. */
export function costLevel(cost: Cost, knobs: KnobValues, quiet = false): Level {
  const high = cost.basis === 'time' && cost.ioShare >= knobs.high_cost_share && (cost.runShare === null || cost.runShare >= knobs.high_run_share);
  if (high) return 'HIGH';
  return cost.ioShare >= knobs.warn_cost_share && cost.seconds > 0 && worthRaising(cost.runShare, knobs, quiet) ? 'WARN' : 'INFO';
}

/** Levels in the default mode's order: problems, then notes, then the good patterns found. */
const RANKED_LEVELS = ['HIGH', 'WARN', 'INFO', 'OK'] as const;

/** The shares of the I/O and run time that savings are (the cost's shares, scaled by savings / cost). */
export function savingsShares(savings: Savings, cost: Cost): { ioShare: number; runShare: number | null } {
  const k = cost.seconds > 0 ? Math.min(1, savings.seconds / cost.seconds) : 0;
  return { ioShare: cost.ioShare * k, runShare: cost.runShare === null ? null : cost.runShare * k };
}

/** The level savings allow: HIGH, WARN or INFO. */
export function savingsLevel(savings: Savings, cost: Cost, knobs: KnobValues, quiet = false): Level {
  const { ioShare, runShare } = savingsShares(savings, cost);
  const high = savings.basis !== 'bound' && cost.basis === 'time' && ioShare >= knobs.high_cost_share && (runShare === null || runShare >= knobs.high_run_share);
  if (high) return 'HIGH';
  // WARN: the problem is present and its fix can save time — the range of the savings reaches above 0 (a stated
  // reference may put the estimate at 0 where the job's calls were already as fast as the reference).
  const highShare = cost.seconds > 0 ? (cost.ioShare * Math.min(savings.high, cost.seconds)) / cost.seconds : 0;
  // On a quiet job the estimate (not the top of its range) must be worth the run's time.
  return highShare >= knobs.warn_cost_share && savings.high > 0 && worthRaising(runShare, knobs, quiet) ? 'WARN' : 'INFO';
}

/** The level after the rule; observations (OK, INFO) pass unchanged. */
export function ruleLevel(proposed: Level, cost: Cost | undefined, savings: Savings | undefined, knobs: KnobValues, quiet = false): Level {
  if (proposed === 'OK' || proposed === 'INFO') return proposed;
  if (!cost || !savings) return 'INFO';
  const allowed = savingsLevel(savings, cost, knobs, quiet);
  return RANK[allowed] > RANK[proposed] ? allowed : proposed;
}

/**
 * The seconds a finding is ranked by, as a share of the job's I/O time of its semantics: what fixing it saves, or,
 * without savings (an observation), what its calls spent; −1 without either.
 */
export function rankShare(f: Finding): number {
  if (f.cost && f.savings) return savingsShares(f.savings, f.cost).ioShare;
  return f.cost ? f.cost.ioShare : -1;
}

/**
 * The default mode's order: the good patterns found (OK) last; before them, every finding by what fixing it saves (its
 * share of the I/O time; an observation without savings by what its calls spent), so that the most seconds come
 * first whatever the level; then level (HIGH, WARN, INFO), then what the calls spent.
 */
export function rankFindings(a: Finding, b: Finding): number {
  const ok = (f: Finding) => (f.level === 'OK' ? 1 : 0);
  return (
    ok(a) - ok(b) ||
    rankShare(b) - rankShare(a) ||
    RANKED_LEVELS.indexOf(a.level) - RANKED_LEVELS.indexOf(b.level) ||
    (b.cost?.seconds ?? -1) - (a.cost?.seconds ?? -1)
  );
}
