import type { Table } from './table.js';

/** Thresholds of the leak guard (see `leakGuard`). */
export interface LeakGuardOptions {
  /** |Pearson r| of log values above which a feature is a near-exact function of the target or of the run time. */
  maxAbsCorrelation: number;
  /**
   * For "a = rate b × the run time": the largest share of the spread of log(a/b) left once the run time is taken
   * out (standard deviations), so a mere copy of b, where the run time explains nothing, is not taken for a product.
   */
  maxResidualShare: number;
  /** Rows (with every value involved positive) a rule needs before it may judge. */
  minRows: number;
}

export const LEAK_GUARD_DEFAULTS: LeakGuardOptions = { maxAbsCorrelation: 0.995, maxResidualShare: 0.25, minRows: 30 };

export interface LeakReport {
  dropped: { feature: string; reason: string }[];
}

function slogArray(col: Float64Array, rows: ArrayLike<number>): Float64Array {
  return Float64Array.from(rows, (r) => {
    const v = col[r];
    return v >= 0 ? Math.log10(1 + v) : v < 0 ? -Math.log10(1 - v) : NaN;
  });
}

/** Pearson r over positions where both values are present; NaN when fewer than `minRows` or either is constant. */
function correlation(a: Float64Array, b: Float64Array, minRows: number): number {
  let n = 0;
  let sa = 0;
  let sb = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === a[i] && b[i] === b[i]) {
      n++;
      sa += a[i];
      sb += b[i];
    }
  }
  if (n < minRows) return NaN;
  const ma = sa / n;
  const mb = sb / n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === a[i] && b[i] === b[i]) {
      sab += (a[i] - ma) * (b[i] - mb);
      saa += (a[i] - ma) ** 2;
      sbb += (b[i] - mb) ** 2;
    }
  }
  if (saa <= 1e-24 || sbb <= 1e-24) return NaN;
  return sab / Math.sqrt(saa * sbb);
}

/** Names that say a column identifies a job, a user, a host or a file rather than measuring anything. */
const ID_NAME = /(^|_)(job_?id|jobid|job|user_?id|uid|gid|pid|user|user_?name|owner|hash|uuid|guid|host|host_?name|node_?list|path|file_?name|exe|cmd|command|args|cwd)$/i;

/** A value that is a path (a mount point, a file, an executable). */
const PATH_VALUE = /[/\\]/;
/** A value carrying an id: a run of 5+ digits (job ids, uids) or 8+ hex digits (hashes, uuids). */
const ID_VALUE = /\d{5,}|\b(?=[a-f]*\d)[0-9a-f]{8,}\b/i;
/** Free text: several words, or longer than any category name. */
const FREE_TEXT = (v: string) => v.length > 64 || v.trim().split(/\s+/).length >= 4;

/** Thresholds of the identifier rule (see `identifierColumns`). */
export const IDENTIFIER_DEFAULTS = {
  /** A column whose present values are paths, ids or free text at least this often is an identifier. */
  minShare: 0.01,
  /** A text column with this share of distinct values among its present ones (and at least `minDistinct`) names each job. */
  maxDistinctShare: 0.5,
  minDistinct: 20,
};

/**
 * Candidates that identify rather than measure (issue 53): a path or an id is not a cause, and as a feature it
 * only lets a model remember jobs (a mount point with a job id in it) or an installation (an executable's path), which
 * a job of another machine never has. Dropped, with the reason, whatever the target:
 * - by name: job, user, group or process ids, hashes, hosts, paths, file names, command lines (numeric or text);
 * - by value (text columns, over the training rows): paths (a `/` or `\`), ids (5+ digits, 8+ hex digits) or free
 *   text (4+ words, 64+ characters) in at least 1 % of the present values; or so many distinct values (half the
 *   present ones, at least 20) that the column names each job.
 */
export function identifierColumns(table: Table, candidates: readonly string[], rows?: ArrayLike<number>): LeakReport['dropped'] {
  const o = IDENTIFIER_DEFAULTS;
  const idx = rows ?? Int32Array.from({ length: table.nRows }, (_, i) => i);
  const out: LeakReport['dropped'] = [];
  for (const c of candidates) {
    if (ID_NAME.test(c)) {
      out.push({ feature: c, reason: 'an identifier (its name says so): a job, user, host or file name is not a cause' });
      continue;
    }
    const col = table.columns[c];
    if (col === undefined || col instanceof Float64Array) continue;
    let n = 0;
    let paths = 0;
    let ids = 0;
    let text = 0;
    const distinct = new Set<string>();
    for (let i = 0; i < idx.length; i++) {
      const v = col[idx[i]];
      if (v === null || v === '') continue;
      n++;
      distinct.add(v);
      if (PATH_VALUE.test(v)) paths++;
      else if (ID_VALUE.test(v)) ids++;
      else if (FREE_TEXT(v)) text++;
    }
    if (n === 0) continue;
    const share = (k: number) => `${((100 * k) / n).toFixed(0)} % of its values`;
    const why =
      paths >= o.minShare * n
        ? `${share(paths)} are paths`
        : ids >= o.minShare * n
          ? `${share(ids)} carry an id (5+ digits or 8+ hex digits)`
          : text >= o.minShare * n
            ? `${share(text)} are free text`
            : distinct.size >= o.minDistinct && distinct.size >= o.maxDistinctShare * n
              ? `${distinct.size} distinct values in ${n} rows: it names each job`
              : null;
    if (why) out.push({ feature: c, reason: `an identifier (${why}): a path or id is not a cause` });
  }
  return out;
}

/**
 * Finds candidate features that leak the answer, on the training rows only. Three rules, each on the numeric
 * candidates (a string column cannot be a numeric function of the target):
 * 1. target: |r| between sign·log10(1+|x|) of the feature and log10(1 + target) above `maxAbsCorrelation`;
 * 2. run time: the same with log10(1 + run time);
 * 3. rate × window: for another candidate b, over the rows where a, b and the run time are positive, log10 a is
 *    an almost exact linear function of log10 b + log10 runtime (|r| above `maxAbsCorrelation`) and the run time
 *    explains most of what b does not (sd of log a − log b − log runtime ≤ `maxResidualShare` × sd of
 *    log a − log b). Such an `a` (node-hours = nodes × the job's window; server totals = rate × the window, even
 *    when the server's window is the job's rounded to its sampling interval) is only known once the job has ended.
 * Candidates are judged in the given order; a feature already dropped is not used as another's b.
 */
export function leakGuard(
  table: Table,
  candidates: readonly string[],
  target: string,
  runtime?: string,
  rows?: ArrayLike<number>,
  options: Partial<LeakGuardOptions> = {},
): LeakReport {
  const o = { ...LEAK_GUARD_DEFAULTS, ...options };
  const idx = rows ?? Int32Array.from({ length: table.nRows }, (_, i) => i);
  const numeric = candidates.filter((c) => table.columns[c] instanceof Float64Array);
  const tcol = table.columns[target];
  const y = tcol instanceof Float64Array ? slogArray(tcol, idx) : null;
  const rcol = runtime ? table.columns[runtime] : undefined;
  const rt = rcol instanceof Float64Array ? rcol : null;
  const dropped: LeakReport['dropped'] = [];
  const gone = new Set<string>();
  const logs = new Map(numeric.map((c) => [c, slogArray(table.columns[c] as Float64Array, idx)]));
  const rtLog = rt ? slogArray(rt, idx) : null;
  for (const c of numeric) {
    const v = logs.get(c) as Float64Array;
    if (y) {
      const r = correlation(v, y, o.minRows);
      if (Math.abs(r) > o.maxAbsCorrelation) {
        dropped.push({ feature: c, reason: `near-exact function of the target ${target} (|r| of logs ${Math.abs(r).toFixed(4)} > ${o.maxAbsCorrelation})` });
        gone.add(c);
        continue;
      }
    }
    if (rtLog && runtime) {
      const r = correlation(v, rtLog, o.minRows);
      if (Math.abs(r) > o.maxAbsCorrelation) {
        dropped.push({ feature: c, reason: `near-exact function of the run time ${runtime} (|r| of logs ${Math.abs(r).toFixed(4)} > ${o.maxAbsCorrelation})` });
        gone.add(c);
      }
    }
  }
  if (rt && runtime) {
    // log10 of positive values (NaN otherwise).
    const logPos = (col: Float64Array): Float64Array => Float64Array.from(idx, (r) => (col[r] > 0 ? Math.log10(col[r]) : NaN));
    const lr = logPos(rt);
    const pos = new Map(numeric.map((c) => [c, logPos(table.columns[c] as Float64Array)]));
    for (const a of numeric) {
      if (gone.has(a)) continue;
      const la = pos.get(a) as Float64Array;
      for (const b of numeric) {
        if (b === a || gone.has(b)) continue;
        const lb = pos.get(b) as Float64Array;
        // A cheap look at every k-th row (about 256) first; the full test only for pairs that could pass.
        const step = Math.max(1, Math.floor(la.length / 256));
        if (step > 1) {
          const probe = productFit(la, lb, lr, step);
          if (probe.n >= 8 && !(probe.r > o.maxAbsCorrelation - 0.02)) continue;
        }
        const fit = productFit(la, lb, lr, 1);
        if (fit.n >= o.minRows && fit.r > o.maxAbsCorrelation && fit.sdProduct <= o.maxResidualShare * fit.sdRatio) {
          dropped.push({
            feature: a,
            reason: `${a} ≈ ${b} × run time ${runtime} (r of logs ${fit.r.toFixed(4)} > ${o.maxAbsCorrelation}; the run time explains ${(100 * (1 - fit.sdProduct / fit.sdRatio)).toFixed(0)} % of the spread of ${a}/${b}): known only after the job ends`,
          });
          gone.add(a);
          break;
        }
      }
    }
  }
  return { dropped };
}

/**
 * How well log a = log b + log runtime (+ a constant) fits over rows (every `step`-th) where all three are positive:
 * r = Pearson correlation of log a with log b + log runtime; sdProduct = standard deviation of
 * log a − log b − log runtime; sdRatio = standard deviation of log a − log b.
 */
function productFit(la: Float64Array, lb: Float64Array, lr: Float64Array, step: number): { n: number; r: number; sdProduct: number; sdRatio: number } {
  let n = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  let sd = 0;
  let sdd = 0;
  let se = 0;
  let see = 0;
  for (let i = 0; i < la.length; i += step) {
    const x = la[i];
    const y = lb[i] + lr[i];
    if (!(x === x && y === y)) continue;
    n++;
    sx += x;
    sy += y;
    sxx += x * x;
    syy += y * y;
    sxy += x * y;
    const d = x - y;
    sd += d;
    sdd += d * d;
    const e = x - lb[i];
    se += e;
    see += e * e;
  }
  if (n < 2) return { n, r: NaN, sdProduct: NaN, sdRatio: NaN };
  const vx = sxx / n - (sx / n) ** 2;
  const vy = syy / n - (sy / n) ** 2;
  const cov = sxy / n - (sx / n) * (sy / n);
  return {
    n,
    r: vx > 1e-24 && vy > 1e-24 ? cov / Math.sqrt(vx * vy) : NaN,
    sdProduct: Math.sqrt(Math.max(0, sdd / n - (sd / n) ** 2)),
    sdRatio: Math.sqrt(Math.max(0, see / n - (se / n) ** 2)),
  };
}
