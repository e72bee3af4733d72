import type { Cost, Level } from '../contract/index.js';
import type { Knob, KnobValues } from '../config/knobs.js';

/**
 * The level rule of the default mode (docs/report.md, "How levels are decided"): a finding's level follows what it
 * costs the job. A check proposes a level from the pattern it sees (HIGH: small writes in most requests); the rule
 * then caps it by the cost the check measured (`cost.share`: the problem's share of the job's I/O time — or of its
 * bytes or requests where time cannot be attributed):
 *
 *   HIGH needs cost.share ≥ high_cost_share (25 %) and, where the run time is known, cost.share × the I/O share of
 *        the run time ≥ high_run_share (5 %): the problem dominates the I/O and the I/O matters to the run;
 *   WARN needs cost.share ≥ warn_cost_share (2 %): the problem is present and measurable;
 *   below, the finding is INFO (noted, not raised).
 *
 * A finding without a measured cost is at most WARN. Findings on incomplete data are at most WARN (run-checks.ts),
 * and a `--config` level override wins over everything.
 */
export const LEVEL_KNOBS = ['high_cost_share', 'high_run_share', 'warn_cost_share'] as const satisfies readonly Knob[];

const RANK: Record<Level, number> = { HIGH: 0, WARN: 1, OK: 2, INFO: 3 };

/** The share of the run time a cost stands for (of the I/O time when the I/O share of the run is unknown). */
export function impactOf(cost: Cost, ioShare: number | null): number {
  return Math.max(0, Math.min(1, cost.share)) * (ioShare === null ? 1 : ioShare);
}

/** The level after the rule; observations (OK, INFO) pass unchanged. */
export function ruleLevel(proposed: Level, cost: Cost | undefined, ioShare: number | null, knobs: KnobValues): Level {
  if (proposed === 'OK' || proposed === 'INFO') return proposed;
  if (!cost) return proposed === 'HIGH' ? 'WARN' : proposed;
  const share = Math.max(0, Math.min(1, cost.share));
  const high = share >= knobs.high_cost_share && impactOf(cost, ioShare) >= knobs.high_run_share;
  const allowed: Level = high ? 'HIGH' : share >= knobs.warn_cost_share ? 'WARN' : 'INFO';
  return RANK[allowed] > RANK[proposed] ? allowed : proposed;
}
