// A generated job table with known mixture structure, in the shape of Darshan job counters: each application uses
// a subset of the counters, each at its own order of magnitude; its variants (e.g. the same code at another scale
// or transfer size) shift a quarter of those counters by 0.5–1.5 decades; a per-job size factor moves all of a
// job's counters together; a share of jobs are unstructured background. For tests and benchmarks.
import { rng } from '../util/random.js';

export interface MixtureOptions {
  n: number;
  d: number;
  /** Number of applications. */
  configs: number;
  /** Variants per application (default 1); configuration label = application × variants + variant. */
  variants?: number;
  seed: number;
  /** Share of background jobs with no configuration (label -1); default 0.05. */
  background?: number;
}

export interface Mixture {
  /** n × d raw counter values (non-negative integers), row-major. */
  data: Float64Array;
  /** Configuration (application × variants + variant) of each job, -1 for background. */
  labels: Int32Array;
}

export function jobMixture(o: MixtureOptions): Mixture {
  const r = rng(o.seed);
  const gauss = (): number => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const { n, d } = o;
  const variants = o.variants ?? 1;
  const configs = o.configs * variants;
  const used: boolean[][] = [];
  const level: number[][] = [];
  const spread: number[][] = [];
  for (let a = 0; a < o.configs; a++) {
    const u = Array.from({ length: d }, () => r() < 0.7);
    const base = Array.from({ length: d }, () => r() * 9);
    const sp = Array.from({ length: d }, () => 0.05 + r() * 0.3);
    for (let v = 0; v < variants; v++) {
      used.push(u);
      spread.push(sp);
      level.push(base.map((b, j) => (v > 0 && u[j] && r() < 0.25 ? b + (r() < 0.5 ? -1 : 1) * (0.5 + r()) : b)));
    }
  }
  const weight = Array.from({ length: configs }, (_, c) => 1 / (c + 1) ** 0.8);
  const total = weight.reduce((a, b) => a + b, 0);
  const background = o.background ?? 0.05;
  const data = new Float64Array(n * d);
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let c = -1;
    if (r() >= background) {
      let u = r() * total;
      c = 0;
      while (c < configs - 1 && u >= weight[c]) u -= weight[c++];
    }
    labels[i] = c;
    const size = 0.3 * gauss();
    for (let j = 0; j < d; j++) {
      let v = 0;
      if (c < 0) {
        if (r() < 0.5) v = 10 ** (r() * 9);
      } else if (used[c][j] && r() >= 0.03) {
        v = 10 ** (level[c][j] + spread[c][j] * gauss() + size);
      }
      data[i * d + j] = Math.round(v);
    }
  }
  return { data, labels };
}
