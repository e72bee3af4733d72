import { IdSlots } from '../util/id-hash.js';

/**
 * Groups rows by 64-bit record id without per-row objects: returns the distinct ids in ascending (unsigned) order —
 * the order of a pandas `groupby('id')`, which Drishti's detail lines follow — and each row's group index.
 * `include` selects rows (all when omitted); excluded rows get group −1.
 */
export interface IdGroups {
  readonly keys: BigUint64Array;
  readonly groupOf: Int32Array;
}

const allRowsCache = new WeakMap<BigUint64Array, IdGroups>();

/** `groupById` over all rows, computed once per id column (several facts group the same table). */
export function groupAllById(ids: BigUint64Array): IdGroups {
  let g = allRowsCache.get(ids);
  if (!g) {
    g = hashGroups(ids);
    allRowsCache.set(ids, g);
  }
  return g;
}

/**
 * Groups the rows `include` selects (all when omitted). Derived from the column's grouping of all rows (hashed once
 * per column, however many facts group it): the groups with a selected row, in the same ascending order.
 */
export function groupById(ids: BigUint64Array, include?: (row: number) => boolean): IdGroups {
  const all = groupAllById(ids);
  if (!include) return all;
  const n = ids.length;
  const picked = new Uint8Array(n);
  const newIndex = new Int32Array(all.keys.length).fill(-1);
  for (let r = 0; r < n; r++) {
    if (!include(r)) continue;
    picked[r] = 1;
    newIndex[all.groupOf[r]] = 0;
  }
  let distinct = 0;
  for (let g = 0; g < newIndex.length; g++) if (newIndex[g] === 0) newIndex[g] = distinct++;
  const keys = new BigUint64Array(distinct);
  for (let g = 0; g < newIndex.length; g++) if (newIndex[g] >= 0) keys[newIndex[g]] = all.keys[g];
  const groupOf = new Int32Array(n).fill(-1);
  for (let r = 0; r < n; r++) if (picked[r]) groupOf[r] = newIndex[all.groupOf[r]];
  return { keys, groupOf };
}

function hashGroups(ids: BigUint64Array): IdGroups {
  // Open addressing on the two 32-bit halves of each id: no BigInt arithmetic and no Map in the loop, so 50 000
  // records group in a few milliseconds. Keys are written and read through the same Uint32 view, so the platform's
  // byte order does not matter.
  const n = ids.length;
  const u = new Uint32Array(ids.buffer, ids.byteOffset, n * 2);
  const t = new IdSlots(n);
  const slotOf = new Int32Array(n);
  for (let r = 0; r < n; r++) slotOf[r] = t.add(u[2 * r], u[2 * r + 1]);
  const distinct = t.count;
  const keys = new BigUint64Array(distinct);
  const kv = new Uint32Array(keys.buffer);
  let k = 0;
  for (let h = 0; h < t.size; h++) {
    if (!t.used[h]) continue;
    kv[2 * k] = t.lo[h];
    kv[2 * k + 1] = t.hi[h];
    k++;
  }
  keys.sort();
  const slotRank = new Int32Array(t.size);
  for (let i = 0; i < distinct; i++) slotRank[t.find(kv[2 * i], kv[2 * i + 1])] = i;
  const groupOf = new Int32Array(n);
  for (let r = 0; r < n; r++) groupOf[r] = slotRank[slotOf[r]];
  return { keys, groupOf };
}

/** Sums `col` per group. */
export function sumByGroup(g: IdGroups, col: Float64Array): Float64Array {
  const out = new Float64Array(g.keys.length);
  const go = g.groupOf;
  for (let r = 0; r < go.length; r++) if (go[r] >= 0) out[go[r]] += col[r];
  return out;
}

/** Maximum of `col` per group (−Infinity for an empty group). */
export function maxByGroup(g: IdGroups, col: Float64Array): Float64Array {
  const out = new Float64Array(g.keys.length).fill(-Infinity);
  const go = g.groupOf;
  for (let r = 0; r < go.length; r++) if (go[r] >= 0 && col[r] > out[go[r]]) out[go[r]] = col[r];
  return out;
}

/** Minimum of `col` per group (+Infinity for an empty group). */
export function minByGroup(g: IdGroups, col: Float64Array): Float64Array {
  const out = new Float64Array(g.keys.length).fill(Infinity);
  const go = g.groupOf;
  for (let r = 0; r < go.length; r++) if (go[r] >= 0 && col[r] < out[go[r]]) out[go[r]] = col[r];
  return out;
}

/** Number of rows per group. */
export function countByGroup(g: IdGroups): Float64Array {
  const out = new Float64Array(g.keys.length);
  const go = g.groupOf;
  for (let r = 0; r < go.length; r++) if (go[r] >= 0) out[go[r]]++;
  return out;
}

/** Σ col over all rows. */
export function sum(col: Float64Array): number {
  let s = 0;
  for (let i = 0; i < col.length; i++) s += col[i];
  return s;
}

/** Element-wise sum of several columns. */
export function addColumns(cols: readonly Float64Array[], n: number): Float64Array {
  const out = new Float64Array(n);
  for (const c of cols) for (let i = 0; i < n; i++) out[i] += c[i];
  return out;
}
