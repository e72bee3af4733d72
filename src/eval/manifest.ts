/**
 * Reads the labelled-log MANIFEST.md of a directory of generated Darshan logs: the label vocabulary (its "Label
 * vocabulary" table) and, per log, the EXPECTED labels (its "Logs" table). Nothing is hand-kept: a new label or log
 * in the MANIFEST is picked up as is.
 */
export interface LabelledLog {
  readonly file: string;
  /** Problem labels of the vocabulary (without `healthy`). */
  readonly labels: readonly string[];
  readonly healthy: boolean;
  /** Tokens of the EXPECTED cell that are not labels of the vocabulary (e.g. `incomplete-log`). */
  readonly annotations: readonly string[];
  /** The EXPECTED cell as written. */
  readonly expected: string;
  /** The healthy log its "pairs with" cell names (a problem log's twin), when the MANIFEST has that column. */
  readonly twin?: string;
}

export interface Manifest {
  /** Every label of the vocabulary table, `healthy` included, in table order. */
  readonly vocabulary: readonly string[];
  readonly logs: readonly LabelledLog[];
}

function cells(line: string): string[] {
  const t = line.trim();
  if (!t.startsWith('|')) return [];
  return t.replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
}

/** Text with every parenthesised part removed (nested parentheses included). */
export function withoutParentheses(s: string): string {
  let out = '';
  let depth = 0;
  for (const ch of s) {
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0) out += ch;
  }
  return out;
}

/** The label tokens of an EXPECTED cell: comma- or plus-separated, each the leading `word-word` of its part. */
export function labelTokens(cell: string): string[] {
  const out: string[] = [];
  for (const part of withoutParentheses(cell).split(/[,+]/)) {
    const m = /^\s*([a-z0-9][a-z0-9-]*)/.exec(part.toLowerCase());
    if (m && !out.includes(m[1])) out.push(m[1]);
  }
  return out;
}

export function parseManifest(text: string): Manifest {
  const lines = text.split(/\r?\n/);
  const vocabulary: string[] = [];
  const logs: LabelledLog[] = [];
  let section = '';
  let expectedCol = -1;
  let pairsCol = -1;
  const pairsCells: string[] = [];
  for (const line of lines) {
    const h = /^#+\s+(.*)$/.exec(line);
    if (h) {
      section = h[1].toLowerCase();
      expectedCol = -1;
      continue;
    }
    const c = cells(line);
    if (!c.length || /^-+$/.test(c[0].replace(/[:\s]/g, ''))) continue;
    if (section.startsWith('label vocabulary')) {
      if (c[0].toLowerCase() === 'label') continue;
      for (const l of c[0].split('/')) {
        const t = l.trim().replace(/`/g, '');
        if (/^[a-z0-9][a-z0-9-]*$/.test(t) && !vocabulary.includes(t)) vocabulary.push(t);
      }
    } else if (section === 'logs') {
      if (expectedCol < 0) {
        expectedCol = c.findIndex((x) => /expected/i.test(x));
        pairsCol = c.findIndex((x) => /pairs with/i.test(x));
        continue;
      }
      const file = c[0].replace(/`/g, '');
      if (!file.endsWith('.darshan') || expectedCol >= c.length) continue;
      const tokens = labelTokens(c[expectedCol]);
      const labels = tokens.filter((t) => t !== 'healthy' && vocabulary.includes(t));
      logs.push({
        file,
        labels,
        healthy: tokens.includes('healthy') && labels.length === 0,
        annotations: tokens.filter((t) => t !== 'healthy' && !vocabulary.includes(t)),
        expected: c[expectedCol],
      });
      pairsCells.push(pairsCol >= 0 && pairsCol < c.length ? c[pairsCol] : '');
    }
  }
  // A problem log's twin: the first name in its "pairs with" cell, outside parentheses, that is a listed log.
  const files = new Set(logs.map((l) => l.file));
  const withTwins = logs.map((l, i) => {
    if (l.healthy) return l;
    const names = withoutParentheses(pairsCells[i]).replace(/`/g, '').match(/[A-Za-z0-9][A-Za-z0-9._-]*/g) ?? [];
    const twin = names.map((n) => (n.endsWith('.darshan') ? n : `${n}.darshan`)).find((n) => files.has(n));
    return twin ? { ...l, twin } : l;
  });
  return { vocabulary, logs: withTwins };
}
