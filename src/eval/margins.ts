import { KNOBS, type Knob } from '../config/knobs.js';
import type { AnyCheck } from '../checks/types.js';
import { CHECKS } from '../checks/registry.js';
import type { LabCheckMargins, LabCrossing, LabKnobMargin } from '../checks/lab-margins.js';
import type { EvalCorpus } from './engine.js';

/**
 * Decision margins of a check on the lab (docs/eval.md, "Decision margins"): for each knob the check reads, how far
 * the knob must move from its default before the check's verdict on some run changes, in the knob's own units.
 *
 * For every run and knob the check is re-run with the knob alone changed, and the value where its verdict flips is
 * found by bisection (verdicts are monotone in a threshold). "Loosening" is the direction in which the check names
 * its problem on more runs. Reported per knob:
 * - `falseHigh`: the loosest value at which no run without the problem (neither label nor side effect) is yet
 *   called HIGH — the nearest such run and the knob value where it would become a false alarm;
 * - `falseWarn`: the same for a WARN on such a run;
 * - `lost`: the nearest found problem run (labelled with the check's tag and named by the check) and the value, in
 *   the tightening direction, at which the check would stop naming it;
 * - `missed`: the labelled runs the check does not name, each with the value that would name it, if any.
 */
export type Crossing = LabCrossing;
export type KnobMargin = LabKnobMargin;
export type CheckMargins = LabCheckMargins;

/** The knob's search range: its declared bounds, else wide bounds by unit. */
function range(knob: Knob): [number, number] {
  const s = KNOBS[knob];
  const lo = s.min !== undefined && s.min > 0 ? s.min : s.unit === 'count' || s.unit === 'files' || s.unit === 'ranks' ? 0.5 : s.unit === 'bytes' ? 1 : 1e-4;
  const hi = s.max ?? (s.unit === 'count' || s.unit === 'files' || s.unit === 'ranks' ? 1e7 : s.unit === 'bytes' ? 2 ** 40 : s.unit === 'seconds' ? 1e4 : 1e4);
  return [lo, hi];
}

/** Geometric bisection between a and b (either order) for the boundary of a monotone predicate true at `a`. */
function boundary(a: number, b: number, ok: (v: number) => boolean, steps = 40): number {
  let good = a, bad = b;
  for (let k = 0; k < steps; k++) {
    const mid = good > 0 && bad > 0 ? Math.sqrt(good * bad) : (good + bad) / 2;
    if (ok(mid)) good = mid;
    else bad = mid;
    if (Math.abs(bad - good) <= 1e-9 * Math.max(Math.abs(good), Math.abs(bad))) break;
  }
  return bad;
}

function round(v: number): number {
  return Number(v.toPrecision(3));
}

/** Margins of one check over the corpus (every knob its options read). */
export function checkMargins(corpus: EvalCorpus, check: AnyCheck): CheckMargins | null {
  const problem = check.meta.problem;
  if (!problem) return null;
  const code = check.meta.code;
  const checks = [check];
  const level = (i: number, knob: Knob, v: number): number => {
    let best = 0;
    for (const f of corpus.findings(i, { [knob]: v }, checks)) if (f.code === code && f.problem === problem) best = Math.max(best, f.level === 'HIGH' ? 2 : 1);
    return best;
  };
  const runs = [...Array(corpus.size).keys()];
  const positive = (i: number) => !corpus.run(i).healthy && corpus.run(i).labels.includes(problem);
  const negative = (i: number) => corpus.run(i).healthy || (!corpus.run(i).labels.includes(problem) && !corpus.run(i).also.includes(problem));
  const knobs = [...new Set(Object.values(check.meta.options as Record<string, { knob: Knob }>).map((o) => o.knob))];
  let found = 0;
  const base = runs.map((i) => {
    const l = corpus.baseFindings(i).filter((f) => f.code === code && f.problem === problem);
    return l.some((f) => f.level === 'HIGH') ? 2 : l.length ? 1 : 0;
  });
  for (const i of runs) if (positive(i) && base[i] > 0) found++;
  const out: KnobMargin[] = [];
  for (const knob of knobs) {
    const d = corpus.defaults[knob];
    const [lo, hi] = range(knob);
    // Which end names the problem on more runs (raised at HIGH or WARN).
    let atLo = 0, atHi = 0;
    const lv = runs.map((i) => level(i, knob, lo));
    const hv = runs.map((i) => level(i, knob, hi));
    for (const i of runs) {
      atLo += lv[i] > 0 ? 1 : 0;
      atHi += hv[i] > 0 ? 1 : 0;
    }
    const loosens: KnobMargin['loosens'] = atHi > atLo ? 'up' : atLo > atHi ? 'down' : lv.some((x, i) => x !== hv[i]) ? (hv.reduce((a, b) => a + b, 0) > lv.reduce((a, b) => a + b, 0) ? 'up' : 'down') : 'none';
    if (loosens === 'none') {
      out.push({ knob, default: d, loosens, falseHigh: null, falseWarn: null, lost: null, missed: runs.filter((i) => positive(i) && base[i] === 0).map((i) => ({ file: corpus.run(i).file, value: null })) });
      continue;
    }
    const loose = loosens === 'up' ? hi : lo, tight = loosens === 'up' ? lo : hi;
    const looseLevel = loosens === 'up' ? hv : lv, tightLevel = loosens === 'up' ? lv : hv;
    const nearest = (cands: Crossing[]): Crossing | null => {
      let best: Crossing | null = null;
      for (const c of cands) if (c.value !== null && (!best || Math.abs(Math.log(c.value / d)) < Math.abs(Math.log(best.value! / d)))) best = c;
      return best;
    };
    // A run without the problem: where does it become HIGH (WARN) when the knob loosens from the default?
    const crossing = (i: number, atLeast: number, from: number, to: number, reached: number): Crossing => {
      if (reached < atLeast) return { file: corpus.run(i).file, value: null };
      return { file: corpus.run(i).file, value: round(boundary(from, to, (v) => level(i, knob, v) < atLeast)) };
    };
    const negs = runs.filter(negative);
    const falseHigh = nearest(negs.filter((i) => base[i] < 2).map((i) => crossing(i, 2, d, loose, looseLevel[i])));
    const falseWarn = nearest(negs.filter((i) => base[i] < 1).map((i) => crossing(i, 1, d, loose, looseLevel[i])));
    const lost = nearest(runs.filter((i) => positive(i) && base[i] > 0).map((i) => (tightLevel[i] > 0 ? { file: corpus.run(i).file, value: null } : { file: corpus.run(i).file, value: round(boundary(d, tight, (v) => level(i, knob, v) > 0)) })));
    const missed = runs.filter((i) => positive(i) && base[i] === 0).map((i) => crossing(i, 1, d, loose, looseLevel[i]));
    out.push({ knob, default: d, loosens, falseHigh, falseWarn, lost, missed });
  }
  return { code, problem, labelled: runs.filter(positive).length, found, knobs: out };
}

/**
 * Margins of every check the default mode runs that names a problem the lab labels: the data of
 * src/checks/lab-margins-data.ts.
 */
export function labMargins(corpus: EvalCorpus): Record<string, CheckMargins> {
  const labelled = new Set<string>();
  for (let i = 0; i < corpus.size; i++) if (!corpus.run(i).healthy) for (const l of corpus.run(i).labels) labelled.add(l);
  const out: Record<string, CheckMargins> = {};
  const active = CHECKS.filter((c) => !c.meta.modes || c.meta.modes.includes('default'));
  const superseded = new Set(active.flatMap((c) => c.meta.supersedes ?? []));
  for (const c of active) {
    if (superseded.has(c.meta.code)) continue;
    if (!c.meta.problem || !labelled.has(c.meta.problem) || !Object.keys(c.meta.options).length) continue;
    const m = checkMargins(corpus, c);
    if (m) out[c.meta.code] = m;
  }
  return out;
}

/** The TypeScript source of src/checks/lab-margins-data.ts for these margins. */
export function labMarginsSource(margins: Record<string, CheckMargins>, runs: number): string {
  return [
    '// Generated by src/eval/lab.test.ts (IOLENS_UPDATE_DOCS=1): decision margins of the checks on the lab.',
    "import type { LabCheckMargins } from './lab-margins.js';",
    '',
    '/** Runs of the lab the margins were measured on. */',
    `export const LAB_MARGINS_RUNS = ${runs};`,
    '',
    `export const LAB_MARGINS: Readonly<Record<string, LabCheckMargins>> = ${JSON.stringify(margins, null, 2)};`,
    '',
  ].join('\n');
}
