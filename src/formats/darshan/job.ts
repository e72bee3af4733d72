import { DarshanFormatError } from './errors.js';
import type { LogHeader } from './header.js';

/** Size of the 3.41 job struct: darshan-util requires more than this many bytes in the job region. */
const JOB_STRUCT_341 = 1080;
/** Only this many decompressed bytes of the job region are used. */
const JOB_REGION_USED = 4096;

export interface MountEntry {
  /** Mount point path (raw text). */
  readonly path: string;
  readonly fsType: string;
}

/** The job record. Integers are exact 64-bit values; text fields are raw (latin1: one char per byte). */
export interface JobRecord {
  readonly uid: bigint;
  readonly startTimeSec: bigint;
  readonly startTimeNsec: bigint;
  readonly endTimeSec: bigint;
  readonly endTimeNsec: bigint;
  readonly nprocs: bigint;
  readonly jobid: bigint;
  /** `key=value` lines of the metadata area, in order (split at the first `=`). */
  readonly metadata: readonly (readonly [string, string])[];
  /** The command line: the text before the first newline (empty when there is none, as in darshan-util). */
  readonly exe: string;
  /** Mount table sorted by path length, longest first (stable), as darshan-util sorts it for lookups. */
  readonly mounts: readonly MountEntry[];
  /** Mount table in file order. */
  readonly mountsInFileOrder: readonly MountEntry[];
  /** Run time in seconds as darshan-parser computes it. */
  readonly runTimeSeconds: number;
  /**
   * True when a log that says 3.41 stores its job record in the older layout (no nanosecond fields), as some
   * 3.4 development runtimes wrote it. darshan-util misreads such records (nprocs prints as the text `lib_ver=`);
   * IOLens reads them in the layout they were written in.
   */
  readonly legacyJobLayout: boolean;
}

function cString(bytes: Uint8Array, start: number, end: number): string {
  const sub = bytes.subarray(start, end);
  const nul = sub.indexOf(0);
  return Buffer.from(nul < 0 ? sub : sub.subarray(0, nul)).toString('latin1');
}

const WS = /[ \t\n\v\f\r]/;

/** Parses the mount table as darshan-util does: `sscanf("%s\t%s")` after every newline of the text. */
export function parseMounts(text: string): MountEntry[] {
  const out: MountEntry[] = [];
  let nl = text.indexOf('\n');
  while (nl >= 0) {
    let i = nl + 1;
    const token = (): string | null => {
      while (i < text.length && WS.test(text[i])) i++;
      const s = i;
      while (i < text.length && !WS.test(text[i])) i++;
      return i > s ? text.slice(s, i) : null;
    };
    const fsType = token();
    const path = fsType === null ? null : token();
    if (fsType === null || path === null) throw new DarshanFormatError('poorly formatted mount table in darshan log file');
    out.push({ path, fsType });
    nl = text.indexOf('\n', nl + 1);
  }
  return out;
}

/**
 * The mount entry of a name: the first of `mounts` (longest first, as the job record lists them) whose path is a
 * plain prefix of the name, or null. Names in one directory share their mount unless a mount path checked before
 * theirs reaches past that directory (a mount at "/scratch/ab" matches "/scratch/abc" but not "/scratch/x"), so the
 * lookup is kept per directory, not per name: a log may name 100,000 files in a handful of directories.
 */
export function mountLookup(mounts: readonly MountEntry[]): (name: string) => MountEntry | null {
  // per directory: its mount entry (null: none), or false where a mount path reaches past the directory
  const byDir = new Map<string, MountEntry | null | false>();
  return (name) => {
    const dir = name.slice(0, name.lastIndexOf('/') + 1);
    let m = byDir.get(dir);
    if (m === undefined) {
      m = null;
      for (const e of mounts) {
        if (dir.startsWith(e.path)) {
          m = e;
          break;
        }
        if (e.path.length > dir.length && e.path.startsWith(dir)) {
          m = false;
          break;
        }
      }
      byDir.set(dir, m);
    }
    if (m !== false) return m;
    for (const e of mounts) if (name.startsWith(e.path)) return e;
    return null;
  };
}

/** Decodes the job region payload (already decompressed). */
export function parseJob(payload: Uint8Array, header: LogHeader): JobRecord {
  if (payload.length <= JOB_STRUCT_341) throw new DarshanFormatError('failed to read darshan log file job data (job region too short)');
  const bytes = new Uint8Array(JOB_REGION_USED);
  bytes.set(payload.subarray(0, JOB_REGION_USED));
  const dv = new DataView(bytes.buffer);
  const little = header.byteOrder === 'little';
  const i64 = (off: number) => dv.getBigInt64(off, little);
  // A 3.41 job record has nprocs at offset 40; the older layout has its metadata text there, which always starts
  // with the runtime's `lib_ver=`. A real process count never reads as that text.
  const legacyJobLayout = header.minor >= 41 && Buffer.from(bytes.subarray(40, 48)).toString('latin1') === 'lib_ver=';
  const is341 = header.minor >= 41 && !legacyJobLayout;
  const uid = i64(0);
  const startTimeSec = i64(8);
  const startTimeNsec = is341 ? i64(16) : 0n;
  const endTimeSec = is341 ? i64(24) : i64(16);
  const endTimeNsec = is341 ? i64(32) : 0n;
  const nprocs = is341 ? i64(40) : i64(24);
  const jobid = is341 ? i64(48) : i64(32);
  const metaStart = is341 ? 56 : 40;
  const textStart = metaStart + 1024;
  // The metadata area is NUL-terminated in practice; a string that fills it runs on into the text, as in C.
  const metadataText = cString(bytes, metaStart, JOB_REGION_USED);
  const metadata: [string, string][] = [];
  for (const piece of metadataText.split('\n')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    if (eq < 0) continue;
    metadata.push([piece.slice(0, eq), piece.slice(eq + 1)]);
  }
  const text = cString(bytes, textStart, JOB_REGION_USED);
  const nl = text.indexOf('\n');
  const exe = nl < 0 ? '' : text.slice(0, nl);
  const mountsInFileOrder = parseMounts(text);
  const mounts = mountsInFileOrder.slice().sort((a, b) => b.path.length - a.path.length); // Array.sort is stable
  // Run time: the 3.41 formula where the record has nanoseconds, else whole seconds plus one.
  const runTimeSeconds =
    is341
      ? Number(endTimeSec) + Number(endTimeNsec) / 1e9 - (Number(startTimeSec) + Number(startTimeNsec) / 1e9)
      : Number(BigInt.asIntN(64, endTimeSec - startTimeSec + 1n));
  return { uid, startTimeSec, startTimeNsec, endTimeSec, endTimeNsec, nprocs, jobid, metadata, exe, mounts, mountsInFileOrder, runTimeSeconds, legacyJobLayout };
}
