/**
 * Escaping of untrusted text — file names, command lines, hints and anything else read from a log, a trace or an
 * upload — for every output. One module, one rule per output, the strictest IOLens had anywhere.
 */

/**
 * Characters that can change what a terminal shows beyond the character itself: C0 controls (ESC, BEL, CR …),
 * DEL, C1 controls, the Unicode line/paragraph separators and the bidirectional overrides, embeddings, isolates and
 * marks ("Trojan Source").
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function visible(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\t') return '\\t';
  if (c === '\r') return '\\r';
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Terminal text: every unsafe character becomes a visible escape (`\x1b`, `\n`, `\u202e`). */
export function escapeTerminal(s: string): string {
  return s.replace(UNSAFE, visible);
}

/** Whether a string holds a character `escapeTerminal` would change. */
export function hasUnsafeText(s: string): boolean {
  UNSAFE.lastIndex = 0;
  const r = UNSAFE.test(s);
  UNSAFE.lastIndex = 0;
  return r;
}

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** HTML text and (quoted) attribute values. */
export function escapeHtml(s: string): string {
  return escapeTerminal(s).replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]);
}

/** Markdown inline text: characters that start markup are backslash-escaped, `|` too (tables). */
export function escapeMarkdown(s: string): string {
  return escapeTerminal(s).replace(/[\\`*_{}[\]()<>#+\-.!|~]/g, (c) => `\\${c}`);
}

const NUMBER_LITERAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A CSV field (RFC 4180: quoted when it holds a comma, quote or line break). Text that a spreadsheet would run as a
 * formula (a leading `=`, `+`, `-`, `@`, tab or CR) gets a leading apostrophe — unless it is a plain number
 * literal, which no spreadsheet evaluates. Control characters are escaped as in the terminal. Numbers are written
 * as numbers (non-finite ones as an empty field).
 */
export function escapeCsv(v: string | number): string {
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  let s = escapeTerminal(v);
  if (/^[=+\-@\t\r]/.test(v) && !NUMBER_LITERAL.test(v)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
