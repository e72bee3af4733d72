import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterMatrix, pcaDims, EXACT_BUDGET, AUTO_PCA_DIMS } from './cluster.js';
import { hdbscan } from './hdbscan.js';
import { jobMixture } from './synth.js';
import { adjustedRandIndex } from './ari.js';
import { robustStandardize, signedLog10Matrix } from './features.js';

test('pca: auto keeps all columns while n² · d fits the exact budget', () => {
  assert.equal(pcaDims('auto', 30000, 60), 0); // 5.4e10 ≤ 6e10
  assert.equal(pcaDims(undefined, 40000, 60), AUTO_PCA_DIMS); // 9.6e10
  assert.equal(pcaDims('auto', 100000, 15), 0); // already ≤ 15 columns
  assert.equal(pcaDims(null, 100000, 60), 0);
  assert.equal(pcaDims(15, 100, 60), 15);
  assert.equal(pcaDims(60, 100, 60), 0);
  assert.throws(() => pcaDims(61, 100, 60), /from 1 to 60/);
  assert.ok(EXACT_BUDGET === 6e10);
});

test('clusterMatrix recovers the configurations of a generated job table, on all columns and on 12 components', async () => {
  const n = 3000;
  const d = 40;
  const m = jobMixture({ n, d, configs: 6, seed: 3 });
  const exact = await clusterMatrix(m.data, n, d, { minClusterSize: 40, minSamples: 10 });
  assert.equal(exact.prepared.pca, null);
  assert.equal(exact.prepared.dims, 40);
  // Same as running HDBSCAN* on the prepared matrix by hand.
  const byHand = await hdbscan(robustStandardize(signedLog10Matrix(m.data), n, d), n, d, { minClusterSize: 40, minSamples: 10 });
  assert.deepEqual(Array.from(exact.labels), Array.from(byHand.labels));
  const reduced = await clusterMatrix(m.data, n, d, { minClusterSize: 40, minSamples: 10, pca: 12 });
  assert.equal(reduced.prepared.dims, 12);
  assert.equal(reduced.info.algorithm, 'boruvka');
  // The generated mixture has 6 configurations plus 5 % background; both runs find them almost exactly.
  const truth = adjustedRandIndex(exact.labels, m.labels);
  assert.ok(truth > 0.95, `ARI to the configurations ${truth}`);
  assert.equal(exact.selectedClusters.length, 6);
  assert.ok(adjustedRandIndex(reduced.labels, exact.labels) > 0.95);
});
