import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hdbscan } from './hdbscan.js';
import { jobMixture } from './synth.js';
import { robustStandardize, signedLog10Matrix } from './features.js';
import type { HdbscanResult } from './types.js';

/** Everything of a result that must not depend on the MST algorithm or the number of threads. */
function essence(r: HdbscanResult): unknown {
  return {
    labels: Array.from(r.labels),
    probabilities: Array.from(r.probabilities),
    outlier: Array.from(r.outlierScores),
    core: Array.from(r.coreDistances),
    weights: Array.from(r.mst.weight).sort((a, b) => a - b),
    clusters: r.tree.clusters,
    pointCluster: Array.from(r.tree.pointCluster),
    pointLambda: Array.from(r.tree.pointLambda),
    order: Array.from(r.tree.order),
  };
}

test('worker threads and both MST algorithms give the identical hierarchy (5,000 rows, with duplicates)', async () => {
  const n = 5000;
  const d = 6;
  const m = jobMixture({ n, d, configs: 5, seed: 7 });
  const x = robustStandardize(signedLog10Matrix(m.data), n, d);
  // Exact duplicate rows (identical jobs): tied distances and λ = ∞ where ≥ minSamples coincide.
  for (let i = 0; i < 300; i++) x.copyWithin((i + 1000) * d, i * d, (i + 1) * d);
  for (let i = 2000; i < 2020; i++) x.copyWithin(i * d, 0, d);
  const o = { minClusterSize: 30, minSamples: 10 };
  const base = await hdbscan(x, n, d, { ...o, algorithm: 'prim', threads: 1 });
  assert.equal(base.info.threads, 1);
  assert.ok(base.selectedClusters.length >= 3, `${base.selectedClusters.length} clusters`);
  // Row 0, its copy at 1000 and the 20 at 2000..2019: 22 identical rows, core distance 0, joined at distance 0.
  assert.equal(base.coreDistances[0], 0);
  assert.equal(base.mst.weight.filter((w) => w === 0).length, 21);
  for (const [algorithm, threads] of [['boruvka', 1], ['prim', 2], ['boruvka', 2]] as const) {
    const r = await hdbscan(x, n, d, { ...o, algorithm, threads });
    assert.equal(r.info.threads, threads);
    assert.deepEqual(essence(r), essence(base), `${algorithm} on ${threads} threads`);
  }
  // The spanning tree really spans: n − 1 edges whose weights are mutual-reachability distances.
  assert.equal(base.mst.weight.length, n - 1);
  for (let e = 0; e < n - 1; e++) {
    const a = base.mst.from[e];
    const b = base.mst.to[e];
    assert.ok(base.mst.weight[e] >= Math.max(base.coreDistances[a], base.coreDistances[b]));
  }
});
