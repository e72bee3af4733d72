import type { BuilderTotals, ModuleRecords } from './builder.js';
import { LAYOUTS, type DerivedModule } from './modules.js';

/** The trace formats counters are derived from. */
export type TraceFormat = 'dxt' | 'recorder' | 'recorder-parquet' | 'dftracer';

/** Reasons, one sentence each, shown where a fact or check could not be computed. */
export const WHY = {
  dxtOnlyIo: 'DXT traces only reads and writes: no open, stat, seek, sync or close calls',
  dxtNoMeta: 'Darshan ranks the fastest and slowest process by read + write + metadata time, and DXT has no metadata calls',
  dxtMpiioKind: 'DXT_MPIIO does not record which MPI-IO function issued a request (independent, collective, split or non-blocking)',
  alignment: 'alignment needs the file system block size and the buffer addresses, which traces do not record',
  mode: 'the open mode is not among the event fields',
  renameTarget: 'the events keep only the first path of rename()',
  mmap: 'Darshan counts mmap() only when built with mmap instrumentation (and stores −1 otherwise)',
  mpiioOpenKind: "whether MPI_File_open was collective depends on the communicator's size, which the events do not carry",
  mpiioHints: 'whether an MPI-IO call passed hints (MPI_Info) is not among the event fields',
  setView: (n: number) => `MPI_File_set_view adds to metadata time only when it passes hints, which the events do not say (${n} call${n === 1 ? '' : 's'})`,
  noOffset: (mod: string, n: number, of: number) => `${n} of ${of} ${mod} reads and writes have no known file offset`,
  noSize: (mod: string, n: number, of: number) => `${n} of ${of} ${mod} reads and writes have no known size`,
} as const;

const POSIX_DXT_ABSENT = [
  'OPENS', 'FILENOS', 'DUPS', 'SEEKS', 'STATS', 'FSYNCS', 'FDSYNCS', 'RENAME_SOURCES', 'F_OPEN_START_TIMESTAMP',
  'F_OPEN_END_TIMESTAMP', 'F_CLOSE_START_TIMESTAMP', 'F_CLOSE_END_TIMESTAMP', 'F_META_TIME',
];
const EXTREMES = ['FASTEST_RANK', 'FASTEST_RANK_BYTES', 'SLOWEST_RANK', 'SLOWEST_RANK_BYTES', 'F_FASTEST_RANK_TIME', 'F_SLOWEST_RANK_TIME', 'F_VARIANCE_RANK_TIME'];
const RANK_BYTES = ['FASTEST_RANK_BYTES', 'SLOWEST_RANK_BYTES', 'F_VARIANCE_RANK_BYTES'];
const MPIIO_KINDS = ['INDEP_READS', 'INDEP_WRITES', 'COLL_READS', 'COLL_WRITES', 'SPLIT_READS', 'SPLIT_WRITES', 'NB_READS', 'NB_WRITES'];

/** Counters named by a regular expression over the module's counters (without the module prefix). */
function matching(mod: DerivedModule, re: RegExp): string[] {
  const m = LAYOUTS[mod];
  return [...m.ints, ...m.floats].map((n) => n.slice(m.prefix.length + 1)).filter((n) => re.test(n));
}

/**
 * The counters a trace of `format` cannot supply, each with its reason (full counter names). Some are never in the
 * events of that format; others are missing because some calls lacked an offset or a size (then every counter
 * that depends on them is absent, not estimated).
 */
export function absentCounters(format: TraceFormat, modules: { readonly [M in DerivedModule]: ModuleRecords }, totals: BuilderTotals): Map<string, string> {
  const out = new Map<string, string>();
  const put = (mod: DerivedModule, names: readonly string[], why: string) => {
    const p = LAYOUTS[mod].prefix;
    for (const n of names) if (!out.has(`${p}_${n}`)) out.set(`${p}_${n}`, why);
  };
  const dxt = format === 'dxt';
  // POSIX
  put('POSIX', ['MEM_NOT_ALIGNED', 'MEM_ALIGNMENT', 'FILE_NOT_ALIGNED', 'FILE_ALIGNMENT'], WHY.alignment);
  if (dxt) {
    put('POSIX', POSIX_DXT_ABSENT, WHY.dxtOnlyIo);
    put('POSIX', ['MODE', 'RENAME_TARGETS', 'RENAMED_FROM', 'MMAPS'], WHY.dxtOnlyIo);
    put('POSIX', EXTREMES, WHY.dxtNoMeta);
  } else {
    put('POSIX', ['MODE'], WHY.mode);
    put('POSIX', ['RENAME_TARGETS', 'RENAMED_FROM'], WHY.renameTarget);
    put('POSIX', ['MMAPS'], WHY.mmap);
  }
  // MPI-IO
  if (dxt) {
    put('MPI-IO', MPIIO_KINDS, WHY.dxtMpiioKind);
    put('MPI-IO', ['INDEP_OPENS', 'COLL_OPENS', 'SYNCS', 'HINTS', 'VIEWS', 'MODE', 'F_OPEN_START_TIMESTAMP', 'F_OPEN_END_TIMESTAMP', 'F_CLOSE_START_TIMESTAMP', 'F_CLOSE_END_TIMESTAMP', 'F_META_TIME'], WHY.dxtOnlyIo);
    put('MPI-IO', EXTREMES, WHY.dxtNoMeta);
  } else {
    put('MPI-IO', ['INDEP_OPENS', 'COLL_OPENS'], WHY.mpiioOpenKind);
    put('MPI-IO', ['HINTS', 'MODE'], WHY.mpiioHints);
    if (totals.setViews > 0) {
      put('MPI-IO', ['F_META_TIME'], WHY.setView(totals.setViews));
      put('MPI-IO', EXTREMES, WHY.setView(totals.setViews));
    }
  }
  // Calls whose offset or size the trace lost.
  const P = modules.POSIX;
  if (P.noOffset > 0) put('POSIX', matching('POSIX', /^(SEQ_|CONSEC_|MAX_BYTE_|STRIDE\d_)/), WHY.noOffset('POSIX', P.noOffset, P.ops));
  if (P.noSize > 0) {
    const why = WHY.noSize('POSIX', P.noSize, P.ops);
    put('POSIX', matching('POSIX', /^(BYTES_|SIZE_|ACCESS\d_|MAX_BYTE_|SEQ_|CONSEC_|STRIDE\d_|MAX_(READ|WRITE)_TIME_SIZE$)/), why);
    put('POSIX', RANK_BYTES, why);
  }
  const M = modules['MPI-IO'];
  if (M.noSize > 0) {
    const why = WHY.noSize('MPI-IO', M.noSize, M.ops);
    put('MPI-IO', matching('MPI-IO', /^(BYTES_|SIZE_|ACCESS\d_|MAX_(READ|WRITE)_TIME_SIZE$)/), why);
    put('MPI-IO', RANK_BYTES, why);
  }
  const S = modules.STDIO;
  if (S.noOffset > 0) put('STDIO', matching('STDIO', /^MAX_BYTE_/), WHY.noOffset('STDIO', S.noOffset, S.ops));
  if (S.noSize > 0) {
    const why = WHY.noSize('STDIO', S.noSize, S.ops);
    put('STDIO', matching('STDIO', /^(BYTES_|MAX_BYTE_)/), why);
    put('STDIO', RANK_BYTES, why);
  }
  return out;
}
