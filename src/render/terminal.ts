import pc from 'picocolors';
import type { Finding, Level, Report } from '../contract/index.js';
import { escapeTerminal } from '../text/escape.js';
import { DEFAULT_MAX_DETAILS, type RenderOptions } from './options.js';
import { bannerRows, breakdownLines, costText, detailText, levelMarker, savingsText, summaryLine, thresholdValue } from './text.js';

type Paint = (s: string) => string;
interface Line {
  readonly text: string;
  /** Columns of indentation, kept on wrapped continuation lines. */
  readonly indent: number;
  readonly paint?: Paint;
  /** Columns continuation lines hang under (default: after a leading marker `▶ `, `↪ `, `• `). */
  readonly hang?: number;
}

/** Wraps a line to `width` columns at spaces (long words are cut). */
function wrap(line: Line, width: number): Line[] {
  // Continuation lines hang under the text after a leading marker (`▶ `, `↪ `, `• `).
  const hang = line.hang ?? (/^[▶↪•] /.test(line.text) ? 2 : 0);
  // The first line has the whole width; continuation lines hang under it.
  const roomAt = (n: number) => Math.max(10, width - line.indent - (n > 0 ? hang : 0));
  const words = line.text.split(' ');
  const out: string[] = [];
  let cur = '';
  for (const w of words) {
    let word = w;
    while (word.length > roomAt(out.length)) {
      if (cur) {
        out.push(cur);
        cur = '';
      }
      const room = roomAt(out.length);
      out.push(word.slice(0, room));
      word = word.slice(room);
    }
    if (!cur) cur = word;
    else if (cur.length + 1 + word.length <= roomAt(out.length)) cur += ` ${word}`;
    else {
      out.push(cur);
      cur = word;
    }
  }
  out.push(cur);
  return out.map((text, i) => ({ text, indent: line.indent + (i > 0 ? hang : 0), paint: line.paint, hang: 0 }));
}

function panel(title: string, lines: Line[], width: number, subtitle?: string, frame: Paint = (s) => s): string {
  const inner = width - 4;
  const top = `╭─ ${title} `;
  const out = [frame(top + '─'.repeat(Math.max(0, width - 1 - top.length)) + '╮'), frame('│') + ' '.repeat(width - 2) + frame('│')];
  for (const l of lines) {
    for (const w of wrap(l, inner)) {
      const text = ' '.repeat(w.indent) + w.text;
      const pad = ' '.repeat(Math.max(0, inner - text.length));
      out.push(`${frame('│')} ${w.paint ? ' '.repeat(w.indent) + w.paint(w.text) : text}${pad} ${frame('│')}`);
    }
  }
  out.push(frame('│') + ' '.repeat(width - 2) + frame('│'));
  const bottom = subtitle ? `╰─ ${subtitle} ` : '╰';
  out.push(frame(bottom + '─'.repeat(Math.max(0, width - 1 - bottom.length)) + '╯'));
  return out.join('\n');
}

/**
 * The terminal report: banner; in the default mode where the time went (the verdict and the breakdown) and the
 * findings ranked by cost; in Drishti mode its METADATA and OPERATIONS panels; then THRESHOLDS and notes.
 */
export function renderTerminal(report: Report, opts: RenderOptions = {}): string {
  const c = pc.createColors(!!opts.color);
  const width = Math.max(40, opts.width ?? 80);
  const maxDetails = opts.maxDetails ?? DEFAULT_MAX_DETAILS;
  const levelPaint: Record<Level, Paint> = { HIGH: (s) => c.bold(c.red(s)), WARN: (s) => c.bold(c.yellow(s)), OK: (s) => c.green(s), INFO: (s) => s };
  const E = escapeTerminal;
  const parts: string[] = [''];

  // Drishti's banner wraps to the left edge; the default mode's hangs under the values.
  const hang = report.mode === 'drishti' ? 0 : 16;
  const banner: Line[] = bannerRows(report).map(([k, v]) => ({ text: `${`${k}:`.padEnd(16)}${E(v)}`, indent: 1, hang }));
  const mode = report.mode === 'drishti' ? ' (Drishti mode)' : '';
  parts.push(panel(`IOLENS v${report.tool.version}${mode}`, banner, width, summaryLine(report), c.blue));
  parts.push('');
  if (report.verdict) parts.push(panel('WHERE THE TIME WENT', verdictLines(report, c.bold, c.dim), width));

  const insightLines = (ins: Finding): Line[] => {
    const lines: Line[] = [];
    // Drishti mode prints Drishti's lines; the default mode marks every finding with its level and code.
    const lead = report.mode === 'drishti' ? (opts.showCodes ? `[${ins.code}] ` : '') : `${levelMarker(ins.level, ins.code)} `;
    lines.push({ text: `▶ ${lead}${E(ins.message)}`, indent: 1, paint: levelPaint[ins.level] });
    const cost = report.mode === 'drishti' ? null : costText(report, ins);
    if (cost) lines.push({ text: `↪ Cost: ${cost}`, indent: 3, paint: c.dim });
    const saves = report.mode === 'drishti' ? null : savingsText(report, ins);
    if (saves) lines.push({ text: `↪ Fixing it would save ${saves}`, indent: 3, paint: c.dim });
    for (const cav of ins.caveats ?? []) lines.push({ text: `↪ Caveat: ${E(cav)}`, indent: 3, paint: c.yellow });
    const shown = ins.details.slice(0, maxDetails);
    for (const d of shown) lines.push({ text: `↪ ${E(detailText(report, d, !!opts.fullPath))}`, indent: 3, paint: levelPaint[ins.level] });
    const more = ins.details.length - shown.length + (ins.detailsOmitted ?? 0);
    if (more > 0) lines.push({ text: `↪ … and ${more} more (see --json)`, indent: 3 });
    if (!opts.issuesOnly && ins.recommendations.length) {
      lines.push({ text: '↪ Recommendations:', indent: 3, paint: c.bold });
      for (const r of ins.recommendations) {
        lines.push({ text: `↪ ${r.text}`, indent: 5 });
        const snip = r.snippet && report.snippets?.[r.snippet];
        if (opts.verbose && snip) {
          lines.push({ text: `Example (${r.snippet}):`, indent: 7, paint: c.dim });
          snip.text.replace(/\n$/, '').split('\n').forEach((l, i) => lines.push({ text: `${String(i + 1).padStart(3)} ${l}`, indent: 7, paint: c.cyan }));
        }
      }
    }
    return lines;
  };

  if (report.mode === 'drishti') {
    for (const p of ['METADATA', 'OPERATIONS'] as const) {
      const ins = report.insights.filter((i) => i.panel === p);
      if (!ins.length) continue;
      parts.push(panel(p, ins.flatMap(insightLines), width));
    }
  } else if (report.insights.length) parts.push(panel('FINDINGS, MOST SECONDS SAVED FIRST', report.insights.flatMap(insightLines), width));

  const rows = report.thresholds.filter((t) => opts.allThresholds || t.triggered);
  parts.push(panel('THRESHOLDS', rows.map((t) => ({ text: `${`${t.label}:`.padEnd(40)} ${thresholdValue(t.value, t.unit)}`, indent: 0 })), width));
  const notes = report.notes.map((n) => ({ text: `• ${E(n)}`, indent: 0, paint: c.dim }));
  if (report.mode !== 'drishti' && report.insights.length) notes.push({ text: '• iolens list-checks CODE (or docs/checks/CODE.md) explains each finding: what it detects, why it matters, how to fix it', indent: 0, paint: c.dim });
  if (notes.length) parts.push(panel('NOTES', notes, width));
  parts.push('');
  return parts.join('\n');
}

/** The verdict, then the breakdown of the I/O time (both from the report's time model). */
function verdictLines(report: Report, bold: Paint, dim: Paint): Line[] {
  const lines: Line[] = [{ text: escapeTerminal(report.verdict!.text), indent: 1, paint: bold }];
  const parts = breakdownLines(report.io);
  if (parts.length) {
    lines.push({ text: '', indent: 0 });
    for (const l of parts) lines.push({ text: `• ${escapeTerminal(l)}`, indent: 1, paint: dim });
  }
  return lines;
}
