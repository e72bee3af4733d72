import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { REPORT_SCHEMA_VERSION, type Report } from '../contract/index.js';
import { FactContext } from '../facts/fact-context.js';
import { FactSource } from '../facts/source.js';
import { CounterBuilder } from '../facts/counters/builder.js';
import { dxtNotRecorded, TimeLedger, type LedgerData } from '../facts/counters/ledger.js';
import { Layer, LAYER_NAMES } from '../formats/trace/model.js';
import { DERIVED_MODULES } from '../facts/counters/modules.js';
import { TraceCounters, type DeriveOptions, type DerivedJob } from '../facts/counters/trace-counters.js';
import { DarshanFormatError, DarshanLog } from '../formats/darshan/index.js';
import { TraceInputError } from '../formats/trace/errors.js';
import { ChunkWriter, TraceDicts } from '../formats/trace/model.js';
import { readSource, resolveSource, type TraceSource } from '../formats/trace/readers/index.js';
import { extractToTemp, isTarName } from '../formats/trace/readers/tar.js';
import type { ReadResult } from '../formats/trace/readers/types.js';
import type { ReadLimits } from '../util/limits.js';
import { reportOfFacts, type DiagnoseOptions } from './diagnose.js';

/** Options of `reportFromTrace`: those of `diagnoseLog`, and how to read the input. */
export interface ReportFromTraceOptions extends DiagnoseOptions {
  /**
   * Read a Darshan log's DXT segments as the trace (its own counters are not used). Without it, a single file
   * that is not a DFTracer or Parquet file is refused.
   */
  readonly dxt?: boolean;
}

/** The counters of a trace, with what was read. */
export interface TraceCounterSet {
  readonly counters: TraceCounters;
  readonly read: ReadResult;
  readonly builder: CounterBuilder;
}

/** `<record 1a2b…>`: the DXT reader's name for a record the log has no name for. */
const UNNAMED = /^<record ([0-9a-f]+)>$/;

/**
 * Job facts and reading options for a source (a DXT trace also brings its Darshan log's job record: only the log's
 * header, job and name regions are read, never the whole file, which grows with its DXT segments).
 */
function deriveOptions(src: TraceSource, read: ReadResult, dicts: TraceDicts, limits: ReadLimits): DeriveOptions {
  if (src.format === 'dxt') {
    const log = DarshanLog.openFile(src.file, limits.maxInflate !== undefined ? { maxInflate: limits.maxInflate } : {});
    const j = log.job;
    const byName = new Map<string, bigint>();
    for (const [id, name] of log.names.entries()) byName.set(name, id);
    const job: DerivedJob = {
      jobId: j.jobid,
      uid: j.uid,
      exe: j.exe,
      startSeconds: Number(j.startTimeSec) + Number(j.startTimeNsec) / 1e9,
      endSeconds: Number(j.endTimeSec) + Number(j.endTimeNsec) / 1e9,
      runSeconds: j.runTimeSeconds,
      metadata: j.metadata,
    };
    return {
      format: 'dxt',
      timeOrigin: job.startSeconds,
      nprocs: Number(j.nprocs),
      recordId: (name) => {
        const m = UNNAMED.exec(name);
        return m ? BigInt(`0x${m[1]}`) : byName.get(name);
      },
      job,
    };
  }
  const apps = dicts.apps.values.filter((a) => a !== 'unknown');
  return {
    format: src.format,
    ...(read.timeOrigin !== undefined ? { timeOrigin: read.timeOrigin } : {}),
    job: { exe: apps.join(' ') },
  };
}

async function withSource<T>(paths: readonly string[], dxt: boolean, limits: ReadLimits, fn: (src: TraceSource) => Promise<T>): Promise<T> {
  if (paths.length === 1 && isTarName(paths[0])) {
    if (!existsSync(paths[0])) throw new TraceInputError(`${paths[0]}: no such file or directory`);
    const tmp = await extractToTemp(paths[0], limits);
    try {
      return await fn(resolveSource([tmp.dir]));
    } finally {
      tmp.cleanup();
    }
  }
  const src = resolveSource(paths);
  if (src.format === 'dxt' && !dxt) throw new TraceInputError(`${src.file}: not a trace folder or DFTracer/Parquet file (a Darshan log: read its DXT segments with the dxt option)`);
  if (src.format !== 'dxt' && dxt) throw new TraceInputError(`${paths.join(', ')}: DXT segments are read from one Darshan log, not from a trace`);
  return fn(src);
}

/**
 * Reads a trace (a Recorder folder, Recorder Parquet files, DFTracer `.pfw`/`.pfw.gz` files or folders, a tar of
 * one of these, or with `dxt` a Darshan log's DXT segments) into Darshan-equivalent counters. `limits`: the readers'
 * budgets (`--max-inflate`).
 */
export async function countersFromTrace(paths: readonly string[], options: { readonly dxt?: boolean; readonly limits?: ReadLimits } = {}): Promise<TraceCounterSet> {
  const limits = options.limits ?? {};
  return withSource(paths, !!options.dxt, limits, async (src) => {
    const dicts = new TraceDicts();
    const builder = new CounterBuilder();
    // Every call of every layer also goes to the time ledger: the time model `iolens trace` builds the same way.
    const ledger = new TimeLedger();
    let read: ReadResult;
    try {
      read = await readSource(
        src,
        new ChunkWriter(dicts, (chunk, d) => {
          builder.sink(chunk, d);
          ledger.add(chunk);
        }),
        limits,
      );
    } catch (err) {
      if (err instanceof DarshanFormatError) throw new TraceInputError(err.message);
      throw err;
    }
    const time = { ledger: { data: ledger.snapshot(), dicts }, ...(src.format === 'dxt' ? { notRecorded: dxtNotRecorded(dxtLayers(dicts, ledger.snapshot())) } : {}) };
    return { counters: new TraceCounters(builder, { ...deriveOptions(src, read, dicts, limits), ...time }), read, builder };
  });
}

/** The layers of a DXT trace's calls (POSIX, MPI-IO): those whose metadata and sync calls DXT does not record. */
function dxtLayers(_dicts: TraceDicts, data: LedgerData): string[] {
  const seen = new Set<number>();
  for (const l of data.layer) if (l === Layer.POSIX || l === Layer.MPIIO) seen.add(l);
  return [...seen].sort().map((l) => LAYER_NAMES[l]);
}

/** Counter names with their families folded: the size bins as `POSIX_SIZE_READ_*`, the four slots as `POSIX_ACCESS*`. */
export function compactCounterNames(names: readonly string[]): string[] {
  const out = new Set<string>();
  for (const n of names) out.add(n.replace(/_SIZE_(READ|WRITE)(_AGG)?_\w+$/, '_SIZE_$1$2_*').replace(/_(STRIDE|ACCESS)\d_\w+$/, '_$1*'));
  return [...out];
}

const FORMAT_NAMES = { dxt: 'DXT', recorder: 'Recorder', 'recorder-parquet': 'Recorder (Parquet)', dftracer: 'DFTracer' } as const;

/** The report's notes on how the counters were derived: from what, what is missing and why. */
export function derivationNotes(set: TraceCounterSet): string[] {
  const { counters, read, builder } = set;
  const notes: string[] = [];
  const recs = DERIVED_MODULES.filter((m) => counters.tables.has(m)).map((m) => {
    const shared = counters.sharedFiles[m];
    return `${m} ${counters.tables.get(m)!.length} record${counters.tables.get(m)!.length === 1 ? '' : 's'}${shared ? ` (${shared} shared file${shared === 1 ? '' : 's'} reduced to rank −1, as Darshan does)` : ''}`;
  });
  const t = builder.totals;
  notes.push(
    `counters derived from ${read.events} ${FORMAT_NAMES[read.format]} events of ${counters.nprocs} process${counters.nprocs === 1 ? '' : 'es'}, as Darshan's runtime would have counted the same calls: ${recs.length ? recs.join('; ') : 'no POSIX, MPI-IO or STDIO calls on files'}`,
  );
  if (t.excludedPaths > 0) notes.push(`${t.excludedPaths} path${t.excludedPaths === 1 ? '' : 's'} under Darshan's default exclusions (/etc/, /proc/, /usr/, …) were left out, as Darshan leaves them out`);
  // Absent counters of the modules present, grouped by reason.
  const byWhy = new Map<string, string[]>();
  for (const [c, why] of counters.absentReasons) {
    const mod = c.startsWith('POSIX_') ? 'POSIX' : c.startsWith('MPIIO_') ? 'MPI-IO' : 'STDIO';
    if (!counters.tables.has(mod)) continue;
    const list = byWhy.get(why) ?? [];
    list.push(c);
    byWhy.set(why, list);
  }
  for (const [why, list] of byWhy) notes.push(`not derivable (${why}): ${compactCounterNames(list).join(', ')}`);
  if (read.format === 'dxt') {
    notes.push('from DXT: POSIX_F_WRITE_TIME and MPIIO_F_WRITE_TIME leave out fsync / MPI_File_sync time, which Darshan adds to them; consecutive and sequential counts assume each rank opened each file once (Darshan restarts them at every open)');
  }
  return notes;
}

/**
 * The Darshan-style report of a trace: every check runs on the facts the trace's derived counters support; a
 * check whose facts cannot be derived is listed as not applicable with the reason, and the notes say which
 * counters were derived from events and which could not be.
 */
export async function reportFromTrace(paths: readonly string[], options: ReportFromTraceOptions = {}): Promise<Report> {
  const { dxt, ...rest } = options;
  const limits = options.maxInflate !== undefined ? { maxInflate: options.maxInflate } : {};
  return reportFromCounters(await countersFromTrace(paths, { dxt, limits }), paths, rest);
}

/** The facts of counters derived from a trace (what `reportFromCounters` reads, for callers that want both). */
export function traceFacts(set: TraceCounterSet): FactContext {
  return FactContext.forLog(new FactSource(set.counters));
}

/** The report of counters already derived from a trace (`countersFromTrace`) read from `paths`. */
export function reportFromCounters(set: TraceCounterSet, paths: readonly string[], opts: DiagnoseOptions = {}, facts: FactContext = traceFacts(set)): Report {
  const name = paths.length === 1 ? basename(paths[0]) : `${basename(paths[0])} (+${paths.length - 1})`;
  const rep = reportOfFacts(facts, paths[0] ?? '', { ...opts, logName: opts.logName ?? name });
  // Checks that could not run for want of a counter, grouped by the cause (each outcome keeps its full reason).
  const notRun = new Map<string, string[]>();
  for (const o of rep.checks) {
    const why = o.status === 'notApplicable' && o.reason ? /cannot be derived \((.*)\)$/.exec(o.reason)?.[1] : undefined;
    if (why === undefined) continue;
    const list = notRun.get(why) ?? [];
    list.push(o.code);
    notRun.set(why, list);
  }
  const untimed = DERIVED_MODULES.filter((m) => set.counters.tables.has(m) && !rep.io.layers.some((l) => l.layer === m));
  const notes = [
    ...derivationNotes(set),
    ...[...notRun].map(([why, codes]) => `not run on this trace (${why}): ${codes.join(', ')}`),
    ...(untimed.length ? [`the I/O summary leaves out ${untimed.join(', ')}: its bytes, times or slowest-rank time cannot be derived from this trace`] : []),
    ...rep.notes,
  ];
  return {
    ...rep,
    schemaVersion: REPORT_SCHEMA_VERSION,
    input: { format: set.read.format, paths: [...paths], events: set.read.events, sources: set.read.sources, warnings: set.read.warnings },
    notes,
  };
}
