/**
 * Human-readable numbers for every text output: byte volumes in IEC units (KiB, MiB, GiB — 1024-based, named as
 * such), durations, percentages, counts. One formatter each, so `report`, `trace`, `summary` and the web pages
 * print the same quantity the same way.
 */

const IEC = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/** `512 B`, `1.50 KiB`, `17.5 MiB`, `120 GiB`: three significant digits, 1024-based units. */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  let i = 0;
  let v = n;
  while (Math.abs(v) >= 1024 && i < IEC.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${Math.round(v)} B` : `${v.toFixed(Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2)} ${IEC[i]}`;
}

/** `1.2 µs`, `3.40 ms`, `2.50 s`, `120 s`, `1 h 05 min` for long ones. */
export function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return String(s);
  const a = Math.abs(s);
  if (a >= 3600) {
    const h = Math.floor(a / 3600);
    const m = Math.round((a - h * 3600) / 60);
    return `${s < 0 ? '-' : ''}${m === 60 ? h + 1 : h} h ${String(m === 60 ? 0 : m).padStart(2, '0')} min`;
  }
  if (a >= 100) return `${s.toFixed(0)} s`;
  if (a >= 1) return `${s.toFixed(2)} s`;
  if (a >= 1e-3) return `${(s * 1e3).toFixed(2)} ms`;
  if (a === 0) return '0 s';
  return `${(s * 1e6).toFixed(1)} µs`;
}

/** A ratio (0–1) as a percentage: `37.5%`, whole numbers near 0 and 100 %. */
export function formatPercent(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  return `${(x * 100).toFixed(x >= 0.995 || x === 0 ? 0 : 1)}%`;
}

/** A count with thousands separators: `1,234,567`. */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** `1 warning`, `3 warnings` (an English plural with `s`, or the given plural form). */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : pluralForm}`;
}

/** Bandwidth in IEC units per second: `812 MiB/s`. */
export function formatRate(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** Compresses a sorted list of integers into ranges: [0, 1, 2, 5] → "0-2, 5" (`sep` between the ranges). */
export function formatRanges(xs: readonly number[], sep = ', '): string {
  const parts: string[] = [];
  for (let i = 0; i < xs.length; ) {
    let j = i;
    while (j + 1 < xs.length && xs[j + 1] === xs[j] + 1) j++;
    parts.push(i === j ? String(xs[i]) : `${xs[i]}-${xs[j]}`);
    i = j + 1;
  }
  return parts.join(sep);
}
