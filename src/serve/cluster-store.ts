import { clusterMatrix, columnSummary } from '../cluster/index.js';
import { explain, makeTable, train, type TrainedModel } from '../learn/index.js';
import { toolVersion } from '../pipeline/resources.js';
import type { Store } from '../store/db.js';
import { plain } from '../store/values.js';
import { pearson, quantileSorted } from '../util/stats.js';

/**
 * Fills the store's clustering tables (schema 3: cluster_runs, clusters, cluster_members) for the web service's
 * sample store: HDBSCAN* (src/cluster) over the jobs' Gauge feature columns, each node described by its feature
 * medians and quartiles, its median throughput and total I/O time, and a SHAP summary (mean |SHAP| and sign per
 * feature) from a gradient-boosted model of POSIX throughput trained with src/learn. `iolens cluster` writes the
 * same tables for real archives; this is the small version the sample store and the tests need.
 */

export interface ClusterStoreResult {
  readonly runId: string;
  readonly rows: number;
  readonly clusters: number;
  readonly model: TrainedModel | null;
}

const TARGET = 'posix_perf_mibs';
/** Features that are the target's own numerator or denominator (bytes, seconds): left out of the model. */
const LEAKS = /^gauge_log10_(total_bytes|run_time|read_time|write_time|meta_time)$/;
const IO_TIME = 'io_time';



export async function clusterStore(store: Store, opts: { minClusterSize?: number; seed?: number; note?: string } = {}): Promise<ClusterStoreResult> {
  const con = store.con;
  const cols = (await con.runAndReadAll(`SELECT column_name FROM information_schema.columns WHERE table_name = 'jobs' AND column_name LIKE 'gauge\\_%' ESCAPE '\\' ORDER BY ordinal_position`))
    .getRows()
    .map((r) => String(r[0]));
  const r = await con.runAndReadAll(`SELECT hash, ${TARGET}, ${IO_TIME}, ${cols.map((c) => `"${c}"`).join(', ')} FROM jobs ORDER BY hash`);
  const data = r.getRows().map((row) => row.map(plain));
  const n = data.length;
  // Constant columns carry no information for distances; they are left out of the run.
  const features = cols.filter((_, j) => new Set(data.map((row) => row[3 + j])).size > 1);
  const idx = features.map((f) => cols.indexOf(f));
  const d = features.length;
  const x = new Float64Array(n * d);
  data.forEach((row, i) => idx.forEach((j, k) => (x[i * d + k] = typeof row[3 + j] === 'number' ? (row[3 + j] as number) : 0)));
  const minClusterSize = opts.minClusterSize ?? Math.max(5, Math.round(n / 25));
  const result = await clusterMatrix(x, n, d, { minClusterSize, threads: 1 });
  const tree = result.tree;

  // A model of the target over every row, explained per row: the nodes' SHAP summaries.
  let model: TrainedModel | null = null;
  let shap: { feature: string; shap: number; value: number }[][] | null = null;
  const y = Float64Array.from(data, (row) => (typeof row[1] === 'number' ? (row[1] as number) : Number.NaN));
  if (y.filter((v) => v > 0).length >= 40) {
    const columns: Record<string, Float64Array> = { [TARGET]: y };
    features.forEach((f, k) => (columns[f] = Float64Array.from({ length: n }, (_, i) => x[i * d + k])));
    const table = makeTable(columns);
    // Throughput is bytes over seconds: the model learns it from how the job does I/O, not from its bytes and times.
    const inputs = features.filter((f) => !LEAKS.test(f));
    model = await train(table, { target: TARGET, features: inputs.map((name) => ({ name, kind: 'numeric' as const })), models: ['gbdt'], seed: opts.seed ?? 1, leakGuard: 'drop', parallel: false });
    shap = explain(model, table, { baseline: 'path' }).map((e) => e.contributions.map((c) => ({ feature: c.feature, shap: c.shap, value: typeof c.value === 'number' ? c.value : 0 })));
  }

  const [[count]] = (await con.runAndReadAll('SELECT count(*) FROM cluster_runs')).getRows();
  const runId = `run-${Number(count) + 1}`;
  const depth = new Map<number, number>();
  for (const c of tree.clusters) depth.set(c.id, c.parent < 0 ? 0 : depth.get(c.parent)! + 1);
  await con.run('BEGIN TRANSACTION');
  try {
    await con.run('INSERT INTO cluster_runs VALUES (?, now()::TIMESTAMP, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
      runId,
      toolVersion(),
      'jobs',
      'hash',
      JSON.stringify(features),
      JSON.stringify({ min_cluster_size: minClusterSize, min_samples: result.info.minSamples, selection: 'eom', epsilon: 0, preparation: { log: true, scaling: 'robust', pca: result.prepared.pca ? result.prepared.dims : null }, target: TARGET }),
      n,
      result.selectedClusters.length,
      [...result.labels].filter((l) => l < 0).length,
      opts.note ?? null,
    ]);
    for (const c of tree.clusters) {
      const rows = [...tree.order.subarray(c.start, c.end)];
      const s = columnSummary(x, d, rows);
      const t = rows.map((i) => y[i]).filter((v) => v > 0).sort((a, b) => a - b);
      const io = rows.map((i) => data[i][2]).filter((v): v is number => typeof v === 'number');
      const summary = {
        features: Object.fromEntries(features.map((f, k) => [f, { median: s.median[k], q1: s.q1[k], q3: s.q3[k], iqr: s.iqr[k] }])),
        target: { column: TARGET, rows: t.length, median: t.length ? quantileSorted(t, 0.5) : null },
        io_time: { column: IO_TIME, rows: io.length, total: io.reduce((a, b) => a + b, 0) },
      };
      let explanation: unknown = null;
      if (shap) {
        const feats = features.flatMap((f, k) => {
          if (LEAKS.test(f)) return [];
          const sv = rows.map((i) => shap![i].find((e) => e.feature === f)?.shap ?? 0);
          const xv = rows.map((i) => x[i * d + k]);
          const corr = pearson(xv, sv);
          return [{ feature: f, label: f.replace(/^gauge_/, '').replace(/_/g, ' '), mean_abs: sv.reduce((a, v) => a + Math.abs(v), 0) / Math.max(1, sv.length), correlation: corr, sign: Math.abs(corr) < 0.1 ? '0' : corr > 0 ? '+' : '-' }];
        });
        feats.sort((a, b) => b.mean_abs - a.mean_abs || a.feature.localeCompare(b.feature));
        explanation = { shap: { baseline: 'path', rows: rows.length, features: feats }, rule: null };
      }
      const lambdaDeath = Number.isFinite(c.lambdaDeath) ? c.lambdaDeath : null;
      await con.run('INSERT INTO clusters VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
        runId,
        c.id,
        c.parent < 0 ? null : c.parent,
        depth.get(c.id)!,
        c.end - c.start,
        c.lambdaBirth,
        lambdaDeath,
        Number.isFinite(c.stability) ? c.stability : null,
        c.selected,
        c.selected ? c.label : null,
        summary.target.median,
        JSON.stringify(summary),
        null,
        explanation === null ? null : JSON.stringify(explanation),
      ]);
    }
    const app = await con.createAppender('cluster_members');
    for (let i = 0; i < n; i++) {
      app.appendVarchar(runId);
      app.appendVarchar(String(data[i][0]));
      app.appendInteger(result.labels[i]);
      app.appendInteger(tree.pointCluster[i]);
      app.appendDouble(result.probabilities[i]);
      app.appendDouble(result.outlierScores[i]);
      app.endRow();
    }
    app.closeSync();
    await con.run('COMMIT');
  } catch (err) {
    await con.run('ROLLBACK').catch(() => undefined);
    throw err;
  }
  return { runId, rows: n, clusters: result.selectedClusters.length, model };
}
