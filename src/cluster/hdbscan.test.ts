import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hdbscan } from './hdbscan.js';
import { condenseTree, clusterRows, directMembers } from './tree.js';
import { selectClusters } from './select.js';
import { rng } from '../util/random.js';
import type { HdbscanOptions, SelectionOptions } from './types.js';

// ---------------------------------------------------------------------------------------------------------------
// Brute-force reference, written from the definition (Campello et al. 2013/2015) and sharing no code with the
// engine: the mutual-reachability graph thresholded at every distinct distance, its connected components found
// afresh at each level, clusters followed top-down as sets of rows.
// ---------------------------------------------------------------------------------------------------------------

interface RefCluster {
  parent: number;
  birth: number; // λ
  members: number[]; // rows at birth
  leaves: Map<number, number>; // row → λ at which it leaves this cluster (directly or into a child)
  children: number[];
}

/**
 * Euclidean distances. The squares are added in groups of four columns, the order the engine uses, so that both
 * produce the same bits and tied distances stay tied (the tree depends on exact ties).
 */
function refDistances(x: number[][]): number[][] {
  const n = x.length;
  const dist = x.map(() => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const sq = x[i].map((v, t) => (v - x[j][t]) ** 2);
      let s = 0;
      let t = 0;
      for (; t + 4 <= sq.length; t += 4) s += sq[t] + sq[t + 1] + sq[t + 2] + sq[t + 3];
      for (; t < sq.length; t++) s += sq[t];
      dist[i][j] = Math.sqrt(s);
    }
  }
  return dist;
}

function refMutualReachability(x: number[][], minSamples: number): { mrd: number[][]; core: number[] } {
  const dist = refDistances(x);
  const k = Math.min(minSamples, x.length);
  const core = dist.map((row) => [...row].sort((a, b) => a - b)[k - 1]);
  const mrd = dist.map((row, i) => row.map((v, j) => Math.max(v, core[i], core[j])));
  return { mrd, core };
}

/** Connected components of the graph with edges of weight < w; returns a component id per row. */
function refComponents(mrd: number[][], w: number): number[] {
  const n = mrd.length;
  const comp = new Array<number>(n).fill(-1);
  let next = 0;
  for (let s = 0; s < n; s++) {
    if (comp[s] >= 0) continue;
    comp[s] = next;
    const todo = [s];
    while (todo.length) {
      const i = todo.pop()!;
      for (let j = 0; j < n; j++) {
        if (comp[j] < 0 && j !== i && mrd[i][j] < w) {
          comp[j] = next;
          todo.push(j);
        }
      }
    }
    next++;
  }
  return comp;
}

function refTree(mrd: number[][], mcs: number): RefCluster[] {
  const n = mrd.length;
  const levels = [...new Set(mrd.flatMap((row, i) => row.filter((_, j) => j !== i)))].sort((a, b) => b - a);
  const clusters: RefCluster[] = [{ parent: -1, birth: 0, members: [...Array(n).keys()], leaves: new Map(), children: [] }];
  let alive: { id: number; rows: number[] }[] = [{ id: 0, rows: [...Array(n).keys()] }];
  if (n === 1) clusters[0].leaves.set(0, 0);
  for (const w of levels) {
    const lambda = w === 0 ? Infinity : 1 / w;
    const comp = refComponents(mrd, w);
    const nextAlive: typeof alive = [];
    for (const { id, rows } of alive) {
      const parts = new Map<number, number[]>();
      for (const r of rows) parts.set(comp[r], [...(parts.get(comp[r]) ?? []), r]);
      const big = [...parts.values()].filter((p) => p.length >= mcs);
      const leaveAll = (p: number[]): void => p.forEach((r) => clusters[id].leaves.set(r, lambda));
      for (const p of parts.values()) if (p.length < mcs) leaveAll(p);
      if (big.length === 1) nextAlive.push({ id, rows: big[0] });
      else if (big.length >= 2) {
        big.sort((a, b) => Math.min(...a) - Math.min(...b));
        for (const p of big) {
          leaveAll(p);
          const cid = clusters.length;
          clusters.push({ parent: id, birth: lambda, members: p, leaves: new Map(), children: [] });
          clusters[id].children.push(cid);
          nextAlive.push({ id: cid, rows: p });
        }
      }
    }
    alive = nextAlive;
  }
  return clusters;
}

function refStability(c: RefCluster): number {
  let s = 0;
  for (const lam of c.leaves.values()) s += lam === c.birth ? 0 : lam - c.birth;
  return s;
}

function refSelect(cl: RefCluster[], o: SelectionOptions): Set<number> {
  const desc = (c: number): number[] => cl[c].children.flatMap((ch) => [ch, ...desc(ch)]);
  let chosen = new Set<number>();
  if ((o.selection ?? 'eom') === 'eom') {
    // Recursive excess of mass: a cluster's value is max(own stability, sum of its children's values); ties keep it.
    const visit = (c: number): { value: number; picks: number[] } => {
      const kids = cl[c].children.map(visit);
      const sub = kids.reduce((a, k) => a + k.value, 0);
      const own = refStability(cl[c]);
      const mayPick = c !== 0 || o.allowSingleCluster;
      if (mayPick && !(sub > own)) return { value: own, picks: [c] };
      return { value: Math.max(sub, c === 0 ? sub : own), picks: kids.flatMap((k) => k.picks) };
    };
    chosen = new Set(visit(0).picks);
  } else {
    cl.forEach((c, id) => id !== 0 && c.children.length === 0 && chosen.add(id));
  }
  const eps = o.epsilon ?? 0;
  if (eps > 0 && !chosen.has(0)) {
    const moved = new Set<number>();
    for (const c of chosen) {
      let pick = c;
      if (1 / cl[c].birth < eps) {
        let x = c;
        for (;;) {
          const p = cl[x].parent;
          if (p === 0) {
            pick = o.allowSingleCluster ? 0 : x;
            break;
          }
          if (1 / cl[p].birth > eps) {
            pick = p;
            break;
          }
          x = p;
        }
      }
      moved.add(pick);
    }
    chosen = new Set([...moved].filter((c) => ![...moved].some((a) => a !== c && desc(a).includes(c))));
  }
  return chosen;
}

/** Reference labels (canonical renumbering applied by the caller). */
function refLabels(x: number[][], o: HdbscanOptions): { labels: number[]; tree: RefCluster[]; core: number[] } {
  const { mrd, core } = refMutualReachability(x, o.minSamples ?? o.minClusterSize);
  const cl = refTree(mrd, o.minClusterSize);
  const chosen = [...refSelect(cl, o)].sort((a, b) => a - b);
  const labels = new Array<number>(x.length).fill(-1);
  chosen.forEach((c, k) => {
    if (c !== 0) {
      for (const r of cl[c].members) labels[r] = k;
      return;
    }
    // The root as the single cluster: rows leaving it at its last λ (or at λ ≥ 1/ε).
    const rowLambda = new Map<number, number>();
    cl.forEach((cc) => cc.leaves.forEach((lam, r) => rowLambda.set(r, lam)));
    const rootMax = Math.max(...cl[0].leaves.values(), ...cl[0].children.map((ch) => cl[ch].birth));
    const threshold = (o.epsilon ?? 0) > 0 ? 1 / o.epsilon! : rootMax;
    for (let r = 0; r < x.length; r++) if (lastLambda(cl, r) >= threshold) labels[r] = k;
    void rowLambda;
  });
  return { labels, tree: cl, core };
}

/** λ at which a row leaves the deepest cluster it belongs to. */
function lastLambda(cl: RefCluster[], r: number): number {
  let lam = NaN;
  for (const c of cl) if (c.leaves.has(r) && !c.children.some((ch) => cl[ch].members.includes(r))) lam = c.leaves.get(r)!;
  return lam;
}

/** Renumbers labels by first appearance so that equal partitions compare equal. */
function canonical(labels: ArrayLike<number>): number[] {
  const map = new Map<number, number>();
  return Array.from(labels, (l) => {
    if (l < 0) return -1;
    if (!map.has(l)) map.set(l, map.size);
    return map.get(l)!;
  });
}

const flat = (x: number[][]): Float64Array => Float64Array.from(x.flat());

// ---------------------------------------------------------------------------------------------------------------
// A hand-checked example (1-D, minClusterSize 3, minSamples 2 so a core distance is the distance to the nearest
// other row). Rows: X1 = {0,1,2}, X2 = {4,5,6}, two stragglers −4 and 10, B = {26,27,28}.
//   core: 1 for X1, X2, B; 4 for −4 and 10.
//   mutual reachability along the line: 1 inside X1, X2, B; 2 between 2 and 4; 4 from −4 to 0 and from 6 to 10;
//   16 from 10 to 26.
// Condensed tree, λ = 1/distance:
//   root (11 rows) splits at distance 16 (λ 1/16) into X = {−4..10} (8 rows) and B (3 rows): both ≥ 3.
//   X loses −4 and 10 at distance 4 (λ 1/4): parts of 1 row < 3.
//   X splits at distance 2 (λ 1/2) into X1 and X2 (3 rows each).
//   X1, X2 and B fall apart at distance 1 (λ 1): every row leaves at λ 1.
// Stability Σ (λ leave − λ birth):
//   root: 11 × 1/16 = 0.6875
//   X:    2 × (1/4 − 1/16) + 6 × (1/2 − 1/16) = 0.375 + 2.625 = 3
//   X1:   3 × (1 − 1/2) = 1.5;  X2: 1.5;  B: 3 × (1 − 1/16) = 2.8125
// Excess of mass: X1 + X2 = 3 is not more than X's 3, so X is kept (ties keep the parent); B is kept; the root is
// never selected. Labels: X = all of −4..10 (the stragglers are members of X), B. Leaf selection: X1, X2, B and the
// stragglers are noise. Membership probability min(λ, death)/death: X's death is 1/2, so X1/X2 rows (λ 1) get 1 and
// the stragglers (λ 1/4) get 0.5. GLOSH: the stragglers leave X at 1/4 while X's subtree lasts to λ 1: 0.75.
// ---------------------------------------------------------------------------------------------------------------
const HAND = [[0], [1], [2], [4], [5], [6], [-4], [10], [26], [27], [28]];

test('hand example: condensed tree, stabilities and selections', async () => {
  for (const algorithm of ['prim', 'boruvka'] as const) {
    const r = await hdbscan(flat(HAND), 11, 1, { minClusterSize: 3, minSamples: 2, algorithm });
    assert.deepEqual(Array.from(r.coreDistances), [1, 1, 1, 1, 1, 1, 4, 4, 1, 1, 1]);
    const cl = r.tree.clusters;
    assert.deepEqual(
      cl.map((c) => [c.id, c.parent, c.size, c.lambdaBirth, c.lambdaDeath, c.stability]),
      [
        [0, -1, 11, 0, 1 / 16, 0.6875],
        [1, 0, 8, 1 / 16, 1 / 2, 3], // X
        [2, 0, 3, 1 / 16, 1, 2.8125], // B
        [3, 1, 3, 1 / 2, 1, 1.5], // X1
        [4, 1, 3, 1 / 2, 1, 1.5], // X2
      ],
    );
    assert.deepEqual(cl.map((c) => c.children), [[1, 2], [3, 4], [], [], []]);
    assert.deepEqual(Array.from(r.labels), [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
    assert.deepEqual(r.selectedClusters, [1, 2]);
    assert.deepEqual(Array.from(r.probabilities), [1, 1, 1, 1, 1, 1, 0.5, 0.5, 1, 1, 1]);
    assert.deepEqual(Array.from(r.outlierScores), [0, 0, 0, 0, 0, 0, 0.75, 0.75, 0, 0, 0]);
    // Members of X with the λ at which they leave it directly; all rows of X including its children.
    assert.deepEqual(directMembers(r.tree, 1), { rows: Int32Array.from([6, 7]), lambdas: Float64Array.from([0.25, 0.25]) });
    assert.deepEqual([...clusterRows(r.tree, 1)].sort((a, b) => a - b), [0, 1, 2, 3, 4, 5, 6, 7]);
    assert.deepEqual([...clusterRows(r.tree, 3)], [0, 1, 2]);
    // persistence = stability / (size × largest λ of the tree = 1)
    assert.deepEqual(Array.from(r.persistence), [3 / 8, 2.8125 / 3]);

    const leaf = selectClusters(r.tree, { minClusterSize: 3, selection: 'leaf' });
    assert.deepEqual(Array.from(leaf.labels), [1, 1, 1, 2, 2, 2, -1, -1, 0, 0, 0]);
    assert.deepEqual(leaf.selectedClusters, [2, 3, 4]);
    // ε = 3: X1 and X2 were born at distance 2 < 3, so their parent X (born at 16) replaces them.
    const eps3 = selectClusters(r.tree, { minClusterSize: 3, selection: 'leaf', epsilon: 3 });
    assert.deepEqual(Array.from(eps3.labels), [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
    // ε = 20 with a single cluster allowed: everything merges into the root; rows with λ ≥ 1/20 are in it.
    const eps20 = selectClusters(r.tree, { minClusterSize: 3, epsilon: 20, allowSingleCluster: true });
    assert.deepEqual(Array.from(eps20.labels), new Array(11).fill(0));
    assert.deepEqual(eps20.selectedClusters, [0]);
    // ε = 20 without it: a child of the root is as high as a cluster may go.
    const eps20b = selectClusters(r.tree, { minClusterSize: 3, epsilon: 20 });
    assert.deepEqual(Array.from(eps20b.labels), [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
  }
});

test('hand example with min cluster size 4: root only; a single cluster keeps the rows that stay longest', async () => {
  // At distance 16 B (3 rows) leaves the root; at 4 the stragglers leave; at 2 X1 and X2 (3 rows each, < 4) leave
  // together at λ 1/2. The root's stability: 3/16 + 2/4 + 6/2 = 3.6875. No split → no cluster unless the root is
  // allowed, and then only the rows leaving at the root's last λ (1/2) are in it.
  const r = await hdbscan(flat(HAND), 11, 1, { minClusterSize: 4, minSamples: 2 });
  assert.equal(r.tree.clusters.length, 1);
  assert.equal(r.tree.clusters[0].stability, 3.6875);
  assert.deepEqual(Array.from(r.labels), new Array(11).fill(-1));
  const single = selectClusters(r.tree, { minClusterSize: 4, allowSingleCluster: true });
  assert.deepEqual(Array.from(single.labels), [0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1]);
  assert.deepEqual(Array.from(single.probabilities), [1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0]);
  const leaf = selectClusters(r.tree, { minClusterSize: 4, selection: 'leaf', allowSingleCluster: true });
  assert.deepEqual(Array.from(leaf.labels), new Array(11).fill(-1));
});

// ---------------------------------------------------------------------------------------------------------------
// Random small sets against the reference.
// ---------------------------------------------------------------------------------------------------------------

function randomSet(seed: number): { x: number[][]; o: HdbscanOptions } {
  const r = rng(seed);
  const n = 8 + Math.floor(r() * 53); // 8..60
  const d = 1 + Math.floor(r() * 6);
  const kind = seed % 4;
  const x: number[][] = [];
  const centres = Array.from({ length: 1 + Math.floor(r() * 4) }, () => Array.from({ length: d }, () => r() * 20));
  for (let i = 0; i < n; i++) {
    if (kind === 1 && i > 2 && r() < 0.3) {
      x.push([...x[Math.floor(r() * i)]]); // exact duplicates
      continue;
    }
    const c = centres[Math.floor(r() * centres.length)];
    const spread = 0.5 + r() * 2;
    // kind 2: integer grid (many tied distances); others continuous.
    x.push(c.map((v) => (kind === 2 ? Math.round(v + (r() - 0.5) * 4 * spread) : v + (r() + r() + r() - 1.5) * spread)));
  }
  if (kind === 3) for (let i = 0; i < n; i += 5) x[i] = x[i].map((v) => v * 3); // stragglers
  const minClusterSize = 2 + Math.floor(r() * 6);
  const o: HdbscanOptions = {
    minClusterSize,
    minSamples: 1 + Math.floor(r() * 6),
    selection: r() < 0.3 ? 'leaf' : 'eom',
    allowSingleCluster: r() < 0.3,
    epsilon: r() < 0.25 ? r() * 3 : 0,
  };
  return { x, o };
}

test('random small sets: labels, condensed tree and stabilities equal the brute-force reference', async () => {
  let clustered = 0;
  for (let seed = 1; seed <= 240; seed++) {
    const { x, o } = randomSet(seed);
    const ref = refLabels(x, o);
    for (const algorithm of ['prim', 'boruvka'] as const) {
      const got = await hdbscan(flat(x), x.length, x[0].length, { ...o, algorithm });
      const what = `seed ${seed} ${algorithm} ${JSON.stringify(o)}`;
      assert.deepEqual(Array.from(got.coreDistances), ref.core, what);
      assert.deepEqual(canonical(got.labels), canonical(ref.labels), what);
      // Same clusters (matched by their rows; the two number them in different orders), parents, births, sizes.
      const cl = got.tree.clusters;
      assert.equal(cl.length, ref.tree.length, what);
      const key = (rows: Iterable<number>): string => [...rows].sort((a, b) => a - b).join(',');
      const refByKey = new Map(ref.tree.map((rc, i) => [key(rc.members), i]));
      const match = cl.map((c) => refByKey.get(key(clusterRows(got.tree, c.id))));
      for (let c = 0; c < cl.length; c++) {
        assert.notEqual(match[c], undefined, `${what}: cluster ${c} has no counterpart`);
        const rc = ref.tree[match[c]!];
        assert.equal(c === 0 ? -1 : match[cl[c].parent], rc.parent, what);
        assert.equal(cl[c].lambdaBirth, rc.birth, what);
        assert.equal(cl[c].size, rc.members.length, what);
        const want = refStability(rc);
        assert.ok(want === cl[c].stability || Math.abs(want - cl[c].stability) <= 1e-12 * Math.abs(want), `${what}: stability of ${c}`);
      }
    }
    if (new Set(ref.labels.filter((l) => l >= 0)).size >= 2) clustered++;
  }
  // The sets must exercise real multi-cluster outcomes, not just all-noise answers.
  assert.ok(clustered >= 100, `only ${clustered} sets had two or more clusters`);
});

test('condensing checks its inputs', () => {
  const mst = { from: Int32Array.from([0, 1]), to: Int32Array.from([1, 0]), weight: Float64Array.from([1, 2]) };
  assert.throws(() => condenseTree(3, mst, 2), /cycle/);
  assert.throws(() => condenseTree(3, { ...mst, weight: Float64Array.from([1, NaN]) }, 2), /finite/);
  assert.throws(() => condenseTree(3, mst, 1), /min cluster size/);
});

test('bad input is one clear error', async () => {
  await assert.rejects(hdbscan(Float64Array.from([0, NaN]), 2, 1, { minClusterSize: 2 }), /row 1, column 0 is NaN/);
  await assert.rejects(hdbscan(Float64Array.from([0, 1, 2]), 2, 1, { minClusterSize: 2 }), /expected 2 × 1/);
  await assert.rejects(hdbscan(Float64Array.from([0, 1]), 2, 1, { minClusterSize: 1 }), /min cluster size/);
  await assert.rejects(hdbscan(Float64Array.from([0, 1]), 2, 1, { minClusterSize: 2, minSamples: 0 }), /min samples/);
  await assert.rejects(hdbscan(Float64Array.from([0, 1]), 2, 1, { minClusterSize: 2, selection: 'x' as never }), /selection method/);
});

test('one row and two rows', async () => {
  const one = await hdbscan(Float64Array.from([5]), 1, 1, { minClusterSize: 2 });
  assert.deepEqual(Array.from(one.labels), [-1]);
  const two = await hdbscan(Float64Array.from([0, 0]), 2, 1, { minClusterSize: 2, allowSingleCluster: true });
  // Two identical rows: core distance 0, they part at λ = ∞ and are the single cluster.
  assert.deepEqual(Array.from(two.labels), [0, 0]);
  assert.deepEqual(Array.from(two.tree.pointLambda), [Infinity, Infinity]);
});
