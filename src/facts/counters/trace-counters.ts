import { FixedTable, Int64Block, type DecodeOutcome, type ModuleTable } from '../../formats/darshan/index.js';
import { darshanRecordId } from '../../formats/darshan/record-id.js';
import { CounterUnavailable, type AbsentCounters, type CounterInput } from '../source.js';
import { absentCounters, type TraceFormat } from './availability.js';
import type { CounterBuilder, ModuleRecords } from './builder.js';
import { DERIVED_MODULES, LAYOUTS, type DerivedModule, type ModuleLayout } from './modules.js';
import { reduceShared, type Row } from './reduce.js';
import { ranksOfProcs, traceTimeModel, type LedgerData } from './ledger.js';
import type { TraceDicts } from '../../formats/trace/model.js';
import type { NotRecorded } from '../../contract/index.js';
import type { TimeModel } from '../time-model.js';

/** A module table of derived counters: reading an absent counter throws CounterUnavailable (or, while a fact tolerates it, gives NaN). */
export class DerivedTable extends FixedTable {
  private nan: Float64Array | null = null;

  constructor(
    layout: ModuleLayout,
    length: number,
    ids: BigUint64Array,
    ranks: Int64Block,
    ints: Int64Block,
    floats: Float64Array,
    private readonly absent: AbsentCounters,
  ) {
    super(layout.name, layout.id, layout.version, length, ids, ranks, layout.ints, layout.floats, ints, floats, null, null);
  }

  private check(name: string): Float64Array | null {
    const why = this.absent.reason(name);
    if (why === null) return null;
    if (this.absent.tolerated.has(name)) return (this.nan ??= new Float64Array(this.length).fill(NaN));
    throw new CounterUnavailable(this.module, name, why);
  }

  override int(name: string): Float64Array {
    return this.check(name) ?? super.int(name);
  }

  override float(name: string): Float64Array {
    return this.check(name) ?? super.float(name);
  }
}

/** What is known about the job besides the events. */
export interface DerivedJob {
  readonly jobId?: bigint;
  readonly uid?: bigint;
  /** The command line (or the application name). */
  readonly exe: string;
  /** Job start and end, seconds since 1970; default: the first event's start and the last event's end. */
  readonly startSeconds?: number;
  readonly endSeconds?: number;
  /** Run time as darshan-parser reports it (default: end − start). */
  readonly runSeconds?: number;
  readonly metadata?: readonly (readonly [string, string])[];
}

export interface DeriveOptions {
  readonly format: TraceFormat;
  /**
   * Seconds since 1970 of the events' time 0 (Recorder, DXT: the job start); omit when event times are already
   * Unix times (DFTracer). Counter timestamps are made relative to the job start, as Darshan's are.
   */
  readonly timeOrigin?: number;
  /** Processes of the job; default: the largest rank + 1 (numeric process labels) or the number of processes. */
  readonly nprocs?: number;
  /**
   * Whether a file's records of one module are reduced into one shared record (rank −1). Default: as Darshan
   * does, when every process of the job has a record of the file (and the job has more than one process).
   */
  readonly shared?: (module: DerivedModule, id: bigint, ranks: number) => boolean;
  /**
   * The record id of a file name, when the input knows it (a DXT log's own ids, which anonymised logs do not
   * derive from the names they show); default: Darshan's hash of the name.
   */
  readonly recordId?: (name: string) => bigint | undefined;
  readonly job: DerivedJob;
  /** The trace's time ledger (every call of every layer) with its dictionaries: the time model is built from it. */
  readonly ledger?: { readonly data: LedgerData; readonly dicts: TraceDicts };
  /** Operation classes the trace cannot time (DXT: metadata and sync). */
  readonly notRecorded?: readonly NotRecorded[];
}

/** One module's finished records: counters per record, id, rank. */
interface Built {
  readonly rows: Row[];
  readonly ids: bigint[];
  readonly ranks: number[];
}

function toTable(layout: ModuleLayout, b: Built, absent: AbsentCounters): DerivedTable {
  const n = b.rows.length;
  const ni = layout.ints.length;
  const nf = layout.floats.length;
  const ints = new Int64Block(n, ni);
  const floats = new Float64Array(n * nf);
  const ranks = new Int64Block(n, 1);
  for (let r = 0; r < n; r++) {
    const row = b.rows[r];
    for (let c = 0; c < ni; c++) ints.data[c * n + r] = row.ints[c];
    for (let c = 0; c < nf; c++) floats[c * n + r] = row.floats[c];
    ranks.data[r] = b.ranks[r];
  }
  return new DerivedTable(layout, n, BigUint64Array.from(b.ids), ranks, ints, floats, absent);
}

/**
 * The Darshan-equivalent counters of a trace: what a `DarshanLog` offers facts (module tables, names, job record),
 * built from a `CounterBuilder` that read every event. Counters the trace cannot supply are absent, with reasons
 * (`absent`); facts that need them are unavailable, and so are the checks that need those facts.
 */
export class TraceCounters implements CounterInput {
  readonly names: CounterInput['names'];
  readonly job: CounterInput['job'];
  readonly header = { versionString: '' };
  readonly absent: AbsentCounters;
  /** Absent counters with their reasons (full names, e.g. `POSIX_OPENS`). */
  readonly absentReasons: ReadonlyMap<string, string>;
  readonly tables = new Map<DerivedModule, DerivedTable>();
  readonly nprocs: number;
  /** Files whose records were reduced to a shared record, per module. */
  readonly sharedFiles: { readonly [M in DerivedModule]: number };
  private readonly hdf5: { h5f: boolean; h5d: boolean };
  readonly timeModel?: TimeModel;

  constructor(builder: CounterBuilder, opts: DeriveOptions) {
    const labels = builder.dicts ? builder.dicts.procs.values : [];
    const { rank, numeric } = ranksOfProcs(labels);
    let maxRank = -1;
    for (const r of rank) if (r > maxRank) maxRank = r;
    this.nprocs = opts.nprocs ?? (numeric ? maxRank + 1 : labels.length);
    const totals = builder.totals;
    this.hdf5 = { h5f: totals.usedH5F, h5d: totals.usedH5D };
    const reasons = absentCounters(opts.format, builder.modules, totals);
    this.absentReasons = reasons;
    this.absent = { reason: (c) => reasons.get(c) ?? null, tolerated: new Set() };

    // Record ids: Darshan's hash of the (cleaned) file name.
    const idOf: bigint[] = builder.names.map((n) => opts.recordId?.(n) ?? darshanRecordId(n));
    const names = new Map<bigint, string>();
    // Event times are relative to `timeOrigin` when given, else Unix times; counters count from the job start.
    const origin = opts.timeOrigin ?? 0;
    const first = Number.isFinite(totals.firstStart) ? totals.firstStart : 0;
    const start = opts.job.startSeconds ?? origin + first;
    const end = opts.job.endSeconds ?? origin + (Number.isFinite(totals.lastEnd) ? totals.lastEnd : first);
    const shift = start - origin;

    const shared = { POSIX: 0, 'MPI-IO': 0, STDIO: 0 };
    for (const mod of DERIVED_MODULES) {
      const R = builder.modules[mod];
      if (R.n === 0) continue;
      const built = this.finish(mod, R, rank, idOf, shift, opts, (n) => (shared[mod] += n));
      for (let r = 0; r < R.n; r++) names.set(idOf[R.file[r]], builder.names[R.file[r]]);
      this.tables.set(mod, toTable(LAYOUTS[mod], built, this.absent));
    }
    this.sharedFiles = shared;
    this.names = {
      size: names.size,
      get: (id) => names.get(id) ?? null,
      getAll: (ids) => Array.from(ids, (id) => names.get(id) ?? null),
      getAsDarshanUtil: (id) => names.get(id) ?? null,
    };
    const sec = Math.floor(start);
    const endSec = Math.floor(end);
    // Without a job start or end, the run is the span of the calls, from the trace's own times (adding an epoch
    // origin first would round it away).
    const bounded = opts.job.startSeconds !== undefined || opts.job.endSeconds !== undefined;
    const span = (Number.isFinite(totals.lastEnd) ? totals.lastEnd : first) - first;
    this.job = {
      uid: opts.job.uid ?? 0n,
      jobid: opts.job.jobId ?? 0n,
      exe: opts.job.exe,
      startTimeSec: BigInt(sec),
      startTimeNsec: BigInt(Math.round((start - sec) * 1e9)),
      endTimeSec: BigInt(endSec),
      endTimeNsec: BigInt(Math.round((end - endSec) * 1e9)),
      nprocs: BigInt(this.nprocs),
      metadata: opts.job.metadata ?? [],
      runTimeSeconds: opts.job.runSeconds ?? (bounded ? end - start : span),
    };
    if (opts.ledger) {
      this.timeModel = traceTimeModel(opts.ledger.data, opts.ledger.dicts, {
        runSeconds: this.job.runTimeSeconds,
        nprocs: this.nprocs,
        ...(opts.recordId ? { recordId: opts.recordId } : {}),
        notRecorded: opts.notRecorded ?? [],
      });
    }
  }

  /** Finishes one module: common values into their slots, timestamps from the job start, shared files reduced. */
  private finish(mod: DerivedModule, R: ModuleRecords, rankOf: Int32Array, idOf: bigint[], shift: number, opts: DeriveOptions, countShared: (n: number) => void): Built {
    const L = LAYOUTS[mod];
    const tsCols = L.floats.map((n, i) => (/_TIMESTAMP$/.test(n) ? i : -1)).filter((i) => i >= 0);
    const access = L.ints.includes(`${L.prefix}_ACCESS1_ACCESS`) ? [L.int('ACCESS1_ACCESS'), L.int('ACCESS1_COUNT')] : null;
    const stride = L.ints.includes(`${L.prefix}_STRIDE1_STRIDE`) ? [L.int('STRIDE1_STRIDE'), L.int('STRIDE1_COUNT')] : null;
    const rows: Row[] = [];
    const byFile = new Map<number, number[]>();
    for (let r = 0; r < R.n; r++) {
      const ints = R.ints.slice(r * R.ni, (r + 1) * R.ni);
      const floats = R.floats.slice(r * R.nf, (r + 1) * R.nf);
      for (const c of tsCols) if (floats[c] !== 0) floats[c] -= shift;
      for (const [cv, slot] of [[R.access[r], access], [R.stride[r], stride]] as const) {
        if (!cv || !slot) continue;
        const t = cv.top4();
        ints.set(t.values, slot[0]);
        ints.set(t.counts, slot[1]);
      }
      rows.push({ ints, floats });
      const list = byFile.get(R.file[r]);
      if (list) list.push(r);
      else byFile.set(R.file[r], [r]);
    }
    // Darshan's log order: each rank's own records, rank 0 also holding the shared ones after its own.
    const perRank: { rows: Row[]; ids: bigint[]; ranks: number[] } = { rows: [], ids: [], ranks: [] };
    const sharedOut: { rows: Row[]; ids: bigint[] } = { rows: [], ids: [] };
    const isShared = new Uint8Array(R.n);
    for (const [file, recs] of byFile) {
      const id = idOf[file];
      const distinct = new Set(recs.map((r) => rankOf[R.proc[r]])).size;
      const share = opts.shared ? opts.shared(mod, id, distinct) : this.nprocs > 1 && distinct === this.nprocs && distinct === recs.length;
      if (!share) continue;
      // Every rank holds a record of a shared file (Darshan shares the files every rank opened); a rank whose
      // events never touched it contributes an empty one (no DXT segments: it opened the file and did no I/O).
      const byRank = new Map(recs.map((r) => [rankOf[R.proc[r]], rows[r]] as const));
      const all = [...Array(Math.max(this.nprocs, 1)).keys()];
      for (const k of byRank.keys()) if (k >= all.length) all.push(k);
      const members = all.map((k) => byRank.get(k) ?? { ints: new Float64Array(R.ni), floats: new Float64Array(R.nf) });
      sharedOut.rows.push(reduceShared(L, members, all));
      sharedOut.ids.push(id);
      for (const r of recs) isShared[r] = 1;
    }
    countShared(sharedOut.ids.length);
    const order = [...Array(R.n).keys()].filter((r) => !isShared[r]).sort((a, b) => rankOf[R.proc[a]] - rankOf[R.proc[b]] || a - b);
    let k = 0;
    for (; k < order.length && rankOf[R.proc[order[k]]] <= 0; k++) {
      perRank.rows.push(rows[order[k]]);
      perRank.ids.push(idOf[R.file[order[k]]]);
      perRank.ranks.push(rankOf[R.proc[order[k]]]);
    }
    for (let s = 0; s < sharedOut.rows.length; s++) {
      perRank.rows.push(sharedOut.rows[s]);
      perRank.ids.push(sharedOut.ids[s]);
      perRank.ranks.push(-1);
    }
    for (; k < order.length; k++) {
      perRank.rows.push(rows[order[k]]);
      perRank.ids.push(idOf[R.file[order[k]]]);
      perRank.ranks.push(rankOf[R.proc[order[k]]]);
    }
    return perRank;
  }

  /** Traces are not compressed the way Darshan logs are; their own compression is the reader's business. */
  readonly compressionName = 'none';

  slots(): readonly { readonly id: number; readonly name: string | null; readonly region: { readonly len: number }; readonly partial: boolean }[] {
    return DERIVED_MODULES.filter((m) => this.tables.has(m)).map((m) => ({ id: LAYOUTS[m].id, name: m, region: { len: this.tables.get(m)!.length }, partial: false }));
  }

  /** Traces record no mount table. */
  mountOf(): null {
    return null;
  }

  /** A module with records; H5F / H5D also when the trace has HDF5 file / dataset calls (no counters for them). */
  has(name: string): boolean {
    if (name === 'H5F') return this.hdf5.h5f;
    if (name === 'H5D') return this.hdf5.h5d;
    return this.tables.has(name as DerivedModule);
  }

  decode<T extends ModuleTable = ModuleTable>(name: string): DecodeOutcome<T> | null {
    const t = this.tables.get(name as DerivedModule);
    return t ? { table: t as unknown as T, error: null } : null;
  }

  table<T extends ModuleTable = ModuleTable>(name: string): T | null {
    return (this.tables.get(name as DerivedModule) as unknown as T) ?? null;
  }
}
