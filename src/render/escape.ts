/**
 * Escaping of untrusted text (file names, executable, hints come from the log) for each output format.
 */

/** Terminal: control characters (C0, DEL, C1 — including ESC) become visible `\xNN` escapes. */
export function escapeTerminal(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** HTML text and attribute values. */
export function escapeHtml(s: string): string {
  return escapeTerminal(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Markdown inline text: backslash-escapes the characters that start markup, and `|` for tables. */
export function escapeMarkdown(s: string): string {
  return escapeTerminal(s).replace(/[\\`*_{}[\]()<>#+\-.!|~]/g, (c) => `\\${c}`);
}

/** CSV field (RFC 4180 quoting when needed); a leading =,+,-,@ is neutralised against spreadsheet formulas. */
export function escapeCsv(s: string): string {
  let v = escapeTerminal(s);
  if (/^[=+\-@]/.test(v)) v = `'${v}`;
  return /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
