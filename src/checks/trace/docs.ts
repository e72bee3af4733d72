import { KNOBS, type Knob } from '../../config/knobs.js';
import { TRACE_CHECKS } from './registry.js';

/** Markers around the generated check table in docs/trace.md. */
export const TRACE_CHECKS_BEGIN = '<!-- trace-checks:begin (generated from the checks\' meta) -->';
export const TRACE_CHECKS_END = '<!-- trace-checks:end -->';

/** The table of built-in trace checks for docs/trace.md, from their meta. */
export function traceChecksTable(): string {
  const rows = ['| code | slug | problem | panel | finds | options: knob (default) |', '|---|---|---|---|---|---|'];
  for (const c of TRACE_CHECKS) {
    const m = c.meta;
    const opts = Object.entries(m.options as Record<string, { knob: Knob; description?: string }>)
      .map(([name, o]) => `\`${name}\`: \`${o.knob}\` (${KNOBS[o.knob].default}) — ${o.description ?? KNOBS[o.knob].description}`)
      .join('<br>');
    rows.push(`| ${m.code} | \`${m.slug}\` | \`${m.problem ?? ''}\` | ${m.panel} | ${m.failureTitle}. ${m.description} | ${opts} |`);
  }
  return `${rows.join('\n')}\n`;
}
