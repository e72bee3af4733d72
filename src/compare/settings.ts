import type { LayerWork, Report, RunSettings } from '../contract/index.js';
import type { FactReader } from '../facts/define-fact.js';

/**
 * What a run was configured as and asked for, from its facts and its report: process and node counts, library and
 * module set, the application's MPI-IO hints, file systems, files, each layer's requests and bytes, and the most
 * common Lustre layout. Facts a trace cannot supply are left out (null or empty), never guessed.
 */
export function runSettings(facts: FactReader, report: Report): RunSettings {
  const log = facts.tryGet('log');
  const totals = facts.tryGet('modules.totals');
  const layers: LayerWork[] = (totals?.modules ?? [])
    .filter((m) => m.records > 0)
    .map((m) => ({ layer: m.iface, files: m.files, opens: m.opens, reads: m.reads, writes: m.writes, bytesRead: m.bytesRead, bytesWritten: m.bytesWritten }));
  return {
    processes: report.job.processes,
    nodes: report.job.nodes.count,
    exe: report.job.exe,
    libraryVersion: log?.runtimeVersion ?? null,
    formatVersion: report.job.darshanVersion,
    modules: [...report.job.modules],
    hints: report.job.hints.source === 'application' ? report.job.hints.entries.map(([k, v]) => [k, v] as const) : [],
    fsTypes: [...(log?.fsTypes ?? [])],
    files: report.job.files.total,
    layers,
    stripes: commonLayout(facts),
  };
}

/** The Lustre layout most of the files have (ties: the larger stripe count, then size). */
function commonLayout(facts: FactReader): RunSettings['stripes'] {
  const s = facts.tryGet('lustre.stripes');
  if (!s) return null;
  const n = new Map<string, { size: number; count: number; files: number }>();
  for (let i = 0; i < s.ids.length; i++) {
    if (!s.hasLayout[i]) continue;
    const k = `${s.stripeSize[i]}/${s.stripeCount[i]}`;
    const e = n.get(k) ?? { size: s.stripeSize[i], count: s.stripeCount[i], files: 0 };
    e.files++;
    n.set(k, e);
  }
  let best: RunSettings['stripes'] = null;
  for (const e of n.values()) if (!best || e.files > best.files || (e.files === best.files && (e.count > best.count || (e.count === best.count && e.size > best.size)))) best = e;
  return best;
}
