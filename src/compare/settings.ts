import type { LayerWork, Report, RunSettings } from '../contract/index.js';
import type { FactReader } from '../facts/define-fact.js';
import { MODULE_TOTALS } from '../facts/module-measures.js';

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
    .map((m) => ({ module: m.module, layer: m.iface, files: m.files, opens: m.opens, reads: m.reads, writes: m.writes, bytesRead: m.bytesRead, bytesWritten: m.bytesWritten }));
  return { ...fromReport(report), libraryVersion: log?.runtimeVersion ?? null, fsTypes: [...(log?.fsTypes ?? [])], layers, stripes: commonLayout(facts) };
}

/** The settings every report states: processes, nodes, executable, format version, modules, the application's hints, files. */
function fromReport(report: Report): Pick<RunSettings, 'processes' | 'nodes' | 'exe' | 'formatVersion' | 'modules' | 'hints' | 'files'> {
  const j = report.job;
  return {
    processes: j.processes,
    nodes: j.nodes.count,
    exe: j.exe,
    formatVersion: j.darshanVersion,
    modules: [...j.modules],
    hints: j.hints.source === 'application' ? j.hints.entries.map(([k, v]) => [k, v] as const) : [],
    files: j.files.total,
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

/**
 * A run's settings from its report and its row in the job store (the web service compares stored jobs, whose logs it
 * may not have): the row's totals give each layer's requests and bytes, its `runtime_version` and `fs_types` the
 * library and file systems. The Lustre layout is not in the row (null).
 */
export function settingsFromRow(report: Report, row: Readonly<Record<string, unknown>> | null): RunSettings {
  const num = (k: string): number => (row && typeof row[k] === 'number' ? (row[k] as number) : 0);
  const layers: LayerWork[] = [];
  // the row's module totals, as the facts' modules.totals (same column prefixes, same interfaces)
  for (const { key: k, module, iface: layer } of MODULE_TOTALS) {
    const w: LayerWork = { module, layer, files: num(`${k}_files`), opens: num(`${k}_opens`), reads: num(`${k}_reads`), writes: num(`${k}_writes`), bytesRead: num(`${k}_bytes_read`), bytesWritten: num(`${k}_bytes_written`) };
    if (w.reads + w.writes + w.opens > 0) layers.push(w);
  }
  return {
    ...fromReport(report),
    libraryVersion: row && typeof row.runtime_version === 'string' ? row.runtime_version : null,
    fsTypes: row && Array.isArray(row.fs_types) ? row.fs_types.map(String) : [],
    layers,
    stripes: null,
  };
}
