import { defaultKnobValues, type Knob, type KnobValues } from '../config/knobs.js';
import { CHECKS } from '../checks/registry.js';
import { runChecks } from '../checks/run-checks.js';
import { LEVEL_KNOBS } from '../checks/level-policy.js';
import type { AnyCheck } from '../checks/types.js';
import type { FactContext } from '../facts/fact-context.js';
import { logFacts } from '../pipeline/diagnose.js';
import { judge, scoredFindings, type Judgement, type Labelled, type ScoredFinding } from './score.js';

/** A labelled log as the evaluation engine sees it: where it is, what it has, and its group (lab family). */
export interface EvalRun extends Labelled {
  readonly file: string;
  readonly path: string;
  /** The lab family (or `shared` for the shared generated logs): the unit held out. */
  readonly group: string;
}

interface Case {
  readonly run: EvalRun;
  readonly facts: FactContext | null;
  readonly error?: string;
  /** Findings at the default knobs, by check code. */
  readonly base: ReadonlyMap<string, readonly ScoredFinding[]>;
  /** Checks that ran at the default knobs (fired or quiet: not superseded, not lacking a fact). */
  readonly ran: ReadonlySet<string>;
}

/** The default-mode checks (a run of the report's checks in the default mode, as `iolens report` makes it). */
const ACTIVE: readonly AnyCheck[] = CHECKS.filter((c) => !c.meta.modes || c.meta.modes.includes('default'));
/** Each check's place in the run order: findings keep it, so that ties rank as in the report. */
const ORDER: ReadonlyMap<string, number> = new Map(ACTIVE.map((c, i) => [c.meta.code, i]));

/** Checks whose outcome a knob can change: those reading it, or every check for the level rule's knobs. */
export function readersOf(knob: Knob): readonly AnyCheck[] {
  if ((LEVEL_KNOBS as readonly string[]).includes(knob)) return ACTIVE;
  return ACTIVE.filter((c) => Object.values(c.meta.options as Record<string, { knob: Knob }>).some((o) => o.knob === knob));
}

function configOf(knobs: KnobValues) {
  return { mode: 'default' as const, config: { knobs, checks: {} }, env: { nodes: null, applicationHints: null } };
}

/**
 * Labelled logs opened once, their facts kept: a knob setting re-runs only the checks that read the knob on the
 * facts already derived (a whole-lab pass then takes milliseconds, which the leave-one-family-out tuning needs).
 */
export class EvalCorpus {
  readonly cases: readonly Case[];
  /** The knob values the runs are judged at (the shipped defaults unless a configuration says otherwise). */
  readonly defaults: KnobValues;

  constructor(runs: readonly EvalRun[], knobs: KnobValues = defaultKnobValues()) {
    this.defaults = knobs;
    const defaults = configOf(knobs);
    this.cases = runs.map((run) => {
      try {
        const { facts } = logFacts(run.path);
        const res = runChecks(ACTIVE, facts, defaults);
        const base = new Map<string, ScoredFinding[]>();
        for (const f of scoredFindings(res.insights)) base.set(f.code, [...(base.get(f.code) ?? []), f]);
        const ran = new Set(res.outcomes.filter((o) => o.status === 'fired' || o.status === 'quiet').map((o) => o.code));
        return { run, facts, base, ran };
      } catch (err) {
        return { run, facts: null, error: (err as Error).message, base: new Map(), ran: new Set<string>() };
      }
    });
  }

  get size(): number {
    return this.cases.length;
  }

  run(i: number): EvalRun {
    return this.cases[i].run;
  }

  error(i: number): string | undefined {
    return this.cases[i].error;
  }

  /** Findings of run `i` at the default knobs. */
  baseFindings(i: number): ScoredFinding[] {
    return [...this.cases[i].base.values()].flat();
  }

  /**
   * Findings of run `i` with some knobs changed. `checks` (default: every default-mode check) limits what is re-run;
   * the other checks keep their findings at the default knobs, which is exact when `checks` holds every check that
   * reads a changed knob (`readersOf`).
   */
  findings(i: number, knobs: Partial<Record<Knob, number>>, checks: readonly AnyCheck[] = ACTIVE): ScoredFinding[] {
    const c = this.cases[i];
    if (!c.facts) return [];
    const subset = checks.filter((k) => c.ran.has(k.meta.code));
    if (!subset.length) return this.baseFindings(i);
    const res = runChecks(subset, c.facts, configOf({ ...this.defaults, ...knobs }));
    const codes = new Set(subset.map((k) => k.meta.code));
    const out: ScoredFinding[] = [];
    for (const [code, fs] of c.base) if (!codes.has(code)) out.push(...fs);
    out.push(...scoredFindings(res.insights));
    return out.sort((a, b) => (ORDER.get(a.code) ?? 0) - (ORDER.get(b.code) ?? 0));
  }

  judge(i: number, findings: readonly ScoredFinding[]): Judgement {
    return judge(this.cases[i].run, findings);
  }

  /** Indices of the runs of each group, groups in first-seen order. */
  groups(): Map<string, number[]> {
    const m = new Map<string, number[]>();
    this.cases.forEach((c, i) => m.set(c.run.group, [...(m.get(c.run.group) ?? []), i]));
    return m;
  }
}
