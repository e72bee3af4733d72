import pc from 'picocolors';
import { bytes, int, pct, secs } from '../rules/types.js';
import type { TraceReport } from '../report.js';
import type { Severity } from '../score.js';
import { escapeTerminal } from './escape.js';

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
  line(c.bold(`I/O characteristics — ${r.input.format} trace, ${int(r.input.events)} events from ${int(r.input.sources)} source(s)`));
  for (const w of r.input.warnings) line(c.yellow(`  warning: ${escapeTerminal(w)}`));
  line(`  layers analyzed   ${r.options.layers.join(', ')}  (${int(ch.events_analyzed)} of ${int(ch.events_total)} events)`);
  line(`  runtime           ${secs(ch.runtime)}`);
  line(`  I/O time          ${secs(ch.io_time)} (sum over calls)`);
  line(`  processes/files   ${int(ch.processes)} processes on ${int(ch.hosts)} host(s), ${int(ch.files)} files, ${int(ch.apps)} app(s)`);
  line(`  operations        ${int(ch.ops)}  read ${pct(ch.read.ops_share)}  write ${pct(ch.write.ops_share)}  metadata ${pct(ch.metadata.ops_share)}  sync ${pct(ch.sync.ops_share)}`);
  line(`  bytes             ${bytes(ch.bytes)}  read ${bytes(ch.read.bytes)} (${pct(ch.read.bytes_share)})  written ${bytes(ch.write.bytes)} (${pct(ch.write.bytes_share)})`);
  line(`  time shares       read ${pct(ch.read.time_share)}  write ${pct(ch.write.time_share)}  metadata ${pct(ch.metadata.time_share)}  sync ${pct(ch.sync.time_share)}`);
  const calls = Object.entries(ch.calls_by_function);
  const shown = calls.slice(0, 12).map(([f, n]) => `${escapeTerminal(f)} ${int(n)}`);
  line(`  calls by function ${shown.join(', ')}${calls.length > 12 ? `, … (${calls.length - 12} more)` : ''}`);
  line();
  const s = r.severity;
  line(c.bold(`Bottlenecks by ${s.metric} (threshold ${s.threshold}${s.unit}; time windows of ${r.options.granularity} s)`));
  for (const v of r.views) {
    const head = `${v.name}${v.parent ? ` (within ${v.parent} bottlenecks)` : ''}: ${int(v.bottlenecks)} of ${int(v.records)} records`;
    line();
    line(c.bold(`▸ ${head}`));
    if (v.bottlenecks === 0) continue;
    const counts = (Object.entries(v.by_severity) as [Severity, number][]).filter(([k, n]) => k !== 'none' && n > 0).map(([k, n]) => SEV_COLOR[k](c, `${k} ${n}`));
    line(`  ${counts.join('  ')}`);
    for (const b of v.top) {
      const sev = SEV_COLOR[b.severity](c, b.severity.padEnd(9));
      line(`  ${sev} ${keyText(b.key, v.dims)}`);
      line(c.dim(`            ${s.metric}=${Number(b.value.toFixed(2))}${s.unit}  time ${secs(b.metrics.time)} (${pct(b.metrics.time_share)})  ops ${int(b.metrics.ops)} (${pct(b.metrics.ops_share)})  ${bytes(b.metrics.bytes)}  ${int(b.metrics.iops)} IOPS  ${bytes(b.metrics.bandwidth)}/s`));
      for (const reason of b.reasons) line(`            – ${escapeTerminal(reason.message)} ${c.dim(`[${reason.rule}]`)}`);
    }
    if (v.top.length < v.bottlenecks) line(c.dim(`  … ${v.bottlenecks - v.top.length} more (use --top)`));
  }
  line();
  const cov = r.rules.coverage;
  line(`Rules coverage: ${int(cov.explained)} of ${int(cov.bottlenecks)} bottlenecks have at least one reason (${pct(cov.share)}); rules: ${r.rules.builtin.length} built-in, ${r.rules.user.length} user`);
}
