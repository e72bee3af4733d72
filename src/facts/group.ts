/**
 * Groups rows by 64-bit record id without per-row objects: returns the distinct ids in ascending (unsigned) order —
 * the order of a pandas `groupby('id')`, which Drishti's detail lines follow — and each row's group index.
 * `include` selects rows (all when omitted); excluded rows get group −1.
 */
export interface IdGroups {
  readonly keys: BigUint64Array;
  readonly groupOf: Int32Array;
}

export function groupById(ids: BigUint64Array, include?: (row: number) => boolean): IdGroups {
  const n = ids.length;
  const firstSeen = new Map<bigint, number>();
  for (let r = 0; r < n; r++) {
    if (include && !include(r)) continue;
    const id = ids[r];
    if (!firstSeen.has(id)) firstSeen.set(id, firstSeen.size);
  }
  const keys = new BigUint64Array(firstSeen.size);
  let i = 0;
  for (const id of firstSeen.keys()) keys[i++] = id;
  keys.sort();
  const index = new Map<bigint, number>();
  for (let k = 0; k < keys.length; k++) index.set(keys[k], k);
  const groupOf = new Int32Array(n).fill(-1);
  for (let r = 0; r < n; r++) {
    if (include && !include(r)) continue;
    groupOf[r] = index.get(ids[r])!;
  }
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
