import { mergeCommonSlots } from './common-values.js';
import { Combine, floatRule, intRule, type ModuleLayout } from './modules.js';

/** One record's counters: `ints` and `floats` in the module's counter order. */
export interface Row {
  ints: Float64Array;
  floats: Float64Array;
}

/** The column groups the shared-record reduction treats specially, looked up once per module. */
interface Groups {
  intRules: Combine[];
  floatRules: Combine[];
  /** [first value column, first count column] of each common-value group (ACCESS, STRIDE). */
  common: [number, number][];
  /** [F_MAX_*_TIME column, MAX_*_TIME_SIZE column]. */
  maxTime: [number, number][];
  fastest: { rank: number; bytes: number; time: number };
  slowest: { rank: number; bytes: number; time: number };
  time: [number, number, number];
  bytes: [number, number];
  variance: { time: number; bytes: number };
}

const cache = new WeakMap<ModuleLayout, Groups>();

function groups(m: ModuleLayout): Groups {
  let g = cache.get(m);
  if (g) return g;
  const has = (n: string) => m.ints.includes(`${m.prefix}_${n}`);
  const hasF = (n: string) => m.floats.includes(`${m.prefix}_F_${n}`);
  const common: [number, number][] = [];
  for (const k of ['ACCESS', 'STRIDE']) if (has(`${k}1_${k}`)) common.push([m.int(`${k}1_${k}`), m.int(`${k}1_COUNT`)]);
  const maxTime: [number, number][] = [];
  for (const d of ['READ', 'WRITE']) if (hasF(`MAX_${d}_TIME`)) maxTime.push([m.float(`MAX_${d}_TIME`), m.int(`MAX_${d}_TIME_SIZE`)]);
  g = {
    intRules: m.ints.map((n) => intRule(m, n)),
    floatRules: m.floats.map((n) => floatRule(m, n)),
    common,
    maxTime,
    fastest: { rank: m.int('FASTEST_RANK'), bytes: m.int('FASTEST_RANK_BYTES'), time: m.float('FASTEST_RANK_TIME') },
    slowest: { rank: m.int('SLOWEST_RANK'), bytes: m.int('SLOWEST_RANK_BYTES'), time: m.float('SLOWEST_RANK_TIME') },
    time: [m.float('READ_TIME'), m.float('WRITE_TIME'), m.float('META_TIME')],
    bytes: [m.int('BYTES_READ'), m.int('BYTES_WRITTEN')],
    variance: { time: m.float('VARIANCE_RANK_TIME'), bytes: m.float('VARIANCE_RANK_BYTES') },
  };
  cache.set(m, g);
  return g;
}

/** Before the reduction every rank's record names itself fastest and slowest (darshan-*.c `*_mpi_redux`). */
function initExtremes(g: Groups, row: Row, rank: number): void {
  const time = row.floats[g.time[0]] + row.floats[g.time[1]] + row.floats[g.time[2]];
  const bytes = row.ints[g.bytes[0]] + row.ints[g.bytes[1]];
  for (const e of [g.fastest, g.slowest]) {
    row.ints[e.rank] = rank;
    row.ints[e.bytes] = bytes;
    row.floats[e.time] = time;
  }
}

/** The pairwise reduction operator (`*_record_reduction_op`): `inp` is MPI's in-buffer, `io` the in/out one. */
function combine(m: ModuleLayout, g: Groups, inp: Row, io: Row): Row {
  const out: Row = { ints: new Float64Array(m.ints.length), floats: new Float64Array(m.floats.length) };
  for (let j = 0; j < m.ints.length; j++) {
    const a = inp.ints[j], b = io.ints[j];
    switch (g.intRules[j]) {
      case Combine.SUM:
        out.ints[j] = a + b;
        break;
      case Combine.SUM_CLAMP:
        out.ints[j] = a + b < 0 ? -1 : a + b;
        break;
      case Combine.MAX:
        out.ints[j] = a > b ? a : b;
        break;
      case Combine.FIRST:
        out.ints[j] = a;
        break;
      default:
        break;
    }
  }
  for (let j = 0; j < m.floats.length; j++) {
    const a = inp.floats[j], b = io.floats[j];
    switch (g.floatRules[j]) {
      case Combine.SUM:
        out.floats[j] = a + b;
        break;
      case Combine.MAX:
        out.floats[j] = a > b ? a : b;
        break;
      case Combine.MIN_NONZERO:
        out.floats[j] = (a < b && a > 0) || b === 0 ? a : b;
        break;
      default:
        break;
    }
  }
  for (const [v, c] of g.common) {
    const slots = mergeCommonSlots(
      Array.from(inp.ints.subarray(v, v + 4)),
      Array.from(inp.ints.subarray(c, c + 4)),
      Array.from(io.ints.subarray(v, v + 4)),
      Array.from(io.ints.subarray(c, c + 4)),
    );
    out.ints.set(slots.values, v);
    out.ints.set(slots.counts, c);
  }
  for (const [t, s] of g.maxTime) {
    const src = inp.floats[t] > io.floats[t] ? inp : io;
    out.floats[t] = src.floats[t];
    out.ints[s] = src.ints[s];
  }
  const fast = inp.floats[g.fastest.time] < io.floats[g.fastest.time] ? inp : io;
  const slow = inp.floats[g.slowest.time] > io.floats[g.slowest.time] ? inp : io;
  for (const [e, src] of [[g.fastest, fast], [g.slowest, slow]] as const) {
    out.ints[e.rank] = src.ints[e.rank];
    out.ints[e.bytes] = src.ints[e.bytes];
    out.floats[e.time] = src.floats[e.time];
  }
  return out;
}

/**
 * MPI_Reduce's order for a commutative operator over ranks 0..n−1 (MPICH's binomial tree): at distance 1, 2, 4…
 * rank r combines what rank r + d holds (as the in-buffer) into its own. Returns rank 0's result.
 */
function binomial<T>(items: T[], op: (inp: T, io: T) => T): T {
  const acc = items.slice();
  for (let d = 1; d < acc.length; d *= 2) {
    for (let r = 0; r + d < acc.length; r += 2 * d) acc[r] = op(acc[r + d], acc[r]);
  }
  return acc[0];
}

/** darshan_variance_reduce over (n, T, S) triples; the result is the population variance S / n. */
function variance(values: number[]): number {
  type V = { n: number; t: number; s: number };
  const r = binomial<V>(
    values.map((t) => ({ n: 1, t, s: 0 })),
    (x, y) => {
      const n = x.n + y.n;
      const d = (y.n / x.n) * x.t - y.t;
      return { n, t: x.t + y.t, s: x.s + y.s + (x.n / (y.n * n)) * d * d };
    },
  );
  return r.s / r.n;
}

/**
 * Darshan's shared-file reduction of one file's records, one per rank in rank order (every rank of the job has
 * one): rank extremes initialised, records combined in MPI_Reduce's order, rank-time and rank-bytes variances
 * added. Sums, maxima and timestamps do not depend on the order; with equal rank times, the fastest/slowest rank
 * and the merged common values can (MPI implementations differ).
 */
export function reduceShared(m: ModuleLayout, rows: Row[], ranks: number[]): Row {
  const g = groups(m);
  rows.forEach((row, i) => initExtremes(g, row, ranks[i]));
  const times = rows.map((r) => r.floats[g.time[0]] + r.floats[g.time[1]] + r.floats[g.time[2]]);
  const bytes = rows.map((r) => r.ints[g.bytes[0]] + r.ints[g.bytes[1]]);
  const out = binomial(rows, (inp, io) => combine(m, g, inp, io));
  out.floats[g.variance.time] = variance(times);
  out.floats[g.variance.bytes] = variance(bytes);
  return out;
}
