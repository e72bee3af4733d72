import { Category, Layer } from './model.js';

/**
 * Maps a traced function name to its category (read, write, metadata, sync, other). Names are matched without the
 * `64` suffix and without a leading `P` of PMPI, so `pwrite64`, `__xstat64`, `PMPI_File_write_at` are all covered.
 */
export function categoryOf(name: string): Category {
  let n = name;
  if (n.startsWith('PMPI_')) n = n.slice(1);
  if (n.endsWith('64')) n = n.slice(0, -2);
  const hit = CATEGORY_BY_NAME.get(n);
  if (hit !== undefined) return hit;
  if (n.startsWith('MPI_File_')) {
    const op = n.slice(9);
    if (/^(i?read)/.test(op)) return Category.READ;
    if (/^(i?write)/.test(op)) return Category.WRITE;
    if (op === 'sync') return Category.SYNC;
    return Category.METADATA;
  }
  if (n.startsWith('H5')) {
    if (n === 'H5Dread' || n === 'H5Aread' || n.startsWith('H5Dread_')) return Category.READ;
    if (n === 'H5Dwrite' || n === 'H5Awrite' || n.startsWith('H5Dwrite_')) return Category.WRITE;
    if (n === 'H5Fflush') return Category.SYNC;
    return Category.METADATA;
  }
  if (/^_*(l|f)?x?stat/.test(n) || /^statx?$/.test(n) || n.startsWith('fstatat')) return Category.METADATA;
  return Category.OTHER;
}

const CATEGORY_BY_NAME = new Map<string, Category>();
for (const n of [
  'read', 'pread', 'readv', 'preadv', 'preadv2', 'fread', 'fgets', 'fgetc', 'getc', 'fscanf', 'vfscanf', 'getline',
  'getdelim', 'aio_read', 'lio_listio_read',
]) CATEGORY_BY_NAME.set(n, Category.READ);
for (const n of [
  'write', 'pwrite', 'writev', 'pwritev', 'pwritev2', 'fwrite', 'fputs', 'fputc', 'putc', 'fprintf', 'vfprintf',
  'aio_write',
]) CATEGORY_BY_NAME.set(n, Category.WRITE);
for (const n of ['fsync', 'fdatasync', 'msync', 'sync', 'syncfs', 'fflush']) CATEGORY_BY_NAME.set(n, Category.SYNC);
for (const n of [
  'open', 'openat', 'creat', 'close', 'lseek', 'llseek', 'fopen', 'fdopen', 'freopen', 'fclose', 'fseek', 'fseeko',
  'ftell', 'ftello', 'rewind', 'mkdir', 'mkdirat', 'rmdir', 'unlink', 'unlinkat', 'rename', 'renameat', 'access',
  'faccessat', 'opendir', 'fdopendir', 'readdir', 'closedir', 'rewinddir', 'seekdir', 'telldir', 'chmod', 'fchmod',
  'fchmodat', 'chown', 'fchown', 'lchown', 'truncate', 'ftruncate', 'link', 'linkat', 'symlink', 'symlinkat',
  'readlink', 'readlinkat', 'getcwd', 'chdir', 'fchdir', 'fcntl', 'dup', 'dup2', 'dup3', 'mknod', 'mknodat', 'utime',
  'utimes', 'utimensat', 'remove', 'tmpfile', 'mkfifo', 'fileno', 'umask', 'statfs', 'fstatfs', 'posix_fadvise',
  'fallocate', 'posix_fallocate', 'getxattr', 'setxattr', 'listxattr', 'lstat', 'fstat', 'stat',
]) CATEGORY_BY_NAME.set(n, Category.METADATA);

const STDIO_NAMES = new Set([
  'fopen', 'fopen64', 'fdopen', 'freopen', 'freopen64', 'fclose', 'fread', 'fwrite', 'fseek', 'fseeko', 'fseeko64',
  'ftell', 'ftello', 'ftello64', 'fflush', 'fprintf', 'vfprintf', 'fputs', 'fgets', 'fgetc', 'fputc', 'getc', 'putc',
  'fscanf', 'vfscanf', 'rewind', 'fileno', 'tmpfile', 'tmpfile64', 'getline', 'getdelim', 'fsetpos', 'fgetpos',
]);

/** True when `name` is a C stdio (`FILE*`) call. */
export function isStdio(name: string): boolean {
  return STDIO_NAMES.has(name);
}

/** Layer of a call from its name alone (used when a format gives no better hint). */
export function layerOfName(name: string): Layer {
  if (name.startsWith('MPI_File') || name.startsWith('PMPI_File')) return Layer.MPIIO;
  if (name.startsWith('MPI_') || name.startsWith('PMPI_')) return Layer.OTHER;
  if (name.startsWith('H5')) return Layer.HDF5;
  if (isStdio(name)) return Layer.STDIO;
  return categoryOf(name) === Category.OTHER ? Layer.OTHER : Layer.POSIX;
}
