// Worked example for docs/cluster.md: HDBSCAN* on the TOKIO-ABC Cori job summaries (../shared, 8,080 rows keyed by
// `_row`, the data-row index in the file). Do the clusters recover the benchmark configurations (application, read or
// write, 512 or 4,096 processes, Lustre scratch or burst buffer, and for IOR one shared file or a file per process)?
// Prints the parameter sweep, the hierarchy with the configurations inside each node, one-split rules between
// siblings, and exact-versus-PCA agreement.
//
// usage: npx tsc -p tsconfig.json && node bench/cluster-tokio.mjs [--depth 6] [--csv bench/out/tokio-clusters.csv]
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { loadavg } from 'node:os';
import { SHARED, machine } from './lib.mjs';
import { clusterMatrix } from '../dist/cluster/cluster.js';
import { adjustedRandIndex } from '../dist/cluster/ari.js';
import { clusterRows } from '../dist/cluster/tree.js';
import { oneSplitRule } from '../dist/cluster/features.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const maxDepth = Number(opt('--depth', '6'));
const csvOut = opt('--csv', null);

const FILE = join(SHARED, 'datasets', 'tokio-abc', 'cori-summaries_2017-02-14-2017-11-14.csv.gz');
const lines = gunzipSync(readFileSync(FILE)).toString('utf8').trim().split('\n');
const header = lines[0].split(',');
// Data rows carry an unnamed leading index field that the header omits (see MANIFEST.md).
const rows = lines.slice(1).map((l) => l.split(',').slice(1));
const col = Object.fromEntries(header.map((h, i) => [h, i]));

// Behaviour features: what the job asked of the I/O system (no timings, no throughput, no file-system state).
const QUANTITIES = ['bytes_read', 'bytes_written', 'reads', 'writes', 'opens', 'stats', 'seq_reads', 'seq_writes', 'file_not_aligned', 'mem_not_aligned'];
const BEHAVIOUR = [...['tot', 'ave', 'min', 'max', 'num'].flatMap((s) => QUANTITIES.map((q) => `darshan_${s}_${q}_posix`)), 'darshan_nprocs'];
// Timing features (performance, which also depends on the file system).
const TIMING = [...['tot', 'ave', 'min', 'max'].flatMap((s) => ['read', 'write', 'meta'].map((q) => `darshan_${s}_f_${q}_time_posix`)), 'darshan_io_time'];

function matrix(names) {
  const n = rows.length;
  const d = names.length;
  const x = new Float64Array(n * d);
  rows.forEach((r, i) => names.forEach((c, j) => (x[i * d + j] = Number(r[col[c]]))));
  return { x, n, d };
}

const app = rows.map((r) => r[col.darshan_app].split('/').pop());
const dir = rows.map((r) => (Number(r[col.darshan_tot_bytes_written_posix]) > Number(r[col.darshan_tot_bytes_read_posix]) ? 'write' : 'read'));
const procs = rows.map((r) => r[col.darshan_nprocs]);
const fs = rows.map((r) => (r[col._file_system] === 'cscratch' ? 'lustre' : 'burst-buffer'));
// IOR ran in two file layouts that the metadata does not name: one shared file, or one file per process (IOR -F).
const layout = rows.map((r, i) => (app[i] === 'ior' ? (Number(r[col.darshan_num_opens_posix]) > 1 ? ' file-per-process' : ' shared-file') : ''));
const config12 = rows.map((_, i) => `${app[i]} ${dir[i]} ${procs[i]}`);
const config24 = rows.map((_, i) => `${config12[i]} ${fs[i]}`);
const config32 = rows.map((_, i) => `${config24[i]}${layout[i]}`);
const ids = (names) => {
  const m = new Map();
  return names.map((k) => (m.has(k) ? m.get(k) : (m.set(k, m.size), m.size - 1)));
};
const truth12 = ids(config12);
const truth24 = ids(config24);
const truth32 = ids(config32);

/** Share of clustered rows whose cluster's majority configuration is theirs (homogeneity of clusters). */
function purity(labels, truth) {
  const by = new Map();
  labels.forEach((l, i) => {
    if (l < 0) return;
    const m = by.get(l) ?? new Map();
    m.set(truth[i], (m.get(truth[i]) ?? 0) + 1);
    by.set(l, m);
  });
  let maj = 0;
  let tot = 0;
  for (const m of by.values()) {
    maj += Math.max(...m.values());
    for (const v of m.values()) tot += v;
  }
  return maj / tot;
}

const fmt = (v, k = 4) => v.toFixed(k);
const B = matrix(BEHAVIOUR);
console.log(`machine: ${machine()}; load average ${loadavg()[0].toFixed(2)}`);
console.log(`rows ${B.n}, behaviour columns ${B.d}, distinct behaviour vectors ${new Set(rows.map((_, i) => B.x.subarray(i * B.d, (i + 1) * B.d).join())).size}`);
console.log(
  `configurations: ${new Set(config12).size} (application, direction, processes), ${new Set(config24).size} with the file system, ${new Set(config32).size} with IOR's file layout\n`,
);

console.log('## Sweep (behaviour columns, minSamples 10, excess of mass)\n');
console.log('| minClusterSize | clusters | noise | ARI vs 12 | ARI vs 24 | ARI vs 32 | purity (12) | purity (24) | purity (32) | seconds |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const mcs of [25, 50, 100, 200]) {
  const t0 = performance.now();
  const r = await clusterMatrix(B.x, B.n, B.d, { minClusterSize: mcs, minSamples: 10 });
  const s = (performance.now() - t0) / 1000;
  const noise = r.labels.filter((l) => l < 0).length;
  console.log(
    `| ${mcs} | ${r.selectedClusters.length} | ${noise} | ${fmt(adjustedRandIndex(r.labels, truth12))} | ${fmt(adjustedRandIndex(r.labels, truth24))} | ${fmt(adjustedRandIndex(r.labels, truth32))} | ${fmt(purity(r.labels, truth12))} | ${fmt(purity(r.labels, truth24))} | ${fmt(purity(r.labels, truth32))} | ${s.toFixed(2)} |`,
  );
}

const MCS = 50;
console.log('');
const r = await clusterMatrix(B.x, B.n, B.d, { minClusterSize: MCS, minSamples: 10 });
const cl = r.tree.clusters;
const leaf = await clusterMatrix(B.x, B.n, B.d, { minClusterSize: MCS, minSamples: 10, selection: 'leaf' });
for (const epsilon of [0.5, 1, 2]) {
  const e = await clusterMatrix(B.x, B.n, B.d, { minClusterSize: MCS, minSamples: 10, epsilon });
  console.log(
    `epsilon ${epsilon}, minClusterSize ${MCS}: ${e.selectedClusters.length} clusters, ARI vs 12 / 24 / 32 configs ${fmt(adjustedRandIndex(e.labels, truth12))} / ${fmt(adjustedRandIndex(e.labels, truth24))} / ${fmt(adjustedRandIndex(e.labels, truth32))}, purity (12 / 24 / 32) ${fmt(purity(e.labels, truth12))} / ${fmt(purity(e.labels, truth24))} / ${fmt(purity(e.labels, truth32))}`,
  );
}
console.log(
  `leaf selection, minClusterSize ${MCS}: ${leaf.selectedClusters.length} clusters, ARI vs 12 / 24 / 32 configs ${fmt(adjustedRandIndex(leaf.labels, truth12))} / ${fmt(adjustedRandIndex(leaf.labels, truth24))} / ${fmt(adjustedRandIndex(leaf.labels, truth32))}, purity (32) ${fmt(purity(leaf.labels, truth32))}`,
);

console.log(`\n## Hierarchy (minClusterSize ${MCS}, minSamples 10; * = selected by excess of mass)\n`);
console.log('Each node: id, rows, distance at which it splits off its parent (1/λ birth), stability, and its configurations.\n');
const composition = (id) => {
  const m = new Map();
  for (const i of clusterRows(r.tree, id)) m.set(config32[i], (m.get(config32[i]) ?? 0) + 1);
  const parts = [...m.entries()].sort((a, b) => b[1] - a[1]);
  const shown = parts.slice(0, 4).map(([k, v]) => `${k} ${v}`);
  return shown.join(', ') + (parts.length > 4 ? `, … (${parts.length} configurations)` : '');
};
const depthOf = (id) => {
  let k = 0;
  for (let c = id; cl[c].parent >= 0; c = cl[c].parent) k++;
  return k;
};
console.log('```');
const show = (id) => {
  const c = cl[id];
  const depth = depthOf(id);
  if (depth > maxDepth) return;
  const stab = Number.isFinite(c.stability) ? c.stability.toFixed(0) : '∞';
  console.log(`${'  '.repeat(depth)}#${id}${c.selected ? '*' : ''} ${c.size} rows, split at ${(1 / c.lambdaBirth).toFixed(2)}, stability ${stab}: ${composition(id)}`);
  for (const ch of c.children) show(ch);
};
show(0);
console.log('```');

console.log('\n## One-split rules (raw values) between siblings, top three levels\n');
console.log('| node | sibling | rule | share in node | share in sibling |');
console.log('|---|---|---|---:|---:|');
for (const c of cl) {
  if (c.parent < 0 || depthOf(c.id) > 3) continue;
  const sibs = cl[c.parent].children.filter((s) => s !== c.id);
  const other = sibs.flatMap((s) => Array.from(clusterRows(r.tree, s)));
  const rule = oneSplitRule(B.x, B.d, clusterRows(r.tree, c.id), other);
  if (!rule) continue;
  console.log(
    `| #${c.id} | #${sibs.join(', #')} | ${BEHAVIOUR[rule.feature]} ${rule.direction} ${rule.threshold} | ${(100 * rule.shareInNode).toFixed(1)} % | ${(100 * rule.shareInSibling).toFixed(1)} % |`,
  );
}

console.log('\n## Exact versus principal components (minClusterSize 50, minSamples 10)\n');
const BT = matrix([...BEHAVIOUR, ...TIMING]);
console.log('| columns | space | MST | seconds | clusters | ARI vs exact |');
console.log('|---|---|---|---:|---:|---:|');
for (const [name, m] of [
  ['behaviour (51)', B],
  ['behaviour + timing (64)', BT],
]) {
  let exact = null;
  for (const [pca, algorithm] of [
    [null, 'prim'],
    [null, 'boruvka'],
    [15, 'auto'],
    [12, 'auto'],
    [10, 'auto'],
  ]) {
    const o = { minClusterSize: 50, minSamples: 10, pca };
    if (algorithm !== 'auto') o.algorithm = algorithm;
    const t0 = performance.now();
    const q = await clusterMatrix(m.x, m.n, m.d, o);
    const s = (performance.now() - t0) / 1000;
    exact ??= q.labels;
    console.log(`| ${name} | ${pca ? `${pca} components` : 'all (exact)'} | ${q.info.algorithm} | ${s.toFixed(2)} | ${q.selectedClusters.length} | ${fmt(adjustedRandIndex(q.labels, exact))} |`);
  }
}

if (csvOut) {
  mkdirSync(dirname(csvOut), { recursive: true });
  writeFileSync(csvOut, '_row,cluster\n' + Array.from(r.labels, (l, i) => `${i},${l}`).join('\n') + '\n');
  console.log(`\nwrote ${csvOut}`);
}
