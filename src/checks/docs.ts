import { KNOBS, type Knob } from '../config/knobs.js';
import type { AnyCheck } from './types.js';
import type { LabCrossing, LabKnobMargin } from './lab-margins.js';
import { LAB_MARGINS, LAB_MARGINS_RUNS } from './lab-margins-data.js';

/** Headings every check page has (the meta-test enforces them). */
export const DOC_HEADINGS = ['What it detects', 'Why it matters', 'Evidence', 'Options', 'Decision margin on the lab', 'How to fix', 'Example', 'Differences from Drishti'] as const;

/** A knob value in its unit. */
function knobValue(knob: Knob, v: number): string {
  const unit = KNOBS[knob].unit;
  if (unit === 'bytes') {
    for (const [size, name] of [[1 << 30, 'GiB'], [1 << 20, 'MiB'], [1 << 10, 'KiB']] as const) if (v >= size) return `${Number((v / size).toPrecision(3))} ${name}`;
    return `${Number(v.toPrecision(3))} B`;
  }
  return `${Number(v.toPrecision(3))}${unit === 'seconds' ? ' s' : ''}`;
}

function runName(file: string): string {
  return `\`${file.replace(/\.darshan$/, '')}\``;
}

function crossing(knob: Knob, c: LabCrossing | null, none: string): string {
  if (!c) return none;
  return c.value === null ? `never (${runName(c.file)} and others stay put)` : `${knobValue(knob, c.value)} (${runName(c.file)})`;
}

/** The section "Decision margin on the lab" (data: lab-margins-data.ts, measured by src/eval/lab.test.ts). */
function marginSection(code: string, problem: string | undefined): string[] {
  const m = LAB_MARGINS[code];
  if (!m) {
    const why = code[0] === 'T' ? 'a trace check judges the views of `iolens trace`, which the lab\'s evaluation of reports does not run' : !problem ? 'the check names no problem (an observation)' : `no run of the lab is labelled \`${problem}\`, or the check does not run in the default mode`;
    return [`Not measured on the lab: ${why}.`, ''];
  }
  const o: string[] = [];
  o.push(
    `Measured on the ${LAB_MARGINS_RUNS} runs of the lab (docs/eval.md, "Decision margins"): each knob alone is moved from its default until the check's verdict on some run changes. The check names ${m.found} of the ${m.labelled} runs labelled \`${m.problem}\`.`,
    '',
    '| knob | default | names more when | a run without the problem becomes HIGH at | … becomes WARN at | the nearest found run is lost at |',
    '|---|---|---|---|---|---|',
  );
  const dir = (k: LabKnobMargin) => (k.loosens === 'up' ? 'raised' : k.loosens === 'down' ? 'lowered' : 'never (no run reacts)');
  for (const k of m.knobs) {
    o.push(`| \`${k.knob}\` | ${knobValue(k.knob, k.default)} | ${dir(k)} | ${crossing(k.knob, k.falseHigh, 'never')} | ${crossing(k.knob, k.falseWarn, 'never')} | ${crossing(k.knob, k.lost, '—')} |`);
  }
  const missed = new Map<string, string[]>();
  for (const k of m.knobs) for (const c of k.missed) if (c.value !== null) missed.set(c.file, [...(missed.get(c.file) ?? []), `\`${k.knob}\` = ${knobValue(k.knob, c.value)}`]);
  const files = new Set(m.knobs.flatMap((k) => k.missed.map((c) => c.file)));
  o.push('');
  if (!files.size) o.push('It misses no labelled run.');
  else {
    o.push(`Labelled runs it misses (${files.size}), and the single knob value that would name each:`, '');
    for (const f of files) o.push(`- ${runName(f)}: ${missed.get(f)?.join(', ') ?? 'no single knob value names it'}`);
  }
  o.push('');
  return o;
}

function folder(code: string): string {
  return code[0] === 'D' ? 'diagnosis' : code[0] === 'S' ? 'stdio' : code[0] === 'P' ? 'posix' : code[0] === 'T' ? 'trace' : 'mpiio';
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
  o.push('## Decision margin on the lab', '', ...marginSection(m.code, m.problem));
  o.push('## How to fix', '');
  const recs = Object.entries(m.recommendations as Record<string, { text: string; snippet?: string }>);
  if (!recs.length) o.push('No recommendation: this is an observation.', '');
  else for (const [id, r] of recs) o.push(`- \`${id}\`: ${r.text}${r.snippet ? ` (example: [\`snippets/${r.snippet}\`](../../snippets/${r.snippet}))` : ''}`);
  if (m.layer === 'trace') {
    o.push('', '## Example', '', `The scenario tests \`src/checks/trace/checks.test.ts\` build traces on which it fires and stays quiet, with the expected records, costs and levels; the trace goldens (\`fixtures/golden-trace/\`, \`fixtures/golden/trace-*\`) show it on the shared traces.`, '');
  } else if (!m.compat.drishti) {
    o.push('', '## Example', '', `The table test \`src/checks/${folder(m.code)}/${base}.test.ts\` lists labelled logs of the shared corpus on which it fires and stays quiet; \`npm run eval\` (docs/eval.md) measures it against every label.`, '');
  } else {
    o.push('', '## Example', '', `The table test \`src/checks/${folder(m.code)}/${base}.test.ts\` lists logs of the shared corpus on which it fires and stays quiet, with the expected values (checked against Drishti's outputs).`, '');
  }
  o.push('## Differences from Drishti', '');
  if (m.layer === 'trace') o.push('Not a Drishti check: it runs in `iolens trace` (docs/trace.md), on the views of a trace.', '');
  else if (!m.compat.drishti) o.push(`Runs in the default mode only (never with \`--drishti\`)${m.supersedes?.length ? `; replaces ${m.supersedes.join(', ')} there` : ''}${m.traces ? '; `iolens trace` runs it too, where its facts exist' : ''}.`, '');
  const diffs = m.compat.differences ?? [];
  if (!diffs.length && m.compat.drishti) o.push(`None: the default mode and \`--drishti\` compute ${m.code} the same way as Drishti.`, '');
  else for (const d of diffs) o.push(`- **${d.id}**: ${d.description}`);
  if (diffs.length) o.push('');
  return o.join('\n');
}
