/**
 * Tables of values — store query results and summaries — as terminal text, CSV and Markdown. Every cell may hold
 * text from a log (exe, file names), so each format escapes it with the one rule of `text/escape.ts`.
 */
import { escapeCsv, escapeMarkdown, escapeTerminal } from '../text/escape.js';

export type Value = string | number | boolean | null | Value[] | { [k: string]: Value };

function cellText(v: Value): string {
  if (v === null) return '';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Math.round(v * 1e6) / 1e6);
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

/** An aligned text table, numbers right-aligned; long cells are cut at `maxWidth` characters. */
export function tableText(columns: readonly string[], rows: readonly Value[][], maxWidth = 60): string {
  const text = rows.map((r) => r.map((v) => {
    const s = escapeTerminal(cellText(v));
    return s.length > maxWidth ? `${s.slice(0, maxWidth - 1)}…` : s;
  }));
  const heads = columns.map((c) => escapeTerminal(c));
  const widths = heads.map((h, i) => Math.max(h.length, ...text.map((r) => r[i].length)));
  const numeric = columns.map((_, i) => rows.length > 0 && rows.every((r) => r[i] === null || typeof r[i] === 'number'));
  const pad = (s: string, i: number) => (numeric[i] ? s.padStart(widths[i]) : s.padEnd(widths[i]));
  const lines = [heads.map(pad).join('  ').trimEnd(), widths.map((w) => '-'.repeat(w)).join('  ')];
  for (const r of text) lines.push(r.map(pad).join('  ').trimEnd());
  return lines.join('\n') + '\n';
}

/** A CSV cell (text escaped by the one CSV rule of `text/escape.ts`). */
export function csvCell(v: Value): string {
  return typeof v === 'number' ? cellText(v) : v === null ? '' : escapeCsv(cellText(v));
}

export function tableCsv(columns: readonly string[], rows: readonly Value[][]): string {
  const out = [columns.map((c) => csvCell(c)).join(',')];
  for (const r of rows) out.push(r.map(csvCell).join(','));
  return out.join('\r\n') + '\r\n';
}

export function markdownCell(v: Value): string {
  return typeof v === 'number' ? cellText(v) : escapeMarkdown(cellText(v));
}

export function tableMarkdown(columns: readonly string[], rows: readonly Value[][]): string {
  const numeric = columns.map((_, i) => rows.length > 0 && rows.every((r) => r[i] === null || typeof r[i] === 'number'));
  const out = [`| ${columns.map((c) => markdownCell(c)).join(' | ')} |`, `| ${numeric.map((n) => (n ? '---:' : '---')).join(' | ')} |`];
  for (const r of rows) out.push(`| ${r.map(markdownCell).join(' | ')} |`);
  return out.join('\n') + '\n';
}

export function rowsToObjects(columns: readonly string[], rows: readonly Value[][]): Record<string, Value>[] {
  return rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]])));
}
