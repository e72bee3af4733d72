/**
 * Darshan's "common value" counters (the four most frequent access sizes, the four most frequent strides) as its
 * runtime computes them (darshan-common.h):
 * - per record, a search tree holds the first 32 distinct values seen (zero included) with their frequencies;
 *   a value seen after the tree is full is not counted at all;
 * - after every access the four counter slots are updated with the accessed value's frequency, kept sorted by
 *   count, then by value (larger first), and a zero value never enters them.
 * Because slots only ever hold a value's current frequency and the weakest slot only grows, the slots at the end
 * are exactly the top four of the tree by (frequency, value), zero left out, which is what `top4` returns.
 */

/** Darshan's DARSHAN_COMMON_VAL_MAX_RUNTIME_COUNT. */
export const COMMON_VALUE_LIMIT = 32;

/** The distinct values of one record with their frequencies (first 32 only). */
export class CommonValues {
  readonly values: number[] = [];
  readonly counts: number[] = [];
  private last = -1;

  /** Counts one occurrence of `v` (ignored when the tree is full and `v` is new). */
  add(v: number): void {
    const vs = this.values;
    if (this.last >= 0 && vs[this.last] === v) {
      this.counts[this.last]++;
      return;
    }
    for (let i = 0; i < vs.length; i++) {
      if (vs[i] === v) {
        this.counts[i]++;
        this.last = i;
        return;
      }
    }
    if (vs.length < COMMON_VALUE_LIMIT) {
      this.last = vs.length;
      vs.push(v);
      this.counts.push(1);
    }
  }

  /** The four counter slots: values and counts, most frequent first (ties: larger value first), zero-padded. */
  top4(): { values: number[]; counts: number[] } {
    const order: number[] = [];
    for (let i = 0; i < this.values.length; i++) if (this.values[i] !== 0) order.push(i);
    order.sort((a, b) => this.counts[b] - this.counts[a] || this.values[b] - this.values[a]);
    const values = [0, 0, 0, 0];
    const counts = [0, 0, 0, 0];
    for (let k = 0; k < 4 && k < order.length; k++) {
      values[k] = this.values[order[k]];
      counts[k] = this.counts[order[k]];
    }
    return { values, counts };
  }
}

/**
 * DARSHAN_UPDATE_COMMON_VAL_COUNTERS: offers `value` with `count` to the four sorted slots (`vals`, `cnts`, both
 * length 4, updated in place). With `add`, a slot already holding `value` adds its count to the offered one.
 */
export function updateCommonSlots(vals: number[], cnts: number[], value: number, count: number, add: boolean): void {
  if (value === 0) return;
  let total = count;
  if (add) {
    for (let i = 0; i < 4; i++) {
      if (vals[i] === value) {
        total += cnts[i];
        break;
      }
    }
  }
  const tv: number[] = [];
  const tc: number[] = [];
  let i = 0;
  for (; i < 4; i++) {
    if (cnts[i] > total || (cnts[i] === total && vals[i] > value)) {
      tv.push(vals[i]);
      tc.push(cnts[i]);
    } else break;
  }
  if (tv.length === 4) return;
  tv.push(value);
  tc.push(total);
  for (; tv.length < 4 && i < 4; i++) {
    if (vals[i] !== value) {
      tv.push(vals[i]);
      tc.push(cnts[i]);
    }
  }
  while (tv.length < 4) {
    tv.push(0);
    tc.push(0);
  }
  for (let k = 0; k < 4; k++) {
    vals[k] = tv[k];
    cnts[k] = tc[k];
  }
}

/**
 * The shared-record reduction of two records' common-value slots (darshan-posix.c `posix_record_reduction_op`):
 * duplicates of `inVals` in `ioVals` are folded into `inCnts` first (and cleared from the second set), then both
 * sets are offered, in that order, to empty slots with counts added. Inputs are modified as Darshan modifies them.
 */
export function mergeCommonSlots(inVals: number[], inCnts: number[], ioVals: number[], ioCnts: number[]): { values: number[]; counts: number[] } {
  for (let j = 0; j < 4; j++) {
    for (let k = 0; k < 4; k++) {
      if (inVals[j] === ioVals[k]) {
        inCnts[j] += ioCnts[k];
        ioVals[k] = 0;
        ioCnts[k] = 0;
      }
    }
  }
  const values = [0, 0, 0, 0];
  const counts = [0, 0, 0, 0];
  for (let j = 0; j < 4; j++) updateCommonSlots(values, counts, inVals[j], inCnts[j], true);
  for (let j = 0; j < 4; j++) updateCommonSlots(values, counts, ioVals[j], ioCnts[j], true);
  return { values, counts };
}
