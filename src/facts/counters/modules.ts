import { MPI_IO_FLOAT_COUNTERS, MPI_IO_INT_COUNTERS } from '../../formats/darshan/modules/counters/mpi-io.js';
import { POSIX_FLOAT_COUNTERS, POSIX_INT_COUNTERS } from '../../formats/darshan/modules/counters/posix.js';
import { STDIO_FLOAT_COUNTERS, STDIO_INT_COUNTERS } from '../../formats/darshan/modules/counters/stdio.js';

/** The Darshan modules whose records are derived from trace events. */
export type DerivedModule = 'POSIX' | 'MPI-IO' | 'STDIO';
export const DERIVED_MODULES: readonly DerivedModule[] = ['POSIX', 'MPI-IO', 'STDIO'];

/**
 * One module's record layout (the current Darshan version's counters) and the column indices the builder and the
 * shared-record reduction need. Indices are looked up by name once.
 */
export interface ModuleLayout {
  readonly name: DerivedModule;
  readonly id: number;
  readonly version: number;
  /** Counter name prefix (`POSIX`, `MPIIO`, `STDIO`). */
  readonly prefix: string;
  readonly ints: readonly string[];
  readonly floats: readonly string[];
  int(name: string): number;
  float(name: string): number;
}

function layout(name: DerivedModule, id: number, version: number, prefix: string, ints: readonly string[], floats: readonly string[]): ModuleLayout {
  const ii = new Map(ints.map((n, i) => [n, i]));
  const fi = new Map(floats.map((n, i) => [n, i]));
  return {
    name,
    id,
    version,
    prefix,
    ints,
    floats,
    int(n) {
      const i = ii.get(`${prefix}_${n}`);
      if (i === undefined) throw new Error(`${name} has no counter ${prefix}_${n}`);
      return i;
    },
    float(n) {
      const i = fi.get(`${prefix}_F_${n}`);
      if (i === undefined) throw new Error(`${name} has no counter ${prefix}_F_${n}`);
      return i;
    },
  };
}

export const LAYOUTS: { readonly [M in DerivedModule]: ModuleLayout } = {
  POSIX: layout('POSIX', 1, 4, 'POSIX', POSIX_INT_COUNTERS, POSIX_FLOAT_COUNTERS),
  'MPI-IO': layout('MPI-IO', 2, 3, 'MPIIO', MPI_IO_INT_COUNTERS, MPI_IO_FLOAT_COUNTERS),
  STDIO: layout('STDIO', 9, 2, 'STDIO', STDIO_INT_COUNTERS, STDIO_FLOAT_COUNTERS),
};

/** How the shared-record reduction combines one counter (darshan-*.c `*_record_reduction_op`). */
export const enum Combine {
  SUM,
  /** POSIX_OPENS … POSIX_RENAME_TARGETS: sum, a negative result becomes −1. */
  SUM_CLAMP,
  MAX,
  /** Taken from the first operand (mode, alignments, rename source). */
  FIRST,
  /** Common-value slots and rank extremes: handled as groups. */
  GROUP,
  /** Timestamps: smallest non-zero start. */
  MIN_NONZERO,
}

/** The reduction rule of every int and float counter of a module, by name. */
export function intRule(m: ModuleLayout, name: string): Combine {
  const n = name.slice(m.prefix.length + 1);
  if (/^(ACCESS|STRIDE)\d_|^(FASTEST|SLOWEST)_RANK|^MAX_(READ|WRITE)_TIME_SIZE$/.test(n)) return Combine.GROUP;
  if (/^MAX_BYTE_/.test(n)) return Combine.MAX;
  if (/^(MODE|RENAMED_FROM|MEM_ALIGNMENT|FILE_ALIGNMENT)$/.test(n)) return Combine.FIRST;
  if (m.name === 'POSIX' && m.int(n) <= m.int('RENAME_TARGETS')) return Combine.SUM_CLAMP;
  return Combine.SUM;
}

export function floatRule(m: ModuleLayout, name: string): Combine {
  const n = name.slice(m.prefix.length + 3);
  if (/_START_TIMESTAMP$/.test(n)) return Combine.MIN_NONZERO;
  if (/_END_TIMESTAMP$/.test(n)) return Combine.MAX;
  if (/^(READ|WRITE|META)_TIME$/.test(n)) return Combine.SUM;
  return Combine.GROUP;
}
