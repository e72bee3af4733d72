import type { Value } from '../render/table.js';

/** Converts a DuckDB JS value (bigint, Date-like objects, lists) to plain JSON-able data. */
export function plain(v: unknown): Value {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'object') {
    const o = v as { items?: unknown[]; entries?: Record<string, unknown>; toString(): string };
    if (Array.isArray(o.items)) return o.items.map(plain);
    if (o.entries && typeof o.entries === 'object') {
      const out: Record<string, Value> = {};
      for (const [k, x] of Object.entries(o.entries)) out[k] = plain(x);
      return out;
    }
    return o.toString();
  }
  return String(v);
}
