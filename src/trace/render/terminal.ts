import pc from 'picocolors';
import { formatBytes, formatCount, formatPercent, formatSeconds } from '../../text/format.js';
import type { TraceReport } from '../report.js';
import type { Severity } from '../score.js';
import { escapeTerminal } from '../../text/escape.js';

type Colors = ReturnType<typeof pc.createColors>;

const SEV_COLOR: Record<Severity, (c: Colors, s: string) => string> = {
  none: (c, s) => c.dim(s),
  trivial: (c, s) => c.dim(s),
  'very low': (c, s) => c.cyan(s),
  low: (c, s) => c.cyan(s),
  medium: (c, s) => c.yellow(s),
  high: (c, s) => c.yellow(c.bold(s)),
  'very high': (c, s) => c.red(s),
  critical: (c, s) => c.red(c.bold(s)),
};

function keyText(key: Record<string, string | number | undefined>, dims: string[]): string {
  return dims
    .map((d) => {
      const v = key[d];
      if (d === 'time') return `t=${typeof v === 'number' ? `${v}s` : String(v)}`;
      return `${d}=${escapeTerminal(String(v))}`;
    })
    .join('  ');
}

/** Terminal rendering: the I/O characteristics panel, then the bottlenecks of each view with reasons. */
export function renderTerminal(r: TraceReport, emit: (text: string) => void, color: boolean): void {
  const c = pc.createColors(color);
  const ch = r.characteristics;
  const line = (s = '') => emit(`${s}\n`);
  line(c.bold(`I/O characteristics — ${r.input.format} trace, ${formatCount(r.input.events)} events from ${formatCount(r.input.sources)} source(s)`));
  for (const w of r.input.warnings) line(c.yellow(`  warning: ${escapeTerminal(w)}`));
  line(`  layers analyzed   ${r.options.layers.join(', ')}  (${formatCount(ch.events_analyzed)} of ${formatCount(ch.events_total)} events)`);
  line(`  runtime           ${formatSeconds(ch.runtime)}`);
  line(`  I/O time          ${formatSeconds(ch.io_time)} (sum over calls)`);
  line(`  processes/files   ${formatCount(ch.processes)} processes on ${formatCount(ch.hosts)} host(s), ${formatCount(ch.files)} files, ${formatCount(ch.apps)} app(s)`);
  line(`  operations        ${formatCount(ch.ops)}  read ${formatPercent(ch.read.ops_share)}  write ${formatPercent(ch.write.ops_share)}  metadata ${formatPercent(ch.metadata.ops_share)}  sync ${formatPercent(ch.sync.ops_share)}`);
  line(`  bytes             ${formatBytes(ch.bytes)}  read ${formatBytes(ch.read.bytes)} (${formatPercent(ch.read.bytes_share)})  written ${formatBytes(ch.write.bytes)} (${formatPercent(ch.write.bytes_share)})`);
  line(`  time shares       read ${formatPercent(ch.read.time_share)}  write ${formatPercent(ch.write.time_share)}  metadata ${formatPercent(ch.metadata.time_share)}  sync ${formatPercent(ch.sync.time_share)}`);
  const calls = Object.entries(ch.calls_by_function);
  const shown = calls.slice(0, 12).map(([f, n]) => `${escapeTerminal(f)} ${formatCount(n)}`);
  line(`  calls by function ${shown.join(', ')}${calls.length > 12 ? `, … (${calls.length - 12} more)` : ''}`);
  line();
  const s = r.severity;
  line(c.bold(`Bottlenecks by ${s.metric} (threshold ${s.threshold}${s.unit}; time windows of ${r.options.granularity} s)`));
  for (const v of r.views) {
    const head = `${v.name}${v.parent ? ` (within ${v.parent} bottlenecks)` : ''}: ${formatCount(v.bottlenecks)} of ${formatCount(v.records)} records`;
    line();
    line(c.bold(`▸ ${head}`));
    if (v.bottlenecks === 0) continue;
    const counts = (Object.entries(v.by_severity) as [Severity, number][]).filter(([k, n]) => k !== 'none' && n > 0).map(([k, n]) => SEV_COLOR[k](c, `${k} ${n}`));
    line(`  ${counts.join('  ')}`);
    for (const b of v.top) {
      const sev = SEV_COLOR[b.severity](c, b.severity.padEnd(9));
      line(`  ${sev} ${keyText(b.key, v.dims)}`);
      line(c.dim(`            ${s.metric}=${Number(b.value.toFixed(2))}${s.unit}  time ${formatSeconds(b.metrics.time)} (${formatPercent(b.metrics.time_share)})  ops ${formatCount(b.metrics.ops)} (${formatPercent(b.metrics.ops_share)})  ${formatBytes(b.metrics.bytes)}  ${formatCount(b.metrics.iops)} IOPS  ${formatBytes(b.metrics.bandwidth)}/s`));
      for (const reason of b.reasons) line(`            – ${escapeTerminal(reason.message)} ${c.dim(`[${reason.rule}]`)}`);
    }
    if (v.top.length < v.bottlenecks) line(c.dim(`  … ${v.bottlenecks - v.top.length} more (use --top)`));
  }
  line();
  const cov = r.rules.coverage;
  line(`Rules coverage: ${formatCount(cov.explained)} of ${formatCount(cov.bottlenecks)} bottlenecks have at least one reason (${formatPercent(cov.share)}); rules: ${r.rules.builtin.length} built-in, ${r.rules.user.length} user`);
}
