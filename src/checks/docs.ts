import { KNOBS, type Knob } from '../config/knobs.js';
import type { AnyCheck } from './types.js';

/** Headings every check page has (the meta-test enforces them). */
export const DOC_HEADINGS = ['What it detects', 'Why it matters', 'Evidence', 'Options', 'How to fix', 'Example', 'Differences from Drishti'] as const;

function folder(code: string): string {
  return code[0] === 'D' ? 'diagnosis' : code[0] === 'S' ? 'stdio' : code[0] === 'P' ? 'posix' : 'mpiio';
}

/** The docs page of a check, generated from its meta (docs/checks/<code>.md). */
export function checkDoc(check: AnyCheck): string {
  const m = check.meta;
  const base = `${m.code.toLowerCase()}-${m.slug}`;
  const o: string[] = [];
  o.push('---', `code: ${m.code}`, `title: ${m.failureTitle}`, `level: ${m.level}`, `panel: ${m.panel}`, ...(m.problem ? [`problem: ${m.problem}`] : []), 'since: 0.1.0', '---', '');
  o.push(`# ${m.code} — ${m.failureTitle}`, '', `Source: \`src/checks/${folder(m.code)}/${base}.ts\` · slug \`${m.slug}\` · layer ${m.layer} · scope ${m.scope}`, '');
  o.push('## What it detects', '', m.failureTitle + '.', '');
  for (const [id, t] of Object.entries(m.messages as Record<string, string>)) o.push(`- \`${id}\`: ${t}`);
  o.push('', '## Why it matters', '', m.description, '');
  o.push('## Evidence', '', `Facts: ${m.requires.map((f) => `\`${f}\``).join(', ') || 'none'}. Each insight carries its evidence values with units and counter names in the report JSON.`, '');
  o.push('## Options', '');
  const opts = Object.entries(m.options as Record<string, { knob: Knob; description?: string }>);
  if (!opts.length) o.push('None.', '');
  else {
    o.push('| option | config key (`--config`) | default | meaning |', '|---|---|---|---|');
    for (const [name, s] of opts) o.push(`| \`${name}\` | \`${s.knob}\` | ${KNOBS[s.knob].default} | ${s.description ?? KNOBS[s.knob].description} |`);
    o.push('', m.compat.drishti ? 'Conditions use strict `>`: a value exactly at the threshold does not fire.' : 'Ratios and shares use strict `>`; minimum counts, bytes and seconds are reached with `≥`.', '');
  }
  o.push('## How to fix', '');
  const recs = Object.entries(m.recommendations as Record<string, { text: string; snippet?: string }>);
  if (!recs.length) o.push('No recommendation: this is an observation.', '');
  else for (const [id, r] of recs) o.push(`- \`${id}\`: ${r.text}${r.snippet ? ` (example: [\`snippets/${r.snippet}\`](../../snippets/${r.snippet}))` : ''}`);
  if (!m.compat.drishti) {
    o.push('', '## Example', '', `The table test \`src/checks/${folder(m.code)}/${base}.test.ts\` lists labelled logs of the shared corpus on which it fires and stays quiet; \`npm run eval\` (docs/eval.md) measures it against every label.`, '');
  } else {
    o.push('', '## Example', '', `The table test \`src/checks/${folder(m.code)}/${base}.test.ts\` lists logs of the shared corpus on which it fires and stays quiet, with the expected values (checked against Drishti's outputs).`, '');
  }
  o.push('## Differences from Drishti', '');
  if (!m.compat.drishti) o.push(`Runs in the default mode only (never with \`--drishti\`)${m.supersedes?.length ? `; replaces ${m.supersedes.join(', ')} there` : ''}.`, '');
  const diffs = m.compat.differences ?? [];
  if (!diffs.length && m.compat.drishti) o.push(`None: the default mode and \`--drishti\` compute ${m.code} the same way as Drishti.`, '');
  else for (const d of diffs) o.push(`- **${d.id}**: ${d.description}`);
  if (diffs.length) o.push('');
  return o.join('\n');
}
