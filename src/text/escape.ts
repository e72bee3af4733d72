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

const HEX = '0123456789abcdef';

function pushEscape(out: number[], code: number): void {
  const digits = code < 0x100 ? 2 : 4;
  out.push(0x5c, code < 0x100 ? 0x78 : 0x75);
  for (let s = (digits - 1) * 4; s >= 0; s -= 4) out.push(HEX.charCodeAt((code >> s) & 15));
}

/** Length of the UTF-8 sequence a lead byte starts (0: not a lead byte). */
function utf8Length(b: number): number {
  if (b >= 0xc2 && b <= 0xdf) return 2;
  if (b >= 0xe0 && b <= 0xef) return 3;
  if (b >= 0xf0 && b <= 0xf4) return 4;
  return 0;
}

/**
 * Terminal escaping of a byte stream that is mostly UTF-8 text in lines (darshan-parser's output: raw bytes of the
 * names in the log). Tabs and newlines are kept (they are the output's structure); every other character
 * `escapeTerminal` escapes becomes `\xNN` / `\uNNNN`, and so does every byte that is not part of valid UTF-8
 * (a Latin-1 name, a stray C1 byte). Chunks may split a UTF-8 sequence: its start is held back until the next push.
 */
export class TerminalByteEscaper {
  private held: Uint8Array = new Uint8Array(0);

  /** Escapes `chunk`; returns the bytes to write now. */
  push(chunk: Uint8Array, final = false): Uint8Array {
    const data = this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk;
    this.held = new Uint8Array(0);
    const out: number[] = [];
    let i = 0;
    let plain = 0;
    const parts: Uint8Array[] = [];
    const flushPlain = (end: number) => {
      if (end > plain) {
        if (out.length) parts.push(Uint8Array.from(out.splice(0)));
        parts.push(data.subarray(plain, end));
      }
    };
    while (i < data.length) {
      const b = data[i];
      if (b >= 0x20 && b < 0x7f) {
        i++;
        continue;
      }
      if (b === 0x0a || b === 0x09) {
        i++;
        continue;
      }
      if (b < 0x80) {
        flushPlain(i);
        pushEscape(out, b);
        plain = ++i;
        continue;
      }
      const n = utf8Length(b);
      if (n > 0 && i + n > data.length && !final) {
        // possibly a sequence cut by the chunk boundary: keep it for the next push
        let ok = true;
        for (let k = i + 1; k < data.length; k++) if ((data[k] & 0xc0) !== 0x80) ok = false;
        if (ok) {
          flushPlain(i);
          this.held = Uint8Array.from(data.subarray(i));
          plain = i = data.length;
          break;
        }
      }
      let cp = -1;
      if (n > 0 && i + n <= data.length) {
        cp = b & (0xff >> (n + 1));
        for (let k = 1; k < n; k++) {
          const c = data[i + k];
          if ((c & 0xc0) !== 0x80) {
            cp = -1;
            break;
          }
          cp = (cp << 6) | (c & 0x3f);
        }
        // overlong forms, surrogates and values past U+10FFFF are not valid UTF-8
        if (cp >= 0 && ((n === 3 && cp < 0x800) || (n === 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))) cp = -1;
      }
      if (cp < 0) {
        flushPlain(i);
        pushEscape(out, b);
        plain = ++i;
      } else if (hasUnsafeText(String.fromCodePoint(cp))) {
        flushPlain(i);
        pushEscape(out, cp);
        plain = i += n;
      } else i += n;
    }
    flushPlain(data.length);
    if (out.length) parts.push(Uint8Array.from(out));
    return parts.length === 1 ? parts[0] : Buffer.concat(parts);
  }
}

/**
 * JSON text safe for a terminal: characters `escapeTerminal` escapes become `\uNNNN` escapes, which JSON reads back
 * as the same characters (JSON.stringify already escapes C0 controls; this adds DEL, C1, the line separators and
 * the bidirectional controls). Only valid for JSON, where such characters can occur only inside strings.
 */
export function escapeJsonForTerminal(json: string): string {
  // newlines and tabs outside strings are the document's layout (inside strings JSON.stringify escapes them)
  return json.replace(UNSAFE, (c) => (c === '\n' || c === '\t' ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
