/**
 * Files that are not storage: named pipes, sockets, terminals and other devices, kernel and memory file systems, and
 * the standard streams. Time in their calls is the job waiting on another process or a device (a blocking open of a
 * FIFO waits until its other end opens it), not the file system's: the time model sets it apart (`TimeModel.apart`),
 * so it is never counted as file-system metadata or data I/O and no storage finding rests on it.
 *
 * Darshan records no file type, so the rule reads what a log has, in this order (docs/diagnosis.md, "Files that are
 * not storage"):
 *   1. the name Darshan gives the standard streams (`<STDIN>`, `<STDOUT>`, `<STDERR>`);
 *   2. the file system type of the file's mount (the log's mount table): kernel (proc, sysfs, devpts, pipefs, sockfs …)
 *      and memory (tmpfs, ramfs) file systems;
 *   3. the path: `/dev/` (devices; `/dev/shm` is memory), `/proc/`, `/sys/`, and the names the kernel gives anonymous
 *      pipes and sockets (`pipe:[…]`, `socket:[…]`, `anon_inode:…`);
 *   4. a last path component that names a FIFO: `pipe` or `fifo` as a word of it (`pipe_1043744754`, `job.fifo`,
 *      `fifo-3`), the convention of workflow runtimes that talk to their workers through named pipes.
 * What matches none of these is storage.
 */

const STREAMS = new Set(['<STDIN>', '<STDOUT>', '<STDERR>']);

const KERNEL_FS = new Set([
  'proc', 'sysfs', 'devtmpfs', 'devpts', 'pipefs', 'sockfs', 'anon_inodefs', 'debugfs', 'tracefs', 'securityfs', 'cgroup',
  'cgroup2', 'mqueue', 'bpf', 'configfs', 'fusectl', 'pstore', 'binfmt_misc', 'hugetlbfs', 'efivarfs', 'rpc_pipefs', 'nsfs',
]);
const MEMORY_FS = new Set(['tmpfs', 'ramfs']);

/** A FIFO's name: `pipe` or `fifo` as a word of the last path component (not `pipeline.h5`, not `bifford`). */
const FIFO_NAME = /(?:^|[^a-z])(?:pipe|fifo)(?:[^a-z]|$)/i;

/** Why a file is not storage, in words (`named pipe (by its name)`), or null when it is storage. */
export function notStorageReason(name: string, fsType: string | null): string | null {
  if (STREAMS.has(name)) return 'standard stream';
  const fs = fsType?.toLowerCase() ?? null;
  if (fs !== null && KERNEL_FS.has(fs)) return `kernel file system (${fs})`;
  if (fs !== null && MEMORY_FS.has(fs)) return `memory file system (${fs})`;
  if (name.startsWith('/dev/shm/') || name === '/dev/shm') return 'shared memory (/dev/shm)';
  if (name.startsWith('/dev/')) return 'device';
  if (name.startsWith('/proc/') || name.startsWith('/sys/')) return `kernel file (${name.startsWith('/proc/') ? '/proc' : '/sys'})`;
  if (/^(?:pipe|socket):\[\d+\]$/.test(name) || name.startsWith('anon_inode:')) return name.startsWith('socket:') ? 'socket' : 'anonymous pipe';
  const slash = name.lastIndexOf('/');
  if (FIFO_NAME.test(name.slice(slash + 1))) return 'named pipe (by its name)';
  return null;
}

/** What `storageRow` reads of an input: record names and the mount table. */
interface NamedInput {
  readonly log: { readonly names: { get(id: bigint): string | null }; mountOf(name: string | null): { readonly fsType: string } | null };
}

/**
 * A predicate over a module table's rows: true where the row's file is storage (the per-file facts keep only those;
 * the standard streams and every other file that is not storage are left out). Each record id is judged once.
 */
export function storageRow(src: NamedInput, ids: BigUint64Array): (row: number) => boolean {
  const seen = new Map<bigint, boolean>();
  return (r) => {
    const id = ids[r];
    let ok = seen.get(id);
    if (ok === undefined) {
      const name = src.log.names.get(id);
      ok = name === null || notStorageReason(name, src.log.mountOf(name)?.fsType ?? null) === null;
      seen.set(id, ok);
    }
    return ok;
  };
}
