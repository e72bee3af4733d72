import {
  COMPARISON_SCHEMA_VERSION,
  type Cause,
  type ComparedFinding,
  type ComparedRun,
  type Comparison,
  type FindingSpread,
  type OtherComparison,
  type PartDelta,
  type Report,
  type RunSettings,
} from '../contract/index.js';
import { formatBytes, formatCount } from '../text/format.js';

/** One run to compare: its report and settings, under the name to show. */
export interface RunInput {
  readonly name: string;
  readonly path: string;
  readonly report: Report;
  readonly settings: RunSettings;
}

const raised = (f: { level: string }): boolean => f.level === 'HIGH' || f.level === 'WARN';

/**
 * A run as compared. A finding's seconds are its share of the I/O time times the I/O time on the slowest rank, so
 * that costs measured summed over ranks and on the slowest rank stand on one scale: the time the job waited.
 */
/** A finding's cost in seconds the job waited: its share of the I/O time times the slowest rank's I/O time (0 without one). */
export function waitedSeconds(cost: { readonly ioShare: number } | undefined, io: { readonly ioTime: number }): number {
  return cost && Number.isFinite(cost.ioShare) ? cost.ioShare * io.ioTime : 0;
}

export function comparedRun(r: RunInput): ComparedRun {
  const io = r.report.io;
  const findings: ComparedFinding[] = r.report.insights
    .filter((f) => raised(f) || f.cost !== undefined)
    .map((f) => ({
      code: f.code,
      level: f.level,
      problem: f.problem ?? null,
      seconds: waitedSeconds(f.cost, io),
      basis: f.cost?.basis ?? null,
      ...(f.cost && f.savings ? { saves: waitedSeconds({ ioShare: f.cost.seconds > 0 ? (f.cost.ioShare * Math.min(f.savings.seconds, f.cost.seconds)) / f.cost.seconds : 0 }, io) } : {}),
      message: f.message,
    }));
  return {
    name: r.name,
    path: r.path,
    format: r.report.input.format,
    jobId: r.report.job.jobId,
    runTime: io.runTime,
    ioTime: io.ioTime,
    cumulativeIoTime: io.cumulativeIoTime,
    ioShare: io.ioShare,
    bytes: io.bytes,
    breakdown: io.breakdown,
    findings,
    settings: r.settings,
  };
}

/** The time model's parts of two runs side by side, the largest change (slowest rank) first. */
export function partDeltas(base: ComparedRun, other: ComparedRun): PartDelta[] {
  const key = (s: { layer: string; op: string }) => `${s.layer}\u0000${s.op}`;
  const parts = new Map<string, { layer: string; op: PartDelta['op']; b: [number, number]; o: [number, number] }>();
  for (const [side, run] of [['b', base], ['o', other]] as const) {
    for (const s of run.breakdown) {
      const p = parts.get(key(s)) ?? { layer: s.layer, op: s.op, b: [0, 0], o: [0, 0] };
      p[side] = [p[side][0] + s.seconds, p[side][1] + s.cumulativeSeconds];
      parts.set(key(s), p);
    }
  }
  return [...parts.values()]
    .map((p) => ({
      layer: p.layer,
      op: p.op,
      baseSeconds: p.b[0],
      otherSeconds: p.o[0],
      delta: p.o[0] - p.b[0],
      baseCumulative: p.b[1],
      otherCumulative: p.o[1],
      deltaCumulative: p.o[1] - p.b[1],
    }))
    .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || Math.abs(y.deltaCumulative) - Math.abs(x.deltaCumulative) || x.layer.localeCompare(y.layer) || x.op.localeCompare(y.op));
}

/**
 * Findings that differ between the runs: raised (WARN/HIGH) in one and not the other, or raised in both at another
 * cost or level; signed seconds, more in the other run positive.
 */
export function findingCauses(base: ComparedRun, other: ComparedRun): Cause[] {
  const codes: string[] = [];
  for (const f of [...base.findings, ...other.findings]) if (raised(f) && !codes.includes(f.code)) codes.push(f.code);
  const out: Cause[] = [];
  for (const code of codes) {
    const b = base.findings.find((f) => f.code === code) ?? null;
    const o = other.findings.find((f) => f.code === code) ?? null;
    const inBase = b !== null && raised(b);
    const inOther = o !== null && raised(o);
    const seconds = (o?.seconds ?? 0) - (b?.seconds ?? 0);
    const change = !inBase ? 'appears' : !inOther ? 'vanishes' : 'changes';
    if (change === 'changes' && seconds === 0 && b!.level === o!.level) continue;
    out.push({
      kind: 'finding',
      change,
      code,
      problem: (o ?? b)!.problem,
      seconds,
      baseLevel: b?.level ?? null,
      otherLevel: o?.level ?? null,
      text: (inOther ? o : b)!.message,
      evidence: [
        { name: 'cost', base: b?.seconds ?? null, other: o?.seconds ?? null, unit: 'seconds' },
        ...(b?.saves !== undefined || o?.saves !== undefined ? [{ name: 'savings', base: b?.saves ?? null, other: o?.saves ?? null, unit: 'seconds' as const }] : []),
      ],
    });
  }
  return out.sort((x, y) => Math.abs(y.seconds!) - Math.abs(x.seconds!) || x.code.localeCompare(y.code));
}

/** Sizes that differ by at least this factor are a changed request size or amount of data. */
const SIZE_FACTOR = 1.25;

function differs(a: number, b: number): boolean {
  if (a === b) return false;
  if (a <= 0 || b <= 0) return true;
  return Math.max(a, b) / Math.min(a, b) >= SIZE_FACTOR;
}

function setting(code: string, text: string, base: number | string | null, other: number | string | null, unit?: 'bytes' | 'count'): Cause {
  return { kind: 'setting', change: 'changed', code, problem: null, seconds: null, baseLevel: null, otherLevel: null, text, evidence: [{ name: code, base, other, ...(unit ? { unit } : {}) }] };
}

/** A layer's name in a setting: the layer, or for the two modules of HDF5 and PnetCDF which of them. */
const MODULE_LABELS: Readonly<Record<string, string>> = { H5F: 'HDF5 file', H5D: 'HDF5 dataset', PNETCDF_FILE: 'PnetCDF file', PNETCDF_VAR: 'PnetCDF variable' };
const label = (l: { module: string; layer: string }): string => MODULE_LABELS[l.module] ?? l.layer;

const meanSize = (bytes: number, ops: number): number => (ops > 0 ? bytes / ops : 0);

/**
 * Configuration and workload that changed: process and node counts, the application, library version, modules,
 * the application's hints, file systems, Lustre layout, number of files, data moved, and each layer's mean request
 * sizes (sizes and amounts when they differ by ×1.25 or more; counts and names when they differ at all).
 */
export function settingCauses(base: ComparedRun, other: ComparedRun): Cause[] {
  const b = base.settings, o = other.settings;
  const out: Cause[] = [];
  if (b.processes !== o.processes) out.push(setting('processes', `processes ${b.processes} → ${o.processes}`, b.processes, o.processes, 'count'));
  if (b.nodes !== null && o.nodes !== null && b.nodes !== o.nodes) out.push(setting('nodes', `nodes ${b.nodes} → ${o.nodes}`, b.nodes, o.nodes, 'count'));
  if (b.exe !== o.exe && b.exe !== '' && o.exe !== '') out.push(setting('executable', `executable ${b.exe} → ${o.exe}`, b.exe, o.exe));
  if (b.libraryVersion !== null && o.libraryVersion !== null && b.libraryVersion !== o.libraryVersion) out.push(setting('library', `Darshan runtime ${b.libraryVersion} → ${o.libraryVersion}`, b.libraryVersion, o.libraryVersion));
  const added = o.modules.filter((m) => !b.modules.includes(m)), removed = b.modules.filter((m) => !o.modules.includes(m));
  if (added.length || removed.length) {
    const parts = [...added.map((m) => `+${m}`), ...removed.map((m) => `−${m}`)];
    out.push(setting('modules', `modules ${parts.join(' ')}`, b.modules.join(' '), o.modules.join(' ')));
  }
  const hb = new Map(b.hints), ho = new Map(o.hints);
  for (const k of [...new Set([...hb.keys(), ...ho.keys()])].sort()) {
    const vb = hb.get(k) ?? null, vo = ho.get(k) ?? null;
    if (vb !== vo) out.push(setting(`hint ${k}`, `MPI-IO hint ${k}: ${vb ?? 'unset'} → ${vo ?? 'unset'}`, vb, vo));
  }
  if (b.fsTypes.length && o.fsTypes.length && b.fsTypes.join(',') !== o.fsTypes.join(',')) out.push(setting('file systems', `file systems ${b.fsTypes.join(', ')} → ${o.fsTypes.join(', ')}`, b.fsTypes.join(', '), o.fsTypes.join(', ')));
  if (b.stripes && o.stripes && (b.stripes.size !== o.stripes.size || b.stripes.count !== o.stripes.count)) {
    out.push(setting('stripes', `Lustre stripes ${b.stripes.count} × ${formatBytes(b.stripes.size)} → ${o.stripes.count} × ${formatBytes(o.stripes.size)}`, `${b.stripes.count}x${b.stripes.size}`, `${o.stripes.count}x${o.stripes.size}`));
  }
  if (b.files !== o.files) out.push(setting('files', `files ${formatCount(b.files)} → ${formatCount(o.files)}`, b.files, o.files, 'count'));
  if (differs(base.bytes, other.bytes)) out.push(setting('data moved', `data moved ${formatBytes(base.bytes)} → ${formatBytes(other.bytes)}`, base.bytes, other.bytes, 'bytes'));
  for (const lb of b.layers) {
    const lo = o.layers.find((l) => l.module === lb.module);
    if (!lo) continue;
    for (const [what, bs, bn, os, on] of [
      ['write', lb.bytesWritten, lb.writes, lo.bytesWritten, lo.writes],
      ['read', lb.bytesRead, lb.reads, lo.bytesRead, lo.reads],
    ] as const) {
      // (a layer that did not write in one run shows in the data moved and the time model, not as a size)
      if (!(bn > 0 && on > 0)) continue;
      const mb = meanSize(bs, bn), mo = meanSize(os, on);
      if (differs(mb, mo)) out.push(setting(`${label(lb)} ${what} size`, `${label(lb)} mean ${what} size ${formatBytes(mb)} → ${formatBytes(mo)}`, mb, mo, 'bytes'));
    }
    if (lb.opens !== lo.opens && differs(lb.opens, lo.opens)) out.push(setting(`${label(lb)} opens`, `${label(lb)} opens ${formatCount(lb.opens)} → ${formatCount(lo.opens)}`, lb.opens, lo.opens, 'count'));
  }
  return out;
}

/** The application an executable runs: its base name (`./src/ior` and `/opt/bin/ior` are both `ior`). */
function appOf(exe: string): string {
  return exe.slice(exe.lastIndexOf('/') + 1);
}

/** Why two runs are not alike enough for their differences to be the whole story (compared anyway). */
function warningsFor(base: ComparedRun, other: ComparedRun): string[] {
  const w: string[] = [];
  const eb = appOf(base.settings.exe), eo = appOf(other.settings.exe);
  if (eb !== '' && eo !== '' && eb !== eo) w.push(`${other.name} runs another application (${eo}) than ${base.name} (${eb}): compared anyway`);
  if ((base.format === 'darshan') !== (other.format === 'darshan')) {
    w.push(`${base.name} is ${base.format === 'darshan' ? 'a Darshan log' : `a ${base.format} trace`} and ${other.name} ${other.format === 'darshan' ? 'a Darshan log' : `a ${other.format} trace`}: what each records differs, so some differences are the inputs'`);
  }
  return w;
}

/** Findings raised in some run, with each run's level and seconds (base first); in every run, or in some. */
function spread(runs: readonly ComparedRun[]): { common: FindingSpread[]; differing: FindingSpread[] } {
  const codes: string[] = [];
  for (const r of runs) for (const f of r.findings) if (raised(f) && !codes.includes(f.code)) codes.push(f.code);
  const rows: FindingSpread[] = codes.map((code) => {
    const per = runs.map((r) => {
      const f = r.findings.find((x) => x.code === code && raised(x));
      return f ? { level: f.level, seconds: f.seconds, ...(f.saves !== undefined ? { saves: f.saves } : {}) } : null;
    });
    const any = runs.flatMap((r) => r.findings).find((f) => f.code === code)!;
    return { code, problem: any.problem, runs: per };
  });
  const most = (s: FindingSpread) => Math.max(...s.runs.map((x) => x?.seconds ?? 0));
  rows.sort((a, b) => most(b) - most(a) || a.code.localeCompare(b.code));
  return { common: rows.filter((r) => r.runs.every((x) => x !== null)), differing: rows.filter((r) => r.runs.some((x) => x === null)) };
}

/** The comparison of `others` with `base`: causes ranked by seconds, then the settings that changed. */
export function compareRuns(base: RunInput, others: readonly RunInput[], toolVersion: string, failed: Comparison['failed'] = []): Comparison {
  const b = comparedRun(base);
  const os: OtherComparison[] = others.map((r) => {
    const o = comparedRun(r);
    return {
      run: o,
      timeDelta: o.runTime - b.runTime,
      ioTimeDelta: o.ioTime - b.ioTime,
      cumulativeIoTimeDelta: o.cumulativeIoTime - b.cumulativeIoTime,
      parts: partDeltas(b, o),
      causes: [...findingCauses(b, o), ...settingCauses(b, o)],
      warnings: warningsFor(b, o),
    };
  });
  const { common, differing } = spread([b, ...os.map((o) => o.run)]);
  return { schemaVersion: COMPARISON_SCHEMA_VERSION, tool: { name: 'iolens', version: toolVersion }, base: b, others: os, common, differing, failed };
}
