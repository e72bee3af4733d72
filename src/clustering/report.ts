// `iolens cluster --summary`: a clustering run for people — the largest groups and the groups that lose the most
// I/O time, each with what sets it apart from its sibling (the one-split rule in words), its local model against
// the global one, and what drives its throughput (mean |SHAP|). Terminal text or Markdown; every name from the
// data is escaped.
import { escapeMarkdown, escapeTerminal } from '../text/escape.js';
import { formatCount, formatPercent, formatSeconds, plural } from '../text/format.js';
import { describeFeature, formatFeatureValue, formatNumber } from './describe.js';
import type { NodeRecord } from './run.js';
import type { StoredRun } from './save.js';

export type SummaryFormat = 'text' | 'md';

/** Number, or NaN for a missing (null) JSON value. */
const num = (v: unknown): number => (v === null || v === undefined ? NaN : Number(v));

const factor = (v: unknown): string => (Number.isFinite(num(v)) ? `×${num(v).toFixed(2)}` : 'n/a');

function header(run: StoredRun): string[] {
  const i = run.info;
  const p = i.params as Record<string, unknown> & { preparation?: { pca?: number | null; imputed_values?: number } };
  const noiseShare = i.rows > 0 ? i.noise / i.rows : 0;
  const pca = p.preparation?.pca;
  const lines = [
    `${run.run_id} of ${i.source_table}: ${plural(i.rows, 'row')} (key ${i.key_column}), made ${run.created_at.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}`,
    `${plural(i.clusters, 'cluster')}, ${plural(i.noise, 'row')} noise (${formatPercent(noiseShare)}); min cluster size ${p.min_cluster_size}, min samples ${p.min_samples}, ${p.selection} selection${num(p.epsilon) > 0 ? `, epsilon ${p.epsilon}` : ''}`,
    `${formatCount(i.features.length)} features, clustered ${pca ? `on ${pca} principal components` : 'in the full space'}${p.preparation?.imputed_values ? `; ${formatCount(p.preparation.imputed_values)} NULL values taken as 0` : ''}`,
  ];
  const root = run.nodes[0];
  const io = root?.summary.io_time;
  if (io && i.noise > 0) {
    // Selected clusters are disjoint and noise is every other row, so noise holds the rest of the I/O time.
    const inClusters = run.nodes.filter((n) => n.selected).reduce((a, n) => a + (n.summary.io_time?.total ?? 0), 0);
    const rest = Math.max(0, io.total - inClusters);
    lines.push(`noise: ${plural(i.noise, 'job')}, I/O time ${formatSeconds(rest)}${io.total > 0 ? ` (${formatPercent(rest / io.total)} of all)` : ''}`);
  }
  if (root?.model) {
    const m = root.model;
    lines.push(
      `global model of ${m.target} (${m.family}, ${formatCount(m.rows)} jobs): error factor ${factor(m.cv.median_error_factor)} (median, ${m.folds}-fold cross-validated; predicting the median: ${factor(m.baseline.median_error_factor)})`,
    );
  } else if (p.target) lines.push(`no throughput models (too few jobs with ${String(p.target)}, or --max-models 0)`);
  if (run.note) lines.push(`note: ${run.note}`);
  return lines;
}

/** The lines that describe one group (a selected node). */
function groupLines(run: StoredRun, n: NodeRecord): { title: string; details: string[] } {
  const root = run.nodes[0];
  const s = n.summary;
  const parts = [`${formatCount(n.size)} jobs (${formatPercent(n.size / Math.max(1, root.size))})`];
  if (s.io_time) {
    const all = root.summary.io_time?.total ?? 0;
    parts.push(`I/O time ${formatSeconds(s.io_time.total)}${all > 0 ? ` (${formatPercent(s.io_time.total / all)} of all)` : ''}`);
  }
  if (s.target && s.target.median !== null) parts.push(`median ${s.target.column} ${formatFeatureValue(describeFeature(s.target.column), s.target.median)}`);
  const details: string[] = [];
  // Whose jobs these are, and what they do that the whole set does not.
  if (s.apps && s.apps.length > 0) details.push(`applications: ${s.apps.map((a) => `${a.name} (${formatPercent(a.jobs / Math.max(1, n.size))})`).join(', ')}${s.apps.reduce((x, a) => x + a.jobs, 0) < n.size ? ', …' : ''}`);
  const marks = distinctive(run, n);
  if (marks.length > 0) details.push(`typical job: ${marks.join('; ')}`);
  const rule = n.explanation?.rule;
  if (rule) details.push(`vs ${rule.siblings.map((x) => `#${x}`).join(', ')}: ${rule.text}`);
  if (n.model) {
    const m = n.model;
    details.push(
      `local model: error factor ${factor(m.cv.median_error_factor)} (${m.folds}-fold cross-validated, ${formatCount(m.rows)} jobs) vs global ${factor(m.global.median_error_factor)} on the same jobs`,
    );
  }
  const shap = n.explanation?.shap;
  if (shap && shap.features.length > 0) {
    const top = shap.features.filter((f) => num(f.mean_abs) > 0).slice(0, 5);
    if (top.length > 0) {
      details.push(`what moves throughput inside the group (mean |SHAP| in decades; + = more of it, faster): ${top.map((f) => `${f.label} ${formatNumber(num(f.mean_abs), 2)} (${f.sign})`).join('; ')}`);
    }
  }
  return { title: `cluster ${n.label} (node #${n.id}): ${parts.join(', ')}`, details };
}

/**
 * The node's features whose median stands furthest from the whole set's, in units of the whole set's spread (at most
 * two, at least one IQR away): "share of bytes read 0% (all jobs 45.0%)".
 */
function distinctive(run: StoredRun, n: NodeRecord): string[] {
  const root = run.nodes[0];
  if (!root || n.id === root.id) return [];
  const scored: { name: string; z: number }[] = [];
  for (const [name, f] of Object.entries(n.summary.features)) {
    const all = root.summary.features[name];
    if (!all) continue;
    const spread = all.iqr > 0 ? all.iqr : Math.abs(all.median) > 0 ? Math.abs(all.median) : 1;
    const z = Math.abs(f.median - all.median) / spread;
    if (z >= 1) scored.push({ name, z });
  }
  return scored
    .sort((a, b) => b.z - a.z || (a.name < b.name ? -1 : 1))
    .slice(0, 2)
    .map(({ name }) => {
      const info = describeFeature(name);
      return `${info.label} ${formatFeatureValue(info, n.summary.features[name].median)} (all jobs ${formatFeatureValue(info, root.summary.features[name].median)})`;
    });
}

/** The selected nodes, largest first, and by I/O time (when the run has an I/O-time column). */
export function topGroups(run: StoredRun, top: number): { largest: NodeRecord[]; ioTime: NodeRecord[] | null } {
  const groups = run.nodes.filter((n) => n.selected);
  const largest = [...groups].sort((a, b) => b.size - a.size || a.id - b.id).slice(0, top);
  const withIo = run.nodes[0]?.summary.io_time ? [...groups].sort((a, b) => (b.summary.io_time?.total ?? 0) - (a.summary.io_time?.total ?? 0) || a.id - b.id).slice(0, top) : null;
  return { largest, ioTime: withIo };
}

/** Renders the summary of a run. */
export function renderRunSummary(run: StoredRun, format: SummaryFormat, top = 10): string {
  const esc = format === 'md' ? escapeMarkdown : escapeTerminal;
  const { largest, ioTime } = topGroups(run, top);
  const sections: [string, NodeRecord[] | null, string][] = [
    ['Largest groups', largest, 'no cluster was found'],
    ['Groups that lose the most I/O time', ioTime, 'the run has no I/O-time column'],
  ];
  const out: string[] = [];
  if (format === 'md') {
    out.push(`# Clustering ${esc(run.run_id)}`, '');
    for (const l of header(run)) out.push(`- ${esc(l)}`);
    for (const [title, nodes, none] of sections) {
      out.push('', `## ${title}`, '');
      if (!nodes || nodes.length === 0) out.push(`_${esc(none)}_`);
      else {
        for (const n of nodes) {
          const g = groupLines(run, n);
          out.push(`- **${esc(g.title)}**`, ...g.details.map((d) => `  - ${esc(d)}`));
        }
      }
    }
    return out.join('\n') + '\n';
  }
  out.push(`IOLens clustering ${esc(run.run_id)}`, '');
  for (const l of header(run)) out.push(esc(l));
  for (const [title, nodes, none] of sections) {
    out.push('', title);
    if (!nodes || nodes.length === 0) out.push(`  (${none})`);
    else {
      for (const n of nodes) {
        const g = groupLines(run, n);
        out.push(`  ${esc(g.title)}`, ...g.details.map((d) => `    ${esc(d)}`));
      }
    }
  }
  return out.join('\n') + '\n';
}
