import { Layer } from '../../formats/trace/model.js';

/**
 * What a traced call does to Darshan's counters: the wrapper of darshan-runtime (darshan-posix.c, darshan-stdio.c,
 * darshan-mpiio.c) that the same call would have gone through.
 */
export const enum Op {
  NONE,
  // POSIX
  OPEN,
  DUP,
  FILENO,
  READ,
  WRITE,
  SEEK,
  STAT,
  FSYNC,
  FDATASYNC,
  CLOSE,
  RENAME,
  // STDIO
  F_OPEN,
  F_DOPEN,
  F_READ,
  F_WRITE,
  F_FLUSH,
  F_SEEK,
  F_CLOSE,
  // MPI-IO
  M_OPEN,
  M_READ_INDEP,
  M_READ_COLL,
  M_READ_SPLIT,
  M_READ_NB,
  M_WRITE_INDEP,
  M_WRITE_COLL,
  M_WRITE_SPLIT,
  M_WRITE_NB,
  M_SYNC,
  M_VIEW,
  M_CLOSE,
  // HDF5 (no counters here; only whether the job used the H5F / H5D interfaces)
  H5F,
  H5D,
}

const POSIX_OPS = new Map<string, Op>();
const STDIO_OPS = new Map<string, Op>();
const MPIIO_OPS = new Map<string, Op>();
const put = (m: Map<string, Op>, op: Op, names: string) => {
  for (const n of names.split(' ')) m.set(n, op);
};
put(POSIX_OPS, Op.OPEN, 'open __open_2 openat creat mkstemp mkostemp mkstemps mkostemps');
put(POSIX_OPS, Op.DUP, 'dup dup2 dup3');
put(POSIX_OPS, Op.READ, 'read pread readv preadv preadv2 preadv64v2');
put(POSIX_OPS, Op.WRITE, 'write pwrite writev pwritev pwritev2 pwritev64v2');
put(POSIX_OPS, Op.SEEK, 'lseek');
// Darshan wraps glibc's __xstat family; on glibc 2.33+ the same calls reach the library as stat/lstat/fstat.
put(POSIX_OPS, Op.STAT, '__xstat __lxstat __fxstat stat lstat fstat statx fstatat newfstatat __fxstatat');
put(POSIX_OPS, Op.FSYNC, 'fsync');
put(POSIX_OPS, Op.FDATASYNC, 'fdatasync');
put(POSIX_OPS, Op.CLOSE, 'close');
put(POSIX_OPS, Op.RENAME, 'rename');
put(STDIO_OPS, Op.F_OPEN, 'fopen freopen');
put(STDIO_OPS, Op.F_DOPEN, 'fdopen');
put(STDIO_OPS, Op.F_READ, 'fread fgetc _IO_getc getc getw fscanf __isoc99_fscanf vfscanf fgets');
put(STDIO_OPS, Op.F_WRITE, 'fwrite fputc _IO_putc putc putw fputs vprintf vfprintf printf fprintf');
put(STDIO_OPS, Op.F_FLUSH, 'fflush');
put(STDIO_OPS, Op.F_SEEK, 'fseek fseeko fsetpos rewind');
put(STDIO_OPS, Op.F_CLOSE, 'fclose');
// fileno() is a STDIO call that Darshan counts in the POSIX module (a new descriptor on the stream's file).
put(STDIO_OPS, Op.FILENO, 'fileno');
put(MPIIO_OPS, Op.M_OPEN, 'open');
put(MPIIO_OPS, Op.M_CLOSE, 'close');
put(MPIIO_OPS, Op.M_SYNC, 'sync');
put(MPIIO_OPS, Op.M_VIEW, 'set_view');
put(MPIIO_OPS, Op.M_READ_INDEP, 'read read_at read_shared');
put(MPIIO_OPS, Op.M_READ_COLL, 'read_all read_at_all read_ordered');
put(MPIIO_OPS, Op.M_READ_SPLIT, 'read_all_begin read_at_all_begin read_ordered_begin');
put(MPIIO_OPS, Op.M_READ_NB, 'iread iread_at iread_shared iread_all iread_at_all');
put(MPIIO_OPS, Op.M_WRITE_INDEP, 'write write_at write_shared');
put(MPIIO_OPS, Op.M_WRITE_COLL, 'write_all write_at_all write_ordered');
put(MPIIO_OPS, Op.M_WRITE_SPLIT, 'write_all_begin write_at_all_begin write_ordered_begin');
put(MPIIO_OPS, Op.M_WRITE_NB, 'iwrite iwrite_at iwrite_shared iwrite_all iwrite_at_all');

/**
 * The operation of a call, from its name and the layer the reader gave it. Names are matched without a `64`
 * suffix (`pread64`, `__xstat64`, `fopen64`), MPI's `P` profiling prefix and `_c` large-count suffix.
 */
export function opOf(name: string, layer: Layer): Op {
  if (layer === Layer.MPIIO) {
    let n = name.startsWith('PMPI_') ? name.slice(1) : name;
    if (!n.startsWith('MPI_File_')) return Op.NONE;
    n = n.slice(9);
    if (n.endsWith('_c')) n = n.slice(0, -2);
    return MPIIO_OPS.get(n) ?? Op.NONE;
  }
  if (layer === Layer.HDF5) return name.startsWith('H5F') ? Op.H5F : name.startsWith('H5D') ? Op.H5D : Op.NONE;
  if (layer !== Layer.POSIX && layer !== Layer.STDIO) return Op.NONE;
  const n = name.endsWith('64') ? name.slice(0, -2) : name;
  return POSIX_OPS.get(n) ?? STDIO_OPS.get(n) ?? Op.NONE;
}

/** Which module an operation updates. */
export function moduleOfOp(op: Op): 0 | 1 | 2 | -1 {
  if (op >= Op.OPEN && op <= Op.RENAME) return 0;
  if (op >= Op.F_OPEN && op <= Op.F_CLOSE) return 2;
  if (op >= Op.M_OPEN && op <= Op.M_CLOSE) return 1;
  return -1;
}
