import type { Cause, ComparedRun, Comparison, History, HistoryMetric, OtherComparison } from '../contract/index.js';
import { wrapText } from './wrap.js';
import { escapeHtml, escapeMarkdown, escapeTerminal } from '../text/escape.js';
import { formatBytes, formatPercent, formatSeconds } from '../text/format.js';

/**
 * `iolens compare` in text, Markdown and HTML. All three read the comparison document only and lay out the same
 * tables (`compareTables`); each escapes what came from the inputs (names, messages) for its medium.
 */

/** A table of plain strings (unescaped), as every renderer lays it out. */
export interface Table {
  readonly title: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** What fixing a differing finding would save in the run where it holds (the other run's, else the base's). */
const savesCell = (x: Cause): string => {
  const e = x.evidence.find((v) => v.name === 'savings');
  const s = e ? (e.other ?? e.base) : null;
  return typeof s === 'number' ? `~${formatSeconds(s)}` : '—';
};
const signed = (s: number): string => (s > 0 ? `+${formatSeconds(s)}` : s < 0 ? `−${formatSeconds(-s)}` : '±0 s');
const levelsOf = (r: ComparedRun): string => {
  const raised = r.findings.filter((f) => f.level === 'HIGH' || f.level === 'WARN');
  return raised.length ? raised.map((f) => `${f.code} ${f.level}`).join(', ') : 'none';
};

/** How much longer (or shorter) a time is: `+2.20 s, ×2.83`. */
function change(base: number, other: number): string {
  const d = other - base;
  return base > 0 && other > 0 ? `${signed(d)}, ×${(other / base).toFixed(2)}` : signed(d);
}

/** A feature's value as the model saw it: 4 significant digits, 'missing' for none. */
function valueText(v: number | string | null): string {
  return v === null ? 'missing' : typeof v === 'number' ? String(Number(v.toPrecision(4))) : v;
}

/** What a cause is, in a few words: `D01 excessive-fsync appears (HIGH)`, `processes changed`. */
export function causeTitle(c: Cause): string {
  if (c.kind === 'setting') return c.text;
  const what = `${c.code}${c.problem ? ` ${c.problem}` : ''}`;
  if (c.change === 'appears') return `${what} appears (${c.otherLevel})`;
  if (c.change === 'vanishes') return `${what} vanishes (was ${c.baseLevel})`;
  return `${what} ${c.baseLevel === c.otherLevel ? `costs ${c.seconds! > 0 ? 'more' : 'less'} (${c.otherLevel})` : `${c.baseLevel} → ${c.otherLevel}`}`;
}

/** One or two sentences: how the other run differs and its largest cause. */
export function compareVerdict(base: ComparedRun, o: OtherComparison): string {
  const longer = o.timeDelta >= 0 ? 'longer' : 'shorter';
  const parts = [
    `${o.run.name} ran ${formatSeconds(Math.abs(o.timeDelta))} ${longer} than ${base.name} (${formatSeconds(o.run.runTime)} against ${formatSeconds(base.runTime)}); its I/O on the slowest rank took ${signed(o.ioTimeDelta)} (${formatSeconds(o.run.ioTime)} against ${formatSeconds(base.ioTime)}).`,
  ];
  const top = o.causes.find((c) => c.kind === 'finding');
  const part = o.parts[0];
  if (part && part.delta !== 0) parts.push(`The largest change in the time model is ${part.layer} ${part.op} (${signed(part.delta)}).`);
  if (top) parts.push(`The largest cause: ${causeTitle(top)}, ${signed(top.seconds!)}.`);
  else parts.push('No finding differs between the two runs.');
  return parts.join(' ');
}

const METRIC_NAMES: Record<HistoryMetric['metric'], string> = { io_time: 'I/O time, slowest rank', io_mibs: 'throughput', run_time: 'run time' };
const metricValue = (m: HistoryMetric['metric'], v: number): string => (m === 'io_mibs' ? `${Number(v.toPrecision(3))} MiB/s` : formatSeconds(v));

/** The run and its application's history in one sentence per metric that makes it an outlier (or one saying none does). */
export function historyVerdict(h: History, runName: string): string {
  const out = h.metrics.filter((m) => m.outlier !== null);
  if (!h.metrics.length) return `${h.app} has no other run with times in the store.`;
  if (!out.length) {
    const io = h.metrics.find((m) => m.metric === 'io_time');
    return `${runName} is within the usual range of ${h.app}'s ${h.runs} other runs${io && io.quantile !== null ? ` (its I/O time is above ${formatPercent(io.quantile)} of theirs)` : ''}.`;
  }
  return out
    .map((m) => {
      // a higher time is slower; a higher throughput faster
      const higherIsSlower = m.metric !== 'io_mibs';
      const high = m.outlier === 'high';
      const word = high === higherIsSlower ? 'slower' : 'faster';
      const share = high ? m.quantile! : 1 - m.quantile!;
      return `${runName}'s ${METRIC_NAMES[m.metric]} (${metricValue(m.metric, m.value!)}) is an outlier among ${h.app}'s ${m.runs} other runs: ${high ? 'above' : 'below'} their range (median ${metricValue(m.metric, m.median)}), ${word} than ${formatPercent(share)} of them.`;
    })
    .join(' ');
}

export function historyTable(h: History, runName: string): Table {
  return {
    title: `${runName} against ${h.app}'s history (${h.runs} other runs in the store; outliers by Tukey's fences on the log scale)${h.reference ? `; compared below with its median run by I/O time` : ''}`,
    header: ['', 'this run', 'share of runs below', 'median (quartiles)', 'range', 'outlier'],
    rows: h.metrics.map((m) => [
      METRIC_NAMES[m.metric],
      m.value === null ? 'unknown' : metricValue(m.metric, m.value),
      m.quantile === null ? '' : formatPercent(m.quantile),
      `${metricValue(m.metric, m.median)} (${metricValue(m.metric, m.q1)}–${metricValue(m.metric, m.q3)})`,
      `${metricValue(m.metric, m.min)}–${metricValue(m.metric, m.max)}`,
      m.outlier ?? (m.runs >= 5 ? 'no' : 'too few runs'),
    ]),
  };
}

/** The tables of a comparison, in reading order. */
export function compareTables(c: Comparison): Table[] {
  const runs = [c.base, ...c.others.map((o) => o.run)];
  const header = ['', `${c.base.name} (base)`, ...c.others.map((o) => o.run.name)];
  const row = (label: string, f: (r: ComparedRun) => string, d?: (o: OtherComparison) => string): string[] => [
    label,
    f(c.base),
    ...c.others.map((o) => (d ? `${f(o.run)} (${d(o)})` : f(o.run))),
  ];
  const runName = c.others[0]?.run.name ?? c.base.name;
  const tables: Table[] = [
    ...(c.history ? [historyTable(c.history, runName)] : []),
    {
      title: 'The runs',
      header,
      rows: [
        row('run time', (r) => formatSeconds(r.runTime), (o) => change(c.base.runTime, o.run.runTime)),
        row('I/O time, slowest rank', (r) => formatSeconds(r.ioTime), (o) => change(c.base.ioTime, o.run.ioTime)),
        row('I/O share of the run', (r) => (r.ioShare === null ? 'unknown' : formatPercent(r.ioShare))),
        row('I/O time summed over ranks', (r) => formatSeconds(r.cumulativeIoTime), (o) => change(c.base.cumulativeIoTime, o.run.cumulativeIoTime)),
        row('data moved', (r) => formatBytes(r.bytes)),
        row('processes', (r) => String(r.settings.processes)),
        row('findings (WARN/HIGH)', levelsOf),
      ],
    },
  ];
  for (const o of c.others) {
    const parts = o.parts.filter((p) => p.baseSeconds > 0 || p.otherSeconds > 0).slice(0, 10);
    tables.push({
      title: `Where the time went: ${o.run.name} against ${c.base.name} (slowest rank; summed over ranks in brackets)`,
      header: ['part', c.base.name, o.run.name, 'change'],
      rows: parts.map((p) => [
        `${p.layer} ${p.op}`,
        `${formatSeconds(p.baseSeconds)} (${formatSeconds(p.baseCumulative)})`,
        `${formatSeconds(p.otherSeconds)} (${formatSeconds(p.otherCumulative)})`,
        `${signed(p.delta)} (${signed(p.deltaCumulative)})`,
      ]),
    });
    const findings = o.causes.filter((x) => x.kind === 'finding');
    tables.push({
      title: `Why ${o.run.name} differs from ${c.base.name}, largest first (seconds of I/O on the slowest rank)`,
      header: ['#', 'seconds', 'would save', 'cause', 'finding'],
      rows: findings.map((x, i) => [String(i + 1), signed(x.seconds!), savesCell(x), causeTitle(x), x.text]),
    });
    const settings = o.causes.filter((x) => x.kind === 'setting');
    if (settings.length) tables.push({ title: `What else changed in ${o.run.name}`, header: ['setting'], rows: settings.map((x) => [x.text]) });
    if (o.attribution) {
      const a = o.attribution;
      tables.push({
        title: `The model's view (${a.model}, ${a.target}): predicted ${a.basePrediction.toPrecision(4)} → ${a.otherPrediction.toPrecision(4)}; the parts sum to the difference of the outputs (log10(1 + ${a.target}))`,
        header: ['feature', c.base.name, o.run.name, 'part'],
        rows: a.terms.slice(0, 12).map((t) => [t.feature, valueText(t.base), valueText(t.other), (t.shap >= 0 ? '+' : '') + t.shap.toFixed(4)]),
      });
    }
  }
  if (c.others.length > 1) {
    const cell = (x: { level: string; seconds: number; saves?: number } | null) => (x ? `${x.level} ${formatSeconds(x.seconds)}${x.saves !== undefined ? `, saves ~${formatSeconds(x.saves)}` : ''}` : '—');
    tables.push({
      title: 'Findings across the runs (in every run first)',
      header: ['finding', ...runs.map((r) => r.name)],
      rows: [...c.common, ...c.differing].map((s) => [`${s.code}${s.problem ? ` ${s.problem}` : ''}${c.common.includes(s) ? ' (every run)' : ''}`, ...s.runs.map(cell)]),
    });
  }
  return tables;
}

/** Notes under the tables: warnings per other run, the history's notes, and the inputs that could not be read. */
export function notes(c: Comparison): string[] {
  return [...c.others.flatMap((o) => o.warnings), ...(c.history?.notes ?? []), ...c.failed.map((f) => `not compared: ${f.error}`)];
}

/** The verdicts a comparison opens with: the history's, then each other run's against the base. */
export function verdicts(c: Comparison): string[] {
  const runName = c.others[0]?.run.name ?? c.base.name;
  return [...(c.history ? [historyVerdict(c.history, runName)] : []), ...c.others.map((o) => compareVerdict(c.base, o))];
}

function widthOf(s: string): number {
  return [...s].length;
}

/** Terminal text: the verdicts, then each table with aligned columns; the verdicts and notes wrapped to `width`. */
export function renderCompareText(c: Comparison, width?: number): string {
  const out: string[] = [];
  const fit = (s: string) => (width ? wrapText(s, width) : s);
  for (const v of verdicts(c)) out.push(fit(escapeTerminal(v)), '');
  for (const t of compareTables(c)) {
    out.push(escapeTerminal(t.title));
    if (!t.rows.length) {
      out.push('  (none)', '');
      continue;
    }
    const cells = [t.header, ...t.rows].map((r) => r.map((x) => escapeTerminal(x)));
    const w = t.header.map((_, i) => Math.min(60, Math.max(...cells.map((r) => widthOf(r[i] ?? '')))));
    for (const r of cells) out.push(`  ${r.map((x, i) => (i === r.length - 1 ? x : x + ' '.repeat(Math.max(0, w[i] - widthOf(x))))).join('  ')}`.trimEnd());
    out.push('');
  }
  for (const n of notes(c)) out.push(fit(`note: ${escapeTerminal(n)}`));
  return `${out.join('\n').trimEnd()}\n`;
}

/** Markdown: a heading, the verdicts and pipe tables. */
export function renderCompareMarkdown(c: Comparison): string {
  const out: string[] = [`# IOLens comparison: ${escapeMarkdown(c.base.name)} and ${c.others.length} other run${c.others.length === 1 ? '' : 's'}`, ''];
  for (const v of verdicts(c)) out.push(escapeMarkdown(v), '');
  for (const t of compareTables(c)) {
    out.push(`## ${escapeMarkdown(t.title)}`, '');
    if (!t.rows.length) {
      out.push('(none)', '');
      continue;
    }
    out.push(`| ${t.header.map(escapeMarkdown).join(' | ')} |`, `|${t.header.map(() => '---').join('|')}|`);
    for (const r of t.rows) out.push(`| ${r.map(escapeMarkdown).join(' | ')} |`);
    out.push('');
  }
  for (const n of notes(c)) out.push(`> ${escapeMarkdown(n)}`, '');
  return `${out.join('\n').trimEnd()}\n`;
}

/** Side-by-side bars of the time model's parts (slowest rank): one row per part, a bar per run. */
function partsSvg(c: Comparison, o: OtherComparison): string {
  const parts = o.parts.filter((p) => p.baseSeconds > 0 || p.otherSeconds > 0).slice(0, 10);
  if (!parts.length) return '';
  const max = Math.max(...parts.flatMap((p) => [p.baseSeconds, p.otherSeconds]));
  const rowH = 34, label = 170, barW = 420, h = parts.length * rowH + 46;
  const bars = parts
    .map((p, i) => {
      const y = 40 + i * rowH;
      const wb = max > 0 ? (p.baseSeconds / max) * barW : 0, wo = max > 0 ? (p.otherSeconds / max) * barW : 0;
      return (
        `<text x="0" y="${y + 15}" class="l">${escapeHtml(`${p.layer} ${p.op}`)}</text>` +
        `<rect x="${label}" y="${y}" width="${wb.toFixed(1)}" height="12" class="b"><title>${escapeHtml(`${c.base.name}: ${formatSeconds(p.baseSeconds)}`)}</title></rect>` +
        `<rect x="${label}" y="${y + 14}" width="${wo.toFixed(1)}" height="12" class="o"><title>${escapeHtml(`${o.run.name}: ${formatSeconds(p.otherSeconds)}`)}</title></rect>` +
        `<text x="${label + Math.max(wb, wo) + 6}" y="${y + 18}" class="v">${escapeHtml(`${formatSeconds(p.baseSeconds)} → ${formatSeconds(p.otherSeconds)}`)}</text>`
      );
    })
    .join('');
  // one legend line per run: names are long
  const legend = `<rect x="${label}" y="2" width="12" height="12" class="b"/><text x="${label + 16}" y="12" class="v">${escapeHtml(c.base.name)}</text><rect x="${label}" y="18" width="12" height="12" class="o"/><text x="${label + 16}" y="28" class="v">${escapeHtml(o.run.name)}</text>`;
  return `<svg role="img" aria-label="time by part, side by side" width="${label + barW + 200}" height="${h}" viewBox="0 0 ${label + barW + 200} ${h}">${legend}${bars}</svg>`;
}

/** The history's distribution of one metric: a bar per log-scale bin, the run's bin marked. */
function historySvg(m: HistoryMetric): string {
  if (!m.bins.length) return '';
  const W = 560, H = 120, bw = W / m.bins.length, max = Math.max(1, ...m.bins.map((b) => b.count));
  const bars = m.bins
    .map((b, i) => {
      const h = (b.count / max) * (H - 30);
      const mine = m.value !== null && m.value >= b.low && (m.value < b.high || i === m.bins.length - 1);
      return `<rect x="${(i * bw + 1).toFixed(1)}" y="${(H - 20 - h).toFixed(1)}" width="${(bw - 2).toFixed(1)}" height="${h.toFixed(1)}" class="${mine ? 'o' : 'b'}"><title>${escapeHtml(`${metricValue(m.metric, b.low)}–${metricValue(m.metric, b.high)}: ${b.count} run${b.count === 1 ? '' : 's'}${mine ? ' (this run falls here)' : ''}`)}</title></rect>`;
    })
    .join('');
  const axis = `<text x="0" y="${H - 4}" class="v">${escapeHtml(metricValue(m.metric, m.bins[0].low))}</text><text x="${W}" y="${H - 4}" text-anchor="end" class="v">${escapeHtml(metricValue(m.metric, m.bins[m.bins.length - 1].high))}</text>`;
  return `<figure><figcaption>${escapeHtml(`${METRIC_NAMES[m.metric]} of the history's runs (log scale); this run's bin in orange`)}</figcaption><svg role="img" aria-label="${escapeHtml(`${METRIC_NAMES[m.metric]} distribution`)}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${bars}${axis}</svg></figure>`;
}

/** A standalone HTML page: verdicts, side-by-side bars of the time model, the tables. No script. */
export function renderCompareHtml(c: Comparison): string {
  const body: string[] = [`<h1>IOLens comparison: ${escapeHtml(c.base.name)} and ${c.others.length} other run${c.others.length === 1 ? '' : 's'}</h1>`];
  for (const v of verdicts(c)) body.push(`<p class="verdict">${escapeHtml(v)}</p>`);
  if (c.history) for (const m of c.history.metrics) body.push(historySvg(m));
  for (const o of c.others) body.push(partsSvg(c, o));
  for (const t of compareTables(c)) {
    body.push(`<h2>${escapeHtml(t.title)}</h2>`);
    if (!t.rows.length) {
      body.push('<p>(none)</p>');
      continue;
    }
    body.push(
      `<table><thead><tr>${t.header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${t.rows.map((r) => `<tr>${r.map((x) => `<td>${escapeHtml(x)}</td>`).join('')}</tr>`).join('')}</tbody></table>`,
    );
  }
  for (const n of notes(c)) body.push(`<p class="note">${escapeHtml(n)}</p>`);
  const css =
    'body{font:14px/1.45 system-ui,sans-serif;margin:2em;max-width:72em;color:#222}table{border-collapse:collapse;margin:.5em 0 1.5em}' +
    'td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}th{background:#f3f3f3}.verdict{font-size:1.1em}' +
    '.note{color:#8a4b00}svg .l,svg .v{font:12px system-ui,sans-serif;fill:#222}svg .b{fill:#7a9cc6}svg .o{fill:#d9822b}';
  return (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">` +
    `<title>${escapeHtml(`IOLens comparison: ${c.base.name}`)}</title><style>${css}</style></head><body>${body.join('\n')}</body></html>\n`
  );
}
