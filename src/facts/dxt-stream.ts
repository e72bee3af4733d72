import { decodeDxtBatch, dxtTables, type DxtBatchOptions, type DxtRecordTap } from '../formats/darshan/dxt-batches.js';
import { moduleByName, type DarshanLog, type DxtTable } from '../formats/darshan/index.js';
import { concatDxtPosixRanks, dxtAlignments, dxtPosixRanksOf } from './dxt-ranks.js';
import { addDxtWrites, emptyDxtWrites, syncedDxtModules } from './dxt-writes.js';
import type { FactContext } from './fact-context.js';
import type { FactSource } from './source.js';
import type { DxtPosixRanksFact, DxtWrites, DxtWritesFact } from './types.js';

type DxtModule = 'DXT_POSIX' | 'DXT_MPIIO';
const DXT_MODULES: readonly DxtModule[] = ['DXT_POSIX', 'DXT_MPIIO'];

/** One DXT module's facts as its batches come: per-record summaries, or the error that makes them unavailable. */
interface ModuleState {
  readonly parts: DxtPosixRanksFact[];
  readonly writes: DxtWrites;
  any: boolean;
  error: string | null;
  ended: boolean;
}

/**
 * The facts that read DXT segments (`dxt.posixRanks`, `dxt.writes`) summed from a log's DXT regions batch by batch
 * as they are inflated, so that memory holds one batch of segments and the per-record summaries, not the decoded
 * region (~70 bytes a segment: 5 M segments, ~0.35 GiB). The values are those the facts compute from the whole
 * table: each record is summarised from its own segments. A damaged region makes them unavailable, as decoding the
 * whole table does (it throws).
 *
 * As a `DxtRecordTap` it rides on a trace reader's own pass over the regions (inflated once); `seedDxtFacts` makes a
 * pass of its own.
 */
export class DxtFacts implements DxtRecordTap {
  private readonly states = new Map<number, ModuleState>();
  private align: Map<bigint, number> | null = null;
  private synced: Set<DxtModule> | null = null;

  constructor(
    readonly facts: FactContext,
    readonly src: FactSource,
    readonly log: DarshanLog,
  ) {}

  private state(id: number): ModuleState {
    let st = this.states.get(id);
    if (!st) this.states.set(id, (st = { parts: [], writes: emptyDxtWrites(), any: false, error: null, ended: false }));
    return st;
  }

  /** Adds a decoded batch (or the whole region) of module `id`. */
  table(id: number, t: DxtTable, error: string | null): void {
    const st = this.state(id);
    if (st.error !== null) return;
    if (error !== null) {
      st.error = error;
      return;
    }
    if (!t.length) return;
    this.synced ??= new Set(syncedDxtModules(this.src));
    const name = moduleName(id);
    st.any = true;
    if (name === 'DXT_POSIX') st.parts.push(dxtPosixRanksOf(t, (this.align ??= dxtAlignments(this.facts))));
    if (this.synced.has(name)) addDxtWrites(st.writes, t);
  }

  batch(id: number, records: Uint8Array): void {
    if (this.state(id).error !== null) return;
    const out = decodeDxtBatch(this.log, id, records);
    this.table(id, out.table, out.error);
  }

  /** Module `id`'s region could not be read (it threw): its facts are unavailable. */
  fail(id: number, error: string): void {
    this.state(id).error = error;
  }

  end(id: number): void {
    const st = this.state(id);
    st.ended = true;
    // the region need not be decoded whole again to learn whether it is damaged (the `log` fact asks)
    this.log.noteStreamed(id, st.error);
  }

  /** Whether every DXT region of the log was read to its end (or to its damage) through this object. */
  complete(): boolean {
    return DXT_MODULES.every((m) => !this.log.has(m) || this.states.get(moduleByName(m)!.id)?.ended === true);
  }

  /** Gives the facts their values (call once `complete()`). */
  seed(): void {
    this.synced ??= new Set(syncedDxtModules(this.src));
    const writes: { -readonly [K in keyof DxtWritesFact]: DxtWrites } = {};
    for (const m of DXT_MODULES) {
      if (!this.log.has(m)) continue;
      const st = this.state(moduleByName(m)!.id);
      if (m === 'DXT_POSIX') {
        const ranks = st.error !== null ? null : concatDxtPosixRanks(st.parts);
        this.facts.seed('dxt.posixRanks', ranks, ['DXT_POSIX', ...this.facts.modulesOf('posix.files'), ...this.facts.modulesOf('lustre.stripes')]);
      }
      if (st.any && st.error === null && this.synced.has(m)) writes[m] = st.writes;
    }
    this.facts.seed('dxt.writes', writes, [...this.synced]);
  }
}

function moduleName(id: number): DxtModule {
  return moduleByName('DXT_POSIX')!.id === id ? 'DXT_POSIX' : 'DXT_MPIIO';
}

/**
 * Computes the DXT facts of `log` (the log `src` reads) in a pass of their own over its DXT regions, in batches
 * (`dxtTables`; a region that cannot stream, bzip2 or big-endian, is decoded whole, as the facts would), and gives
 * them to `facts`. Only the regions the facts read: DXT_POSIX, and DXT_MPIIO when MPI-IO synced.
 */
export async function seedDxtFacts(facts: FactContext, src: FactSource, log: DarshanLog, opts: DxtBatchOptions = {}): Promise<void> {
  const acc = new DxtFacts(facts, src, log);
  const synced = new Set(syncedDxtModules(src));
  for (const name of DXT_MODULES) {
    if (!log.has(name)) continue;
    const id = moduleByName(name)!.id;
    if (name === 'DXT_MPIIO' && !synced.has(name)) continue;
    try {
      for await (const out of dxtTables(log, id, { stream: true, ...opts })) {
        acc.table(id, out.table, out.error);
        if (out.error) break;
      }
      acc.end(id);
    } catch (err) {
      // a damaged zlib stream or a budget overrun: unavailable, as the whole table's decoding throws
      acc.fail(id, err instanceof Error ? err.message : String(err));
    }
  }
  acc.seed();
}
