import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeFeature, formatFeatureValue, ruleWords } from './describe.js';
import { runClustering } from './run.js';
import { jsonText } from './save.js';
import type { FeatureTable } from './source.js';

test('features of the registry are worded from their declared units, others from their names', () => {
  const small = describeFeature('gauge_size_write_0_100_perc');
  assert.deepEqual(
    { label: small.label, unit: small.unit, log10: small.log10, logTransform: small.logTransform, source: small.source },
    { label: 'share of accesses that are writes of 0–100 B', unit: 'ratio', log10: false, logTransform: false, source: 'registry' },
  );
  const bytes = describeFeature('gauge_log10_total_bytes');
  assert.deepEqual([bytes.label, bytes.unit, bytes.log10, bytes.logTransform, bytes.timing], ['POSIX bytes moved', 'bytes', true, false, false]);
  // log10(x + 1) magnitudes are worded as x: 4097 bytes stored as log10(4097 + 1)… as 4.00 KiB.
  assert.equal(formatFeatureValue(bytes, Math.log10(4096 + 1)), '4.00 KiB');
  const readTime = describeFeature('gauge_log10_read_time');
  assert.deepEqual([readTime.label, readTime.unit, readTime.timing], ['POSIX read time summed over ranks', 'seconds', true]);
  assert.equal(formatFeatureValue(readTime, Math.log10(2.5 + 1)), '2.50 s');
  assert.equal(describeFeature('gauge_log10_nprocs').label, 'processes');
  assert.equal(formatFeatureValue(describeFeature('gauge_log10_nprocs'), Math.log10(512 + 1)), '512');
  assert.equal(describeFeature('gauge_shared_files_perc').label, 'share of shared files');
  assert.equal(describeFeature('gauge_seq_writes_perc').label, 'sequential writes per access');
  assert.equal(describeFeature('gauge_access1_count_perc').label, 'share of accesses of the most common size');
  assert.equal(formatFeatureValue(small, 0.96), '96.0%');
  // totals: readable docs, raw units; AIIO: log10 of a Darshan counter.
  const written = describeFeature('posix_bytes_written');
  assert.deepEqual([written.label, written.unit, written.logTransform], ['POSIX bytes written', 'bytes', true]);
  assert.deepEqual([describeFeature('io_time').unit, describeFeature('io_time').timing], ['seconds', true]);
  const aiio = describeFeature('aiio_posix_bytes_written');
  assert.deepEqual([aiio.label, aiio.unit, aiio.log10], ['bytes written', 'bytes', true]);
  assert.deepEqual([describeFeature('aiio_posix_writes').unit, describeFeature('aiio_posix_dups').log10], ['count', false]);
  // Imported columns (TOKIO-ABC): the name says the unit.
  const tokio = (c: string) => [describeFeature(c).label, describeFeature(c).unit, describeFeature(c).timing, describeFeature(c).source];
  assert.deepEqual(tokio('darshan_tot_bytes_read_posix'), ['darshan_tot_bytes_read_posix', 'bytes', false, 'name']);
  assert.deepEqual(tokio('darshan_tot_f_read_time_posix'), ['darshan_tot_f_read_time_posix', 'seconds', true, 'name']);
  assert.deepEqual(tokio('darshan_agg_perf_by_slowest_posix'), ['darshan_agg_perf_by_slowest_posix', 'MiB/s', false, 'name']);
  assert.deepEqual(tokio('fs_ave_bytes_read_per_sec'), ['fs_ave_bytes_read_per_sec', 'bytes/s', false, 'name']);
  assert.deepEqual(tokio('darshan_nprocs'), ['darshan_nprocs', 'number', false, 'name']);
  assert.equal(formatFeatureValue(describeFeature('darshan_agg_perf_by_slowest_posix'), 2048), '2.00 GiB/s');
});

test('a one-split rule in words: condition in human units, then the share of the node and of its sibling(s)', () => {
  const rule = { direction: '<=' as const, threshold: 4096, shareInNode: 0.96, shareInSibling: 0.03 };
  assert.equal(ruleWords(describeFeature('posix_bytes_written'), rule), 'POSIX bytes written ≤ 4.00 KiB in 96.0% of its jobs; its sibling in 3.0%');
  // A cut at nothing says whether the jobs do it at all.
  assert.equal(ruleWords(describeFeature('gauge_size_write_0_100_perc'), { direction: '<=', threshold: 0, shareInNode: 1, shareInSibling: 0.2 }), 'share of accesses that are writes of 0–100 B = 0 in 100% of its jobs; its sibling in 20.0%');
  assert.equal(ruleWords(describeFeature('gauge_size_write_0_100_perc'), { direction: '>', threshold: 0, shareInNode: 0.9, shareInSibling: 0 }), 'share of accesses that are writes of 0–100 B > 0 in 90.0% of its jobs; its sibling in 0%');
  assert.equal(
    ruleWords(describeFeature('gauge_size_write_0_100_perc'), { direction: '>', threshold: 0.5, shareInNode: 1, shareInSibling: 0 }, 2),
    'share of accesses that are writes of 0–100 B > 50.0% in 100% of its jobs; its siblings in 0%',
  );
  assert.equal(
    ruleWords(describeFeature('darshan_tot_stats_posix'), { direction: '>', threshold: 2, shareInNode: 1, shareInSibling: 0 }),
    'darshan_tot_stats_posix > 2 in 100% of its jobs; its sibling in 0%',
  );
});

/** A hand-built table: two behaviours that differ in write size, 30 jobs each, values fixed by the row index. */
function handBuilt(): FeatureTable {
  const names = ['gauge_size_write_0_100_perc', 'posix_bytes_written', 'posix_writes'];
  const n = 60;
  const d = names.length;
  const data = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    const small = i < 30;
    const k = i % 30;
    const writes = small ? 1000 + 37 * k : 200 + 11 * k;
    data[i * d] = small ? 0.9 + k / 300 : k / 300; // ≤ 0.0967 for the large writers, ≥ 0.9 for the small ones
    data[i * d + 1] = writes * (small ? 1 + (k % 4) : 4 * 1048576 + 4096 * k); // a few bytes per write, or ≥ 4 MiB
    data[i * d + 2] = writes;
  }
  return {
    table: 'hand',
    keyColumn: 'job',
    keys: Array.from({ length: n }, (_, i) => String(i)),
    features: names.map(describeFeature),
    data,
    n,
    d,
    imputed: 0,
    target: null,
    ioTime: null,
    runtime: null,
    apps: Array.from({ length: n }, (_, i) => (i < 30 ? (i % 10 === 0 ? 'logger' : 'ior') : 'vpicio_uni')),
  };
}

test('the rules of a hand-built hierarchy: each child of the root against its sibling, in words', async () => {
  const run = await runClustering(handBuilt(), { minClusterSize: 10, minSamples: 5, threads: 1 });
  const root = run.nodes[0];
  const kids = run.nodes.filter((n) => n.parent === 0);
  assert.equal(kids.length, 2);
  assert.deepEqual(kids.map((k) => k.size).sort(), [30, 30]);
  assert.equal(root.explanation, null, 'the root has no sibling and (without a target) no model');
  const small = kids.find((k) => k.summary.features.gauge_size_write_0_100_perc.median > 0.5)!;
  const large = kids.find((k) => k !== small)!;
  // Every column separates the two; ties go to the first column: the share of tiny writes.
  assert.equal(small.explanation!.rule!.text, 'share of accesses that are writes of 0–100 B > 9.7% in 100% of its jobs; its sibling in 0%');
  assert.equal(large.explanation!.rule!.text, 'share of accesses that are writes of 0–100 B ≤ 9.7% in 100% of its jobs; its sibling in 0%');
  assert.deepEqual(small.explanation!.rule!.siblings, [large.id]);
  assert.equal(small.explanation!.rule!.threshold, 29 / 300);
  // The applications in each group, the most jobs first.
  assert.deepEqual(small.summary.apps, [{ name: 'ior', jobs: 27 }, { name: 'logger', jobs: 3 }]);
  assert.deepEqual(large.summary.apps, [{ name: 'vpicio_uni', jobs: 30 }]);
  // Medians in stored units.
  assert.equal(small.summary.features.posix_writes.median, (1000 + 37 * 14 + 1000 + 37 * 15) / 2);
  assert.equal(run.info.params.preparation && (run.info.params.preparation as { log_transformed: string[] }).log_transformed.join(), 'posix_bytes_written,posix_writes');
  // Members: labels of the selected nodes, every row once.
  const sel = run.nodes.filter((n) => n.selected);
  assert.equal(sel.reduce((a, n) => a + n.size, 0), 60 - run.info.noise);
});

test('JSON text writes infinities as the string "Infinity" (JSON has none) and NaN as null', () => {
  assert.equal(jsonText({ a: Infinity, b: -Infinity, c: NaN, d: 1.5, e: new Float64Array([1, Infinity]) }), '{"a":"Infinity","b":"-Infinity","c":null,"d":1.5,"e":[1,"Infinity"]}');
});
