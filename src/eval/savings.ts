import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding, Report } from '../contract/index.js';
import { isHealthy, readLabManifest, type LabRun } from '../lab/manifest.js';
import { waitedSeconds } from '../compare/diff.js';
import { logFacts, reportOf } from '../pipeline/diagnose.js';
import { twinTime } from './costs.js';

/**
 * Savings checked on same-work pairs (docs/eval.md, "Savings"): what the report says fixing the injected problem would
 * save, against what fixing it saved — a problem run set beside its twin doing the same work with the problem removed —
 * and against blind guesses on the same pairs.
 *
 * Pairs. A lab whose manifest has repetitions (`pair` rows: `run-sweep.mjs --pairs`) gives each pair's problem runs P
 * and twin runs T; batches whose file-system check failed are left out. measured = median(P) − median(T); the noise is
 * half the sum of the two spreads (max − min). A lab without repetitions (one run per row) pairs each problem run with
 * a healthy run of its family that qualifies: the same rank count, layer, MPI-IO component and operation (`op`),
 * the same bytes where there is one, else the nearest bytes (the twin's time is then scaled by bytes, as `--costs`
 * does); its noise is not measured (0).
 *
 * A pair is **slower** when measured exceeds the noise; only those judge an estimate. Every estimate is in seconds of
 * the slowest rank's I/O time (what the run time measures): IOLens's is the savings of the HIGH/WARN findings naming
 * an injected label, summed (the overlap rule has already shared them), as their share of the I/O time × the slowest
 * rank's I/O time. The blind guesses: `all` the slowest rank's I/O time, `half` half of it, `cost` the largest cost
 * of those findings (what reports stated before savings). Within ×2: estimate / measured in [0.5, 2].
 * On the pairs that are not slower, an estimate **overclaims** when it exceeds the larger of the noise and 10 % of the
 * problem run's time.
 */
export const ESTIMATORS = ['iolens', 'all', 'half', 'cost'] as const;
export type Estimator = (typeof ESTIMATORS)[number];

/** Families whose numbers were looked at while the savings models were written (docs/eval.md): reported apart. */
export const TUNING_FAMILIES: readonly string[] = ['size-posix', 'sync-posix'];

export interface SavingsPair {
  readonly family: string;
  readonly problemCase: string;
  readonly twinCase: string;
  readonly labels: readonly string[];
  /** The problem run the report is read from (its median repetition), and the twin runs. */
  readonly problem: string;
  readonly twins: readonly string[];
  readonly repetitions: { readonly problem: number; readonly twin: number };
  /** Whether the twin does the same bytes (false where scaled by bytes, or where the extra bytes are the problem). */
  readonly sameBytes: boolean;
  readonly measured: number;
  readonly noise: number;
  readonly runTime: number;
  readonly slower: boolean;
  readonly estimates: Readonly<Record<Estimator, number | null>>;
  readonly ratios: Readonly<Record<Estimator, number | null>>;
  readonly heldOut: boolean;
}

export interface EstimatorTally {
  within2x: number;
  over: number;
  under: number;
  medianRatio: number | null;
  overclaimed: number;
}

export interface SavingsTally {
  pairs: number;
  slower: number;
  notSlower: number;
  by: Record<Estimator, EstimatorTally>;
}

export interface SavingsEvaluation {
  readonly dir: string;
  readonly fs: readonly string[];
  /** `repetitions` (same-work pairs of `--pairs`) or `single` (one run per row, twins chosen as above). */
  readonly kind: 'repetitions' | 'single';
  readonly pairs: readonly SavingsPair[];
  readonly totals: SavingsTally;
  readonly heldOut: SavingsTally;
  /** The pairs whose twin moved the same bytes (no scaling). */
  readonly sameBytes: SavingsTally;
  readonly labels: readonly ({ readonly label: string } & SavingsTally)[];
  /** Problem runs without a qualifying twin, and batches left out because their check failed. */
  readonly unpaired: number;
  readonly failedBatches: number;
  readonly failed: readonly { readonly file: string; readonly error: string }[];
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? Number.NaN : n % 2 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2;
};
const spread = (xs: readonly number[]): number => (xs.length ? Math.max(...xs) - Math.min(...xs) : 0);

/** A finding's savings (else nothing) in seconds the job waited: its share of the I/O time × the slowest rank's. */
function waitedSavings(f: Finding, io: Report['io']): number {
  if (!f.cost || !f.savings || !(f.cost.seconds > 0)) return 0;
  return waitedSeconds({ ioShare: (f.cost.ioShare * Math.min(f.savings.seconds, f.cost.seconds)) / f.cost.seconds }, io);
}

/** The estimates of one problem run's report for its injected labels. */
export function estimatesOf(report: Report, labels: readonly string[]): Record<Estimator, number | null> {
  const named = report.insights.filter((f) => f.problem && labels.includes(f.problem) && (f.level === 'HIGH' || f.level === 'WARN'));
  const io = report.io;
  return {
    iolens: named.length ? named.reduce((a, f) => a + waitedSavings(f, io), 0) : null,
    all: io.ioTime,
    half: io.ioTime / 2,
    cost: named.length ? Math.max(...named.map((f) => waitedSeconds(f.cost, io))) : null,
  };
}

/** The healthy run a single-run lab pairs a problem run with, or null when none qualifies (see the module's doc). */
export function qualifyingTwin(runs: readonly LabRun[], p: LabRun): LabRun | null {
  const same = runs.filter((h) => isHealthy(h) && h.family === p.family && h.ranks === p.ranks && h.layer === p.layer && h.io === p.io && h.params.op === p.params.op);
  if (!same.length) return null;
  const gap = (h: LabRun) => (h.bytes_moved > 0 && p.bytes_moved > 0 ? Math.abs(Math.log(h.bytes_moved / p.bytes_moved)) : Infinity);
  const shared = (h: LabRun) => Object.entries(p.params).filter(([k, v]) => k !== 'seed' && h.params[k] === v).length;
  return [...same].sort((a, b) => gap(a) - gap(b) || shared(b) - shared(a) || Number(b.dxt === p.dxt) - Number(a.dxt === p.dxt) || a.file.localeCompare(b.file))[0];
}

const emptyTally = (): SavingsTally => ({
  pairs: 0,
  slower: 0,
  notSlower: 0,
  by: Object.fromEntries(ESTIMATORS.map((e) => [e, { within2x: 0, over: 0, under: 0, medianRatio: null, overclaimed: 0 }])) as Record<Estimator, EstimatorTally>,
});

function tally(pairs: readonly SavingsPair[]): SavingsTally {
  const t = emptyTally();
  for (const p of pairs) {
    t.pairs++;
    if (p.slower) t.slower++;
    else t.notSlower++;
    for (const e of ESTIMATORS) {
      const b = t.by[e];
      const r = p.ratios[e];
      if (p.slower) {
        if (r !== null && r >= 0.5 && r <= 2) b.within2x++;
        else if (r !== null && r > 2) b.over++;
        else b.under++;
      } else if ((p.estimates[e] ?? 0) > Math.max(p.noise, 0.1 * p.runTime)) b.overclaimed++;
    }
  }
  for (const e of ESTIMATORS) {
    const rs = pairs.filter((p) => p.slower).map((p) => p.ratios[e] ?? 0);
    t.by[e].medianRatio = rs.length ? median(rs) : null;
  }
  return t;
}

function pairOf(report: Report, base: Omit<SavingsPair, 'estimates' | 'ratios' | 'slower' | 'heldOut'>): SavingsPair {
  const estimates = estimatesOf(report, base.labels);
  const slower = base.measured > base.noise;
  const ratios = Object.fromEntries(ESTIMATORS.map((e) => [e, slower && estimates[e] !== null ? estimates[e]! / base.measured : null])) as Record<Estimator, number | null>;
  return { ...base, estimates, ratios, slower, heldOut: !TUNING_FAMILIES.includes(base.family) };
}

/** Checks the savings the reports state on the pairs of the lab at `dir` (see the module's doc). */
export function evaluateSavings(dir: string): SavingsEvaluation {
  const all = readLabManifest(join(dir, 'MANIFEST.json')).runs.filter((r) => existsSync(join(dir, 'logs', r.file)));
  const failed: { file: string; error: string }[] = [];
  const reportFor = (file: string): Report | null => {
    try {
      return reportOf(logFacts(join(dir, 'logs', file)), { snippets: false, logName: file });
    } catch (err) {
      failed.push({ file, error: (err as Error).message });
      return null;
    }
  };
  const pairs: SavingsPair[] = [];
  let unpaired = 0;
  const repeated = all.filter((r) => r.pair);
  const failedBatches = new Set(repeated.filter((r) => r.pair!.check === 'failed').map((r) => `${r.pair!.name}#${r.pair!.batch}`)).size;
  if (repeated.length) {
    const groups = new Map<string, LabRun[]>();
    for (const r of repeated) if (r.pair!.check !== 'failed') groups.set(r.pair!.name, [...(groups.get(r.pair!.name) ?? []), r]);
    for (const [, rows] of [...groups].sort((a, b) => a[0].localeCompare(b[0]))) {
      const P = rows.filter((r) => r.pair!.role === 'problem'), T = rows.filter((r) => r.pair!.role === 'twin');
      if (!P.length || !T.length) {
        unpaired++;
        continue;
      }
      const mp = median(P.map((r) => r.run_time_s)), mt = median(T.map((r) => r.run_time_s));
      // The report of the problem repetition nearest the median.
      const rep = [...P].sort((a, b) => Math.abs(a.run_time_s - mp) - Math.abs(b.run_time_s - mp) || a.file.localeCompare(b.file))[0];
      const report = reportFor(rep.file);
      if (!report) continue;
      pairs.push(
        pairOf(report, {
          family: rep.family,
          problemCase: rep.case,
          twinCase: T[0].case,
          labels: rep.labels,
          problem: rep.file,
          twins: T.map((r) => r.file),
          repetitions: { problem: P.length, twin: T.length },
          sameBytes: rep.pair!.sameBytes,
          measured: mp - mt,
          noise: (spread(P.map((r) => r.run_time_s)) + spread(T.map((r) => r.run_time_s))) / 2,
          runTime: mp,
        }),
      );
    }
  } else {
    for (const p of all) {
      if (isHealthy(p)) continue;
      const h = qualifyingTwin(all, p);
      if (!h) {
        unpaired++;
        continue;
      }
      const report = reportFor(p.file);
      if (!report) continue;
      pairs.push(
        pairOf(report, {
          family: p.family,
          problemCase: p.case,
          twinCase: h.case,
          labels: p.labels,
          problem: p.file,
          twins: [h.file],
          repetitions: { problem: 1, twin: 1 },
          sameBytes: h.bytes_moved === p.bytes_moved,
          measured: p.run_time_s - twinTime(p, h),
          noise: 0,
          runTime: p.run_time_s,
        }),
      );
    }
  }
  // Every injected label, those without a qualifying pair too (their line says 0 pairs).
  const labels = [...new Set([...pairs.flatMap((p) => p.labels), ...all.filter((r) => !isHealthy(r)).flatMap((r) => r.labels)])].sort();
  return {
    dir,
    fs: [...new Set(all.map((r) => r.fs))],
    kind: repeated.length ? 'repetitions' : 'single',
    pairs,
    totals: tally(pairs),
    heldOut: tally(pairs.filter((p) => p.heldOut)),
    sameBytes: tally(pairs.filter((p) => p.sameBytes)),
    labels: labels.map((label) => ({ label, ...tally(pairs.filter((p) => p.labels.includes(label))) })).sort((a, b) => b.pairs - a.pairs || a.label.localeCompare(b.label)),
    unpaired,
    failedBatches,
    failed,
  };
}

/** The counts `eval --savings --json` prints first: `{pairs, within2x, baselines, notSlower, overclaimed}` and the rest. */
export function savingsCounts(e: SavingsEvaluation) {
  const counts = (t: SavingsTally) => ({
    pairs: t.pairs,
    slower: t.slower,
    within2x: t.by.iolens.within2x,
    baselines: { all: t.by.all.within2x, half: t.by.half.within2x, cost: t.by.cost.within2x },
    notSlower: t.notSlower,
    overclaimed: t.by.iolens.overclaimed,
  });
  return {
    ...counts(e.totals),
    dir: e.dir,
    fs: e.fs,
    kind: e.kind,
    heldOut: { families: `all but ${TUNING_FAMILIES.join(', ')}`, ...counts(e.heldOut) },
    sameBytes: counts(e.sameBytes),
    unpaired: e.unpaired,
    failedBatches: e.failedBatches,
    labels: e.labels.map((l) => ({ label: l.label, ...counts(l), medianRatio: l.by.iolens.medianRatio })),
    estimators: e.totals.by,
    details: e.pairs,
    failed: e.failed,
  };
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(0)} %` : '–');
const ratio = (r: number | null) => (r === null ? '–' : `×${r.toFixed(2)}`);
const secs = (s: number | null) => (s === null ? '—' : `${s < 0 ? '−' : ''}${Math.abs(s) < 1 ? `${(Math.abs(s) * 1e3).toFixed(1)} ms` : `${Math.abs(s).toFixed(3)} s`}`);

function tallyLines(name: string, t: SavingsTally): string[] {
  const o = [`${name}: ${t.pairs} pairs, ${t.slower} slower than their twin beyond the noise, ${t.notSlower} not`];
  for (const e of ESTIMATORS) {
    const b = t.by[e];
    o.push(
      `  ${e.padEnd(7)} within ×2 ${`${b.within2x} (${pct(b.within2x, t.slower)})`.padEnd(11)} median ratio ${ratio(b.medianRatio).padEnd(7)} over ${String(b.over).padStart(3)} under ${String(b.under).padStart(3)}   overclaimed ${b.overclaimed} of ${t.notSlower} not slower (${pct(b.overclaimed, t.notSlower)})`,
    );
  }
  return o;
}

/** The savings check as text: in all, held out, per label, then the pairs (those not within ×2, or all). */
export function formatSavings(e: SavingsEvaluation, opts: { all?: boolean } = {}): string {
  const o: string[] = [
    `Savings checked on pairs: ${e.dir} (file system: ${e.fs.join(', ')}; ${e.kind === 'repetitions' ? 'same-work pairs, repeated' : 'one run per row: twins of the same ranks, layer, MPI-IO component and operation, scaled by bytes where they differ; noise not measured'})`,
    'measured = median(problem) − median(twin); estimates in seconds of the slowest rank: iolens = savings of the findings naming an injected label;',
    "blind guesses: all = the slowest rank's I/O time, half = half of it, cost = the largest cost of those findings. Within ×2: estimate/measured in [0.5, 2].",
    `${e.unpaired} problem runs without a qualifying twin; ${e.failedBatches} batches left out (file-system check failed).`,
    '',
    ...tallyLines('all pairs', e.totals),
    '',
    ...tallyLines(`held out (families other than ${TUNING_FAMILIES.join(', ')})`, e.heldOut),
    '',
    ...tallyLines('twins moving the same bytes (no scaling)', e.sameBytes),
    '',
  ];
  for (const l of e.labels) o.push(`${l.label.padEnd(18)} ${String(l.pairs).padStart(4)} pairs ${String(l.slower).padStart(4)} slower: iolens ${`${l.by.iolens.within2x} (${pct(l.by.iolens.within2x, l.slower)})`.padEnd(10)} ${ratio(l.by.iolens.medianRatio).padEnd(7)} all ${`${l.by.all.within2x}`.padEnd(4)} half ${`${l.by.half.within2x}`.padEnd(4)} cost ${`${l.by.cost.within2x}`.padEnd(4)} overclaimed ${l.by.iolens.overclaimed}/${l.notSlower}`);
  const shown = opts.all ? e.pairs : e.pairs.filter((p) => p.slower && !(p.ratios.iolens !== null && p.ratios.iolens >= 0.5 && p.ratios.iolens <= 2));
  o.push('', opts.all ? 'Every pair (twin case → problem: labels; measured ± noise; iolens, cost; ratio):' : 'Slower pairs whose savings are not within ×2 (twin case → problem: labels; measured ± noise; iolens, cost; ratio):');
  for (const p of shown) {
    o.push(`${p.slower ? (p.ratios.iolens !== null && p.ratios.iolens >= 0.5 && p.ratios.iolens <= 2 ? '  ' : '✗ ') : '· '}${p.twinCase} → ${p.problem}: ${p.labels.join(', ')}; measured ${secs(p.measured)} ± ${secs(p.noise)}; iolens ${secs(p.estimates.iolens)}, cost ${secs(p.estimates.cost)}; ${ratio(p.ratios.iolens)}${p.sameBytes ? '' : ' (bytes differ)'}`);
  }
  for (const f of e.failed) o.push(`unreadable: ${f.file}: ${f.error}`);
  return `${o.join('\n')}\n`;
}
