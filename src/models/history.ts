import { InputError } from '../contract/errors.js';
import type { Table } from '../learn/index.js';

/**
 * App history (issue 14, item 6): for each job, what the same application of the same user achieved before it.
 * Two features: `history_median`, the median target of the group's previous `k` jobs with a measured target, and
 * `history_runs`, how many there were (at most k). "Previous" means **strictly earlier** by the time column: a job
 * never sees itself, a job that started at the same instant, or anything later. A job without a time, or whose
 * group has no earlier job, gets NaN (missing: the trees send it its own way) and 0 runs.
 *
 * A model file keeps the last k jobs of every group of its training rows (`tail`), so a job predicted later, from a
 * store or from its log alone, gets the same history whichever way it comes; jobs of the predicted table itself
 * join the tail (a job present in both, by key, counts once).
 */

export const HISTORY_FEATURES = ['history_median', 'history_runs'] as const;

/** How history is formed: the group columns, how many earlier runs, and the columns it reads. */
export interface HistorySettings {
  readonly by: readonly string[];
  readonly k: number;
  readonly timeColumn: string;
  readonly target: string;
}

/** A past job: group, time, target value (target units) and key (to count a job once). */
export interface HistoryEntry {
  readonly group: string;
  readonly time: number;
  readonly y: number;
  readonly key: string;
}

function cell(col: Table['columns'][string], r: number): string {
  const v = col[r];
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isNaN(v) ? '' : String(v);
  return v;
}

/** The group of every row: the values of the `by` columns joined (missing values count as ''). */
export function groupsOf(table: Table, by: readonly string[]): string[] {
  const cols = by.map((b) => {
    const c = table.columns[b];
    if (c === undefined) throw new InputError(`no history column ${b} in the table`);
    return c;
  });
  return Array.from({ length: table.nRows }, (_, r) => cols.map((c) => cell(c, r)).join('\u001f'));
}

function numeric(table: Table, name: string, what: string): Float64Array {
  const c = table.columns[name];
  if (!(c instanceof Float64Array)) throw new InputError(c === undefined ? `no ${what} column ${name} in the table` : `${what} column ${name} is not numeric`);
  return c;
}

/** The table's rows as history entries: those with a time and a measured (non-negative) target. */
export function entriesOf(table: Table, s: HistorySettings, keys: readonly string[]): HistoryEntry[] {
  const groups = groupsOf(table, s.by);
  const time = numeric(table, s.timeColumn, 'time');
  const y = numeric(table, s.target, 'target');
  const out: HistoryEntry[] = [];
  for (let r = 0; r < table.nRows; r++) if (Number.isFinite(time[r]) && y[r] >= 0) out.push({ group: groups[r], time: time[r], y: y[r], key: keys[r] });
  return out;
}

const byTimeThenKey = (a: HistoryEntry, b: HistoryEntry): number => a.time - b.time || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * The history features of `table`'s rows from `entries` (past jobs; an entry whose key is a row's own key is that
 * row). Returns `history_median` (target units, NaN when none) and `history_runs`.
 */
export function historyFeatures(table: Table, s: HistorySettings, keys: readonly string[], entries: readonly HistoryEntry[]): Record<(typeof HISTORY_FEATURES)[number], Float64Array> {
  if (!(Number.isInteger(s.k) && s.k >= 1)) throw new InputError(`history needs k ≥ 1 earlier runs, got ${s.k}`);
  const byGroup = new Map<string, HistoryEntry[]>();
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.key)) continue;
    seen.add(e.key);
    let list = byGroup.get(e.group);
    if (!list) byGroup.set(e.group, (list = []));
    list.push(e);
  }
  for (const list of byGroup.values()) list.sort(byTimeThenKey);
  const groups = groupsOf(table, s.by);
  const time = numeric(table, s.timeColumn, 'time');
  const med = new Float64Array(table.nRows).fill(NaN);
  const runs = new Float64Array(table.nRows);
  for (let r = 0; r < table.nRows; r++) {
    const list = byGroup.get(groups[r]);
    const t = time[r];
    if (!list || !Number.isFinite(t)) continue;
    // Entries strictly before t: the first index whose time is ≥ t.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].time < t) lo = mid + 1;
      else hi = mid;
    }
    const prev = list.slice(Math.max(0, lo - s.k), lo).map((e) => e.y);
    if (prev.length === 0) continue;
    med[r] = median(prev);
    runs[r] = prev.length;
  }
  return { history_median: med, history_runs: runs };
}

/** The last k entries of every group (what a model file keeps), ordered by group, then time. */
export function historyTail(entries: readonly HistoryEntry[], k: number): HistoryEntry[] {
  const byGroup = new Map<string, HistoryEntry[]>();
  for (const e of entries) {
    let list = byGroup.get(e.group);
    if (!list) byGroup.set(e.group, (list = []));
    list.push(e);
  }
  const out: HistoryEntry[] = [];
  for (const g of [...byGroup.keys()].sort()) out.push(...(byGroup.get(g) as HistoryEntry[]).sort(byTimeThenKey).slice(-k));
  return out;
}
