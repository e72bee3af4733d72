/** Small statistics shared by the model, clustering and service layers. */

/** The q-quantile of ascending `sorted` with linear interpolation between order statistics (numpy's default); NaN when empty. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const pos = (n - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** Pearson correlation of two equally long series; 0 when there are fewer than two values or either does not vary. */
export function pearson(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  if (n < 2) return 0;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i];
    mb += b[i];
  }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) ** 2;
    sbb += (b[i] - mb) ** 2;
  }
  return saa > 0 && sbb > 0 ? sab / Math.sqrt(saa * sbb) : 0;
}

/**
 * The median of `a[0, n)` (the mean of the two middle values when n is even), found by selection in linear time:
 * the order of `a[0, n)` changes. The same value as sorting and taking the middle, NaNs included (they sort last).
 */
export function medianInPlace(a: Float64Array, n: number): number {
  if (n <= 0) return NaN;
  for (let i = 0; i < n; i++) if (a[i] !== a[i]) {
    const s = a.subarray(0, n).sort();
    return n % 2 ? s[n >> 1] : (s[(n >> 1) - 1] + s[n >> 1]) / 2;
  }
  const k = n >> 1;
  select(a, 0, n - 1, k);
  if (n % 2) return a[k];
  // the largest value left of k is the (k-1)-th order statistic
  let below = a[0];
  for (let i = 1; i < k; i++) if (a[i] > below) below = a[i];
  return (below + a[k]) / 2;
}

/** Puts the k-th smallest of a[lo, hi] at k, smaller-or-equal values before it and larger-or-equal after (Hoare). */
function select(a: Float64Array, lo: number, hi: number, k: number): void {
  while (hi > lo) {
    // median of three as the pivot: sorted or reversed runs (DXT durations often are) stay linear
    const mid = lo + ((hi - lo) >> 1);
    if (a[mid] < a[lo]) swap(a, mid, lo);
    if (a[hi] < a[lo]) swap(a, hi, lo);
    if (a[hi] < a[mid]) swap(a, hi, mid);
    const pivot = a[mid];
    let i = lo, j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        swap(a, i, j);
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}
