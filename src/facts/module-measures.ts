import type { FixedTable } from '../formats/darshan/index.js';

/**
 * The headline totals the job store keeps for every fixed-size Darshan module, and which counters feed them.
 * Each total is the sum over the module's records of the listed counters; values below zero (Darshan's
 * "not measured" -1) count as zero. A counter a module version lacks is skipped.
 */
export interface ModuleTotalsSpec {
  /** Column prefix in the `jobs` table (`posix_bytes_read`, …). */
  readonly key: string;
  /** Darshan module name as the reader knows it. */
  readonly module: string;
  /** Interface label used by `iolens summary`. */
  readonly iface: string;
  readonly opens: readonly string[];
  readonly reads: readonly string[];
  readonly writes: readonly string[];
  readonly bytesRead: readonly string[];
  readonly bytesWritten: readonly string[];
  readonly readTime: readonly string[];
  readonly writeTime: readonly string[];
  readonly metaTime: readonly string[];
}

export const MODULE_TOTALS: readonly ModuleTotalsSpec[] = [
  {
    key: 'posix', module: 'POSIX', iface: 'POSIX',
    opens: ['POSIX_OPENS', 'POSIX_FILENOS', 'POSIX_DUPS'], reads: ['POSIX_READS'], writes: ['POSIX_WRITES'],
    bytesRead: ['POSIX_BYTES_READ'], bytesWritten: ['POSIX_BYTES_WRITTEN'],
    readTime: ['POSIX_F_READ_TIME'], writeTime: ['POSIX_F_WRITE_TIME'], metaTime: ['POSIX_F_META_TIME'],
  },
  {
    key: 'mpiio', module: 'MPI-IO', iface: 'MPI-IO',
    opens: ['MPIIO_INDEP_OPENS', 'MPIIO_COLL_OPENS'],
    reads: ['MPIIO_INDEP_READS', 'MPIIO_COLL_READS', 'MPIIO_SPLIT_READS', 'MPIIO_NB_READS'],
    writes: ['MPIIO_INDEP_WRITES', 'MPIIO_COLL_WRITES', 'MPIIO_SPLIT_WRITES', 'MPIIO_NB_WRITES'],
    bytesRead: ['MPIIO_BYTES_READ'], bytesWritten: ['MPIIO_BYTES_WRITTEN'],
    readTime: ['MPIIO_F_READ_TIME'], writeTime: ['MPIIO_F_WRITE_TIME'], metaTime: ['MPIIO_F_META_TIME'],
  },
  {
    key: 'stdio', module: 'STDIO', iface: 'STDIO',
    opens: ['STDIO_OPENS', 'STDIO_FDOPENS'], reads: ['STDIO_READS'], writes: ['STDIO_WRITES'],
    bytesRead: ['STDIO_BYTES_READ'], bytesWritten: ['STDIO_BYTES_WRITTEN'],
    readTime: ['STDIO_F_READ_TIME'], writeTime: ['STDIO_F_WRITE_TIME'], metaTime: ['STDIO_F_META_TIME'],
  },
  {
    key: 'h5f', module: 'H5F', iface: 'HDF5',
    opens: ['H5F_OPENS'], reads: [], writes: [], bytesRead: [], bytesWritten: [],
    readTime: [], writeTime: [], metaTime: ['H5F_F_META_TIME'],
  },
  {
    key: 'h5d', module: 'H5D', iface: 'HDF5',
    opens: ['H5D_OPENS'], reads: ['H5D_READS'], writes: ['H5D_WRITES'],
    bytesRead: ['H5D_BYTES_READ'], bytesWritten: ['H5D_BYTES_WRITTEN'],
    readTime: ['H5D_F_READ_TIME'], writeTime: ['H5D_F_WRITE_TIME'], metaTime: ['H5D_F_META_TIME'],
  },
  {
    key: 'pnetcdf_file', module: 'PNETCDF_FILE', iface: 'PnetCDF',
    opens: ['PNETCDF_FILE_CREATES', 'PNETCDF_FILE_OPENS'], reads: [], writes: [],
    bytesRead: ['PNETCDF_FILE_BYTES_READ'], bytesWritten: ['PNETCDF_FILE_BYTES_WRITTEN'],
    readTime: [], writeTime: [], metaTime: ['PNETCDF_FILE_F_META_TIME'],
  },
  {
    key: 'pnetcdf_var', module: 'PNETCDF_VAR', iface: 'PnetCDF',
    opens: ['PNETCDF_VAR_OPENS'],
    reads: ['PNETCDF_VAR_INDEP_READS', 'PNETCDF_VAR_COLL_READS', 'PNETCDF_VAR_NB_READS'],
    writes: ['PNETCDF_VAR_INDEP_WRITES', 'PNETCDF_VAR_COLL_WRITES', 'PNETCDF_VAR_NB_WRITES'],
    bytesRead: ['PNETCDF_VAR_BYTES_READ'], bytesWritten: ['PNETCDF_VAR_BYTES_WRITTEN'],
    readTime: ['PNETCDF_VAR_F_READ_TIME'], writeTime: ['PNETCDF_VAR_F_WRITE_TIME'], metaTime: ['PNETCDF_VAR_F_META_TIME'],
  },
  {
    key: 'dfs', module: 'DFS', iface: 'DFS',
    opens: ['DFS_OPENS', 'DFS_GLOBAL_OPENS'], reads: ['DFS_READS', 'DFS_READXS'], writes: ['DFS_WRITES', 'DFS_WRITEXS'],
    bytesRead: ['DFS_BYTES_READ'], bytesWritten: ['DFS_BYTES_WRITTEN'],
    readTime: ['DFS_F_READ_TIME'], writeTime: ['DFS_F_WRITE_TIME'], metaTime: ['DFS_F_META_TIME'],
  },
  {
    key: 'daos', module: 'DAOS', iface: 'DAOS',
    opens: ['DAOS_OBJ_OPENS', 'DAOS_ARRAY_OPENS', 'DAOS_KV_OPENS'],
    reads: ['DAOS_OBJ_FETCHES', 'DAOS_ARRAY_READS', 'DAOS_KV_GETS'],
    writes: ['DAOS_OBJ_UPDATES', 'DAOS_ARRAY_WRITES', 'DAOS_KV_PUTS'],
    bytesRead: ['DAOS_BYTES_READ'], bytesWritten: ['DAOS_BYTES_WRITTEN'],
    readTime: ['DAOS_F_READ_TIME'], writeTime: ['DAOS_F_WRITE_TIME'], metaTime: ['DAOS_F_META_TIME'],
  },
];

/** The eight measures of a module total, in column order. */
export const TOTAL_MEASURES = ['opens', 'reads', 'writes', 'bytesRead', 'bytesWritten', 'readTime', 'writeTime', 'metaTime'] as const;
export type TotalMeasure = (typeof TOTAL_MEASURES)[number];
/** Column suffix of each measure. */
export const MEASURE_COLUMN: Record<TotalMeasure, string> = {
  opens: 'opens', reads: 'reads', writes: 'writes', bytesRead: 'bytes_read', bytesWritten: 'bytes_written',
  readTime: 'read_time', writeTime: 'write_time', metaTime: 'meta_time',
};

/** What each measure is, for documentation (store columns, feature docs). */
export const MEASURE_DOC: Record<TotalMeasure, string> = {
  opens: 'opens', reads: 'read operations', writes: 'write operations', bytesRead: 'bytes read', bytesWritten: 'bytes written',
  readTime: 'cumulative read time over ranks (s)', writeTime: 'cumulative write time over ranks (s)', metaTime: 'cumulative metadata time over ranks (s)',
};

/** A column of per-record values that is the sum of some counters (negative values as zero), or null if none exist. */
export function measureColumn(t: FixedTable, counters: readonly string[]): Float64Array | null {
  let out: Float64Array | null = null;
  for (const c of counters) {
    let col: Float64Array | null = null;
    if (t.intCol(c) >= 0) col = t.int(c);
    else if (t.floatCol(c) >= 0) col = t.float(c);
    if (!col) continue;
    if (!out) out = new Float64Array(t.length);
    for (let r = 0; r < t.length; r++) {
      const v = col[r];
      if (v > 0) out[r] += v;
    }
  }
  return out;
}

/** Sum of a column (null → 0). */
export function sumOf(col: Float64Array | null): number {
  if (!col) return 0;
  let s = 0;
  for (let i = 0; i < col.length; i++) s += col[i];
  return s;
}

/**
 * The sum over records of one counter (negative values as zero), or null when the table lacks it — or, on an
 * input derived from a trace, when the trace cannot supply it (the plots then leave that bar out).
 */
export function counterSum(t: FixedTable, counter: string): number | null {
  try {
    let col: Float64Array | null = null;
    if (t.intCol(counter) >= 0) col = t.int(counter);
    else if (t.floatCol(counter) >= 0) col = t.float(counter);
    if (!col) return null;
    let s = 0;
    for (let r = 0; r < col.length; r++) if (col[r] > 0) s += col[r];
    return Number.isNaN(s) ? null : s;
  } catch (err) {
    if (err instanceof Error && err.name === 'CounterUnavailable') return null;
    throw err;
  }
}
