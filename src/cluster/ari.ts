// Adjusted Rand index (Hubert & Arabie 1985) between two labelings of the same rows. Every label value, -1 (noise)
// included, is one group — as scikit-learn's adjusted_rand_score treats it. Computed from the pair confusion
// matrix in integers (BigInt for the products), so the only rounding is the final division.

export function adjustedRandIndex(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  if (b.length !== n) throw new Error(`labelings differ in length: ${n} and ${b.length}`);
  const rows = new Map<number, number>();
  const cols = new Map<number, number>();
  const cells = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    rows.set(a[i], (rows.get(a[i]) ?? 0) + 1);
    cols.set(b[i], (cols.get(b[i]) ?? 0) + 1);
    const key = `${a[i]},${b[i]}`;
    cells.set(key, (cells.get(key) ?? 0) + 1);
  }
  const sumSq = (m: Map<unknown, number>): number => {
    let s = 0;
    for (const v of m.values()) s += v * v;
    return s;
  };
  // Ordered pairs of distinct rows: together in both (tp), only in b (fp), only in a (fn), in neither (tn).
  const both = sumSq(cells);
  const tp = BigInt(both - n);
  const fp = BigInt(sumSq(cols) - both);
  const fn = BigInt(sumSq(rows) - both);
  const tn = BigInt(n) * BigInt(n) - fp - fn - BigInt(both);
  if (fp === 0n && fn === 0n) return 1;
  const num = 2n * (tp * tn - fn * fp);
  const den = (tp + fn) * (fn + tn) + (tp + fp) * (fp + tn);
  return Number(num) / Number(den);
}
