import pc from 'picocolors';
import type { Bottleneck, Detail, Level, Report, TraceSection, ViewReport } from '../contract/index.js';
import { escapeTerminal as E } from '../text/escape.js';
import { formatBytes, formatCount, formatPercent, formatRate, formatSeconds, plural } from '../text/format.js';
import { DEFAULT_MAX_DETAILS, type RenderOptions } from './options.js';
import { breakdownLines, costText, ioTimeText, savingsText } from './text.js';
import { wrapText } from './wrap.js';

type Paint = (s: string) => string;

/** `file=/d/a  proc=3  t=1.5s`: a view record's key. */
function keyText(key: Readonly<Record<string, string | number>>, dims: readonly string[]): string {
  return dims.map((d) => (d === 'time' ? `t=${key[d]}s` : `${d}=${E(String(key[d]))}`)).join('  ');
}

/** A detail line without the record label it starts with (shown on the record's own line). */
function detailBody(d: Detail): string {
  const label = typeof d.data.record === 'string' ? `${d.data.record}: ` : '';
  return label && d.message.startsWith(label) ? d.message.slice(label.length) : d.message;
}

function recordId(view: string, key: object): string {
  return `${view}\u0000${JSON.stringify(key)}`;
}

/** The level rule's cut-offs, from the report's thresholds. */
function levelCuts(r: Report): { high: number; run: number; warn: number } | null {
  const get = (k: string) => r.thresholds.find((t) => t.knob === k)?.value;
  const high = get('high_cost_share');
  const run = get('high_run_share');
  const warn = get('warn_cost_share');
  return high === undefined || warn === undefined || run === undefined ? null : { high, run, warn };
}

function characteristics(t: TraceSection, r: Report, line: (s?: string) => void, c: ReturnType<typeof pc.createColors>): void {
  const ch = t.characteristics;
  line(c.bold(`I/O characteristics — ${r.input.format} trace, ${formatCount(r.input.events ?? 0)} events from ${plural(r.input.sources ?? 0, 'source')}`));
  for (const w of r.input.warnings) line(c.yellow(`  warning: ${E(w)}`));
  if (r.job.jobId || r.job.exe) line(`  job               ${E([r.job.jobId && `id ${r.job.jobId}`, r.job.exe].filter(Boolean).join(', '))}`);
  line(`  run time          ${formatSeconds(r.io.runTime)}${r.io.source === 'trace' ? ' (first call to last)' : ' (the job record)'}`);
  line(`  I/O time          ${E(ioTimeText(r.io))}`);
  line(`  layers analyzed   ${t.options.layers.join(', ')}  (${formatCount(ch.eventsAnalyzed)} of ${formatCount(ch.eventsTotal)} events)`);
  const traced = r.io.cumulativeIoTime > 0 ? `, ${formatPercent(Math.min(1, ch.ioTime / r.io.cumulativeIoTime))} of the I/O time summed over ranks` : '';
  line(`  traced calls      ${formatSeconds(ch.ioTime)} in the analysed calls, summed over calls${traced}`);
  line(`  processes/files   ${plural(ch.processes, 'process', 'processes')} on ${plural(ch.hosts, 'host')}, ${plural(ch.files, 'file')}, ${plural(ch.apps, 'app')}`);
  // A category the trace does not record shows as such, never as 0 %.
  const pct = (k: 'read' | 'write' | 'metadata' | 'sync', v: number) => (ch.notRecorded.includes(k) ? 'not recorded' : formatPercent(v));
  line(`  operations        ${formatCount(ch.ops)}  read ${pct('read', ch.read.opsShare)}  write ${pct('write', ch.write.opsShare)}  metadata ${pct('metadata', ch.metadata.opsShare)}  sync ${pct('sync', ch.sync.opsShare)}`);
  line(`  bytes             ${formatBytes(ch.bytes)}  read ${formatBytes(ch.read.bytes)} (${formatPercent(ch.read.bytesShare)})  written ${formatBytes(ch.write.bytes)} (${formatPercent(ch.write.bytesShare)})`);
  line(`  time shares       read ${pct('read', ch.read.timeShare)}  write ${pct('write', ch.write.timeShare)}  metadata ${pct('metadata', ch.metadata.timeShare)}  sync ${pct('sync', ch.sync.timeShare)}  (of the traced calls' time)`);
  if (ch.notRecorded.length) line(c.dim(`  not recorded      ${ch.notRecorded.join(', ')} calls: ${r.input.format === 'dxt' ? 'DXT traces only reads and writes' : 'the trace does not record them'}`));
  const calls = Object.entries(ch.callsByFunction);
  const shown = calls.slice(0, 12).map(([f, n]) => `${E(f)} ${formatCount(n)}`);
  line(`  calls by function ${shown.join(', ')}${calls.length > 12 ? `, … (${calls.length - 12} more)` : ''}`);
}

/**
 * The terminal report of a trace: its I/O characteristics, the trace checks' findings (levels as text, so they show
 * without colour), then each view's flagged records with the findings that name them, and the coverage.
 */
export function renderTraceTerminal(r: Report, opts: RenderOptions = {}): string {
  const t = r.trace;
  if (!t) throw new Error('renderTraceTerminal needs a trace report');
  const c = pc.createColors(!!opts.color);
  const paint: Record<Level, Paint> = { HIGH: (s) => c.bold(c.red(s)), WARN: (s) => c.bold(c.yellow(s)), OK: (s) => c.green(s), INFO: (s) => c.cyan(s) };
  const maxDetails = opts.maxDetails ?? DEFAULT_MAX_DETAILS;
  const out: string[] = [];
  const line = (s = '') => out.push(s);

  characteristics(t, r, line, c);
  line();
  if (r.verdict) {
    line(c.bold('Where the time went'));
    line(`  ${E(r.verdict.text)}`);
    for (const l of breakdownLines(r.io)) line(c.dim(`  • ${E(l)}`));
    line();
  }

  const s = r.summary;
  line(c.bold(`Findings: ${s.high} HIGH, ${s.warn} WARN, ${s.info} INFO${r.insights.length ? '' : ' — no trace check fired'}`));
  const byRecord = new Map<string, { code: string; text: string }[]>();
  for (const f of r.insights) {
    line();
    line(`  ${paint[f.level](`[${f.level}]`)} ${f.code} ${E(f.message)}`);
    const cost = costText(r, f);
    if (cost) line(c.dim(`         ↪ Cost: ${E(cost)}`));
    const saves = savingsText(r, f);
    if (saves) line(c.dim(`         ↪ Fixing it would save ${E(saves)}`));
    const shown = f.details.slice(0, maxDetails);
    for (const d of shown) line(`         ↪ ${E(d.message)}`);
    if (f.details.length > shown.length) line(c.dim(`         ↪ … and ${f.details.length - shown.length} more (see --json)`));
    for (const cav of f.caveats ?? []) line(c.yellow(`         ↪ Caveat: ${E(cav)}`));
    if (!opts.issuesOnly && f.recommendations.length) {
      line(c.bold('         Recommendations:'));
      for (const rec of f.recommendations) line(`           • ${E(rec.text)}`);
    }
    for (const d of f.details) {
      if (d.subject.kind !== 'record') continue;
      const id = recordId(d.subject.view, d.subject.key);
      const list = byRecord.get(id) ?? [];
      list.push({ code: f.code, text: detailBody(d) });
      byRecord.set(id, list);
    }
  }
  line();

  const sev = t.severity;
  const cuts = levelCuts(r);
  line(c.bold(`Flagged records by ${sev.metric} (threshold ${sev.threshold}${sev.unit}; time windows of ${t.options.granularity} s)`));
  if (cuts) line(c.dim(`  level by what the record's calls cost: HIGH ≥ ${formatPercent(cuts.high)} of the job's I/O time and ≥ ${formatPercent(cuts.run)} of the run, WARN ${cuts.warn > 0 ? `≥ ${formatPercent(cuts.warn)}` : 'when it costs measurable time'}, INFO below; OK = not flagged by the metric`));
  const view: Out = { metric: sev.metric, unit: sev.unit, byRecord, line, paint, c };
  for (const v of t.views) viewLines(v, view);
  line();
  const cov = t.coverage;
  const users = r.checks.filter((x) => !/^T\d\d$/.test(x.code)).length;
  line(`Coverage: ${formatCount(cov.explained)} of ${plural(cov.bottlenecks, 'flagged record')} are named by a finding (${formatPercent(cov.share)}); checks: ${r.checks.length - users} built-in, ${users} user`);
  if (!r.completeness.complete) line(c.yellow(`Data: INCOMPLETE — ${r.completeness.modules.map((m) => `${m.module} ${m.status} (${E(m.detail)})`).join('; ')}`));
  for (const n of r.notes) line(c.dim(`note: ${E(n)}`));
  // The note names a trace check's page (the first finding may be a log check that traces run too: D20).
  const page = r.insights.find((f) => f.docs && f.code.startsWith('T')) ?? r.insights.find((f) => f.docs);
  if (page) line(c.dim(`note: ${page.docs} explains each trace check (T01…)`));
  line();
  return opts.width ? wrapText(out.join('\n'), opts.width) : out.join('\n');
}

/** What the view lines need: the metric, the findings per record, where to write, and the colours. */
interface Out {
  readonly metric: string;
  readonly unit: string;
  readonly byRecord: ReadonlyMap<string, readonly { code: string; text: string }[]>;
  readonly line: (s?: string) => void;
  readonly paint: Record<Level, Paint>;
  readonly c: ReturnType<typeof pc.createColors>;
}

function viewLines(v: ViewReport, o: Out): void {
  const { line, paint, c } = o;
  line();
  line(c.bold(`▸ ${v.name}${v.parent ? ` (within the flagged records of ${v.parent})` : ''}: ${formatCount(v.bottlenecks)} of ${plural(v.records, 'record')} flagged`));
  if (v.bottlenecks === 0) return;
  const counts = (['HIGH', 'WARN', 'INFO'] as const).filter((l) => v.byLevel[l] > 0).map((l) => paint[l](`${l} ${v.byLevel[l]}`));
  line(`  ${counts.join('  ')}`);
  for (const b of v.top) bottleneckLines(v, b, o);
  if (v.top.length < v.bottlenecks) line(c.dim(`  … ${v.bottlenecks - v.top.length} more (use --top)`));
}

function bottleneckLines(v: ViewReport, b: Bottleneck, o: Out): void {
  const { line, paint, c } = o;
  const m = b.metrics;
  line(`  ${paint[b.level](b.level.padEnd(4))}  ${keyText(b.key, v.dims)}`);
  line(
    c.dim(
      `        time ${formatSeconds(m.time)} (${formatPercent(m.time_share)} of the traced calls' time)  ops ${formatCount(m.ops)} (${formatPercent(m.ops_share)})  ${formatBytes(m.bytes)}  ` +
        `${formatCount(m.iops)} IOPS  ${formatRate(m.bandwidth)}  ${o.metric}=${Number(b.score.value.toFixed(2))}${o.unit} (badness ${b.score.badness.toFixed(2)})`,
    ),
  );
  for (const f of o.byRecord.get(recordId(v.name, b.key)) ?? []) line(`        – ${E(f.text)} ${c.dim(`[${f.code}]`)}`);
}
