import type { Cost, Finding, Level } from '../contract/index.js';
import type { Knob, KnobValues } from '../config/knobs.js';
import type { CostInput } from './types.js';

/**
 * The level rule of the default mode (docs/report.md, "How levels are decided"): a finding's level follows the
 * seconds it costs the job, in the semantics it is counted in (the slowest rank: what the job waited; or summed over
 * ranks: the calls' time). A check proposes a level from the pattern it sees and states the seconds; the rule caps it:
 *
 *   HIGH needs the seconds measured (`basis: time`, not a bound), at least high_cost_share (25 %) of the job's I/O
 *        time and at least high_run_share (5 %) of its run time (× processes for a sum over ranks), where known:
 *        the problem dominates the I/O and the I/O matters to the run;
 *   WARN needs seconds above 0 and at least warn_cost_share of the I/O time (default 0): the problem is present and
 *        costs measurable time, however little on this run;
 *   below, the finding is INFO (noted, not raised).
 *
 * A finding without a cost is at most INFO (every WARN and HIGH states its seconds). Findings on incomplete data are
 * at most WARN (run-checks.ts), and a `--config` level override wins over everything. The same rule levels the
 * flagged records of a trace's views (`costLevel`).
 */
export const LEVEL_KNOBS = ['high_cost_share', 'high_run_share', 'warn_cost_share'] as const satisfies readonly Knob[];

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

/** The level a cost alone allows: HIGH, WARN or INFO. */
export function costLevel(cost: Cost, knobs: KnobValues): Level {
  const high = cost.basis === 'time' && cost.ioShare >= knobs.high_cost_share && (cost.runShare === null || cost.runShare >= knobs.high_run_share);
  if (high) return 'HIGH';
  return cost.ioShare >= knobs.warn_cost_share && cost.seconds > 0 ? 'WARN' : 'INFO';
}

/** The level after the rule; observations (OK, INFO) pass unchanged. */
export function ruleLevel(proposed: Level, cost: Cost | undefined, knobs: KnobValues): Level {
  if (proposed === 'OK' || proposed === 'INFO') return proposed;
  if (!cost) return 'INFO';
  const allowed = costLevel(cost, knobs);
  return RANK[allowed] > RANK[proposed] ? allowed : proposed;
}

/** Levels in the default mode's order: problems, then notes, then the good patterns found. */
const RANKED_LEVELS = ['HIGH', 'WARN', 'INFO', 'OK'] as const;

/** The default mode's order: level (HIGH, WARN, INFO, OK), then the costliest first, by the share of the I/O time. */
export function rankFindings(a: Finding, b: Finding): number {
  return RANKED_LEVELS.indexOf(a.level) - RANKED_LEVELS.indexOf(b.level) || (b.cost?.ioShare ?? -1) - (a.cost?.ioShare ?? -1) || (b.cost?.seconds ?? -1) - (a.cost?.seconds ?? -1);
}
