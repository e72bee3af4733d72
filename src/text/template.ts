import type { MessageData } from '../contract/index.js';
import { formatBytes, formatSeconds } from './format.js';

/**
 * Number formatting shared by message templates. Drishti prints with Python's `format`, so the helpers round the
 * way Python does (half-to-even on the exact binary value) to give the same digits.
 */

/** Python's `'{:.Nf}'.format(x)`: fixed decimals, ties (exact binary halves) to even. */
export function pyFixed(x: number, digits: number): string {
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : x < 0 ? '-inf' : 'nan';
  const s = x.toFixed(digits);
  // toFixed rounds exact ties away from zero; Python rounds them to even. A tie needs the exact expansion to be
  // ...5000…, which toFixed(digits + 60) shows (doubles have at most ~1074 significant binary digits, but a tie at
  // `digits` only happens for short dyadic fractions, which this length covers).
  const long = Math.abs(x).toFixed(Math.min(100, digits + 60));
  const dot = long.indexOf('.');
  const tail = long.slice(dot + 1 + digits);
  if (tail.length > 0 && tail[0] === '5' && /^50*$/.test(tail)) {
    const lastDigit = Number(s[s.length - 1] === '.' ? '0' : s[s.length - 1]);
    if (lastDigit % 2 === 1) {
      // toFixed went up to an odd digit: step back down one unit in the last place.
      const down = (Math.abs(x) - 0.5 * 10 ** -digits).toFixed(digits);
      return (x < 0 ? '-' : '') + down;
    }
  }
  return s;
}

/** Python's `str(float)` / `repr`: shortest round-trip digits, always with a decimal point. */
export function pyFloat(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : x < 0 ? '-inf' : 'nan';
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return x.toFixed(1);
  const s = String(x);
  // JS writes 1e-7 and 1e+21; Python writes 1e-07 and 1e+21.
  return s.replace(/e([+-])(\d)$/, 'e$10$2');
}

/** Python's `round(x, 2)` then `str()`. */
function pyRound2Str(x: number): string {
  return pyFloat(Number(pyFixed(x, 2)));
}

const BYTE_TAGS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/** A byte count in 1024-based units with up to two decimals, as Drishti prints volumes (`17.47 MB`). */
export function humanBytes(n: number): string {
  let i = 0;
  let v = n;
  while (i < BYTE_TAGS.length - 1 && v >= 1024) {
    v /= 1024;
    i++;
  }
  return `${i === 0 && Number.isInteger(v) ? String(v) : pyRound2Str(v)} ${BYTE_TAGS[i]}`;
}

/**
 * Placeholder formats of message templates: `{name}` prints the value as is (integers without grouping);
 * `{name:pct}` a ratio as a percentage with two decimals; `{name:pctRaw}` a percentage (0–100) as Python prints a
 * float; `{name:bytes}` a byte volume in 1024-based units; `{name:fixed2}` two decimals; `{name:float}` Python float;
 * `{name:seconds}` a duration (`136.97 ms`).
 */
export type PlaceholderFormat = 'pct' | 'pctRaw' | 'bytes' | 'fixed2' | 'float' | 'seconds';

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)(?::([A-Za-z0-9]+))?\}/g;

/**
 * How `{name:bytes}` prints: `drishti` as Drishti (1024-based units named KB, MB, GB, `1 bytes`), `iec` with the
 * units' real names (KiB, MiB, GiB, `1 B`; the default mode).
 */
export type TemplateStyle = 'drishti' | 'iec';

function formatValue(v: number | string, fmt: string | undefined, style: TemplateStyle): string {
  if (typeof v === 'string') return v;
  switch (fmt) {
    case undefined:
      return Number.isInteger(v) ? String(v) : pyFloat(v);
    case 'pct':
      return `${pyFixed(v * 100, 2)}%`;
    case 'pctRaw':
      return `${pyFloat(v)}%`;
    case 'bytes':
      return style === 'iec' ? formatBytes(v) : humanBytes(v);
    case 'fixed2':
      return pyFixed(v, 2);
    case 'seconds':
      return formatSeconds(v);
    case 'float':
      return pyFloat(v);
    default:
      throw new Error(`unknown placeholder format '${fmt}'`);
  }
}

/** A template split at its placeholders: `texts[i]` comes before `holes[i]`, the last text after the last hole. */
interface Compiled {
  readonly texts: string[];
  readonly holes: { readonly name: string; readonly fmt: string | undefined }[];
}

const compiledTemplates = new Map<string, Compiled>();

/** The template split once and kept (a report on a large log renders one detail template for thousands of files). */
function compiled(template: string): Compiled {
  let c = compiledTemplates.get(template);
  if (c === undefined) {
    c = { texts: [], holes: [] };
    let last = 0;
    for (const m of template.matchAll(PLACEHOLDER)) {
      c.texts.push(template.slice(last, m.index));
      c.holes.push({ name: m[1]!, fmt: m[2] });
      last = m.index! + m[0].length;
    }
    c.texts.push(template.slice(last));
    if (compiledTemplates.size >= 4096) compiledTemplates.clear();
    compiledTemplates.set(template, c);
  }
  return c;
}

/** Renders a message template with its data. Throws on a placeholder without data (a bug in the check). */
export function renderTemplate(template: string, data: MessageData, style: TemplateStyle = 'drishti'): string {
  const { texts, holes } = compiled(template);
  let out = texts[0]!;
  for (let i = 0; i < holes.length; i++) {
    const v = data[holes[i]!.name];
    if (v === undefined) throw new Error(`message placeholder {${holes[i]!.name}} has no value`);
    out += formatValue(v, holes[i]!.fmt, style) + texts[i + 1]!;
  }
  return out;
}

/** Placeholder names used by a template (for meta-tests and the check tester). */
export function templatePlaceholders(template: string): string[] {
  return compiled(template).holes.map((h) => h.name);
}
