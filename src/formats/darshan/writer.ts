import { deflateSync } from 'node:zlib';
import { DarshanFormatError } from './errors.js';
import { HEADER_SIZE_341, MAX_MODULES } from './header.js';
import type { DarshanLog } from './log.js';
import type { ModuleTable } from './module-types.js';
import { MODULES } from './modules/registry.js';

/** The job record a writer stores. Integers may be given as numbers or exact bigints. */
export interface JobInput {
  readonly uid: bigint | number;
  readonly startTimeSec: bigint | number;
  readonly startTimeNsec?: bigint | number;
  readonly endTimeSec: bigint | number;
  readonly endTimeNsec?: bigint | number;
  readonly nprocs: bigint | number;
  readonly jobid: bigint | number;
  /** `key=value` metadata lines (e.g. lib_ver, h for MPI-IO hints). */
  readonly metadata: readonly (readonly [string, string])[];
  /** Command line; raw latin1 text. */
  readonly exe: string;
  /** Mount table in file order. Paths and fs types must not contain whitespace. */
  readonly mounts: readonly { readonly path: string; readonly fsType: string }[];
}

/** A module's records to write: a decoded table (any codec with `encode`), or raw current-version bytes. */
export type ModuleInput =
  | { readonly id: number; readonly table: ModuleTable; readonly raw?: undefined; readonly version?: undefined }
  | { readonly id: number; readonly raw: Uint8Array; readonly version: number; readonly table?: undefined };

export interface LogInput {
  readonly job: JobInput;
  /** Record id → file name (raw latin1). */
  readonly names: Iterable<readonly [bigint, string]>;
  readonly modules: readonly ModuleInput[];
  /** Bit i: module i is marked incomplete. */
  readonly partialMask?: bigint;
}

const JOB_STRUCT = 1080;
const TEXT_AREA = 4096 - JOB_STRUCT;

function jobPayload(job: JobInput): Buffer {
  let meta = job.metadata.map(([k, v]) => `${k}=${v}\n`).join('');
  if (meta.length > 1023) throw new DarshanFormatError(`metadata text is ${meta.length} bytes; at most 1023 fit in a log`);
  for (const m of job.mounts) {
    if (/[\s]/.test(m.path) || /[\s]/.test(m.fsType) || m.path === '' || m.fsType === '') {
      throw new DarshanFormatError(`mount entry ${JSON.stringify(m.path)} (${JSON.stringify(m.fsType)}) cannot be stored: empty or contains white space`);
    }
  }
  const text = job.exe + job.mounts.map((m) => `\n${m.fsType}\t${m.path}`).join('');
  if (text.length + 1 > TEXT_AREA) throw new DarshanFormatError(`exe and mount text is ${text.length} bytes; at most ${TEXT_AREA - 1} fit in a log`);
  const b = Buffer.alloc(JOB_STRUCT + text.length + 1);
  const big = (v: bigint | number | undefined) => BigInt.asIntN(64, BigInt(v ?? 0));
  b.writeBigInt64LE(big(job.uid), 0);
  b.writeBigInt64LE(big(job.startTimeSec), 8);
  b.writeBigInt64LE(big(job.startTimeNsec), 16);
  b.writeBigInt64LE(big(job.endTimeSec), 24);
  b.writeBigInt64LE(big(job.endTimeNsec), 32);
  b.writeBigInt64LE(big(job.nprocs), 40);
  b.writeBigInt64LE(big(job.jobid), 48);
  b.write(meta, 56, 'latin1');
  b.write(text, JOB_STRUCT, 'latin1');
  return b;
}

function namesPayload(names: Iterable<readonly [bigint, string]>): Buffer {
  const parts: Buffer[] = [];
  for (const [id, name] of names) {
    if (name.includes('\0')) throw new DarshanFormatError(`record name ${JSON.stringify(name)} contains a NUL byte`);
    const b = Buffer.alloc(8 + name.length + 1);
    b.writeBigUInt64LE(id, 0);
    b.write(name, 8, 'latin1');
    parts.push(b);
  }
  return Buffer.concat(parts);
}

/**
 * Writes a Darshan log in format 3.41 (little-endian, zlib, one stream per region) that darshan-util and IOLens
 * read back with the same contents. Module regions come in ascending id order after the job and name regions.
 */
export interface WriteOptions {
  /** Region compression: 0 zlib (default), 1 bzip2 (needs `compress`), 2 none. */
  readonly compression?: 0 | 1 | 2;
  /** Compressor for a region when the built-in ones do not apply (bzip2). */
  readonly compress?: (bytes: Uint8Array) => Uint8Array;
}

export function writeLog(input: LogInput, options: WriteOptions = {}): Uint8Array {
  const compression = options.compression ?? 0;
  const pack = (b: Uint8Array): Uint8Array => {
    if (options.compress) return options.compress(b);
    if (compression === 2) return b;
    if (compression === 1) throw new DarshanFormatError('bzip2 output needs a compressor');
    return deflateSync(b);
  };
  const regions: { off: number; len: number; version: number }[] = Array.from({ length: MAX_MODULES }, () => ({ off: 0, len: 0, version: 0 }));
  const chunks: Uint8Array[] = [];
  let off = HEADER_SIZE_341;
  const job = pack(jobPayload(input.job));
  chunks.push(job);
  off += job.length;
  // Always emit a name region, even an empty stream: readers derive the job region's length from its offset.
  const names = pack(namesPayload(input.names));
  const nameRegion = { off, len: names.length };
  chunks.push(names);
  off += names.length;
  const mods = [...input.modules].sort((a, b) => a.id - b.id);
  for (const m of mods) {
    if (m.id < 0 || m.id >= MAX_MODULES) throw new DarshanFormatError(`module id ${m.id} out of range`);
    if (regions[m.id].len) throw new DarshanFormatError(`module id ${m.id} given twice`);
    let bytes: Uint8Array;
    let version: number;
    if (m.raw) {
      bytes = m.raw;
      version = m.version;
    } else {
      const codec = MODULES[m.id]?.codec;
      if (!codec || !codec.encode) throw new DarshanFormatError(`IOLens cannot encode module ${MODULES[m.id]?.name ?? m.id}`);
      bytes = codec.encode(m.table!);
      version = codec.encodeVersion ? codec.encodeVersion(m.table!) : codec.currentVersion;
    }
    // An empty table still gets a (non-empty) region, so readers list the module as present.
    const z = pack(bytes);
    regions[m.id] = { off, len: z.length, version };
    chunks.push(z);
    off += z.length;
  }
  const header = Buffer.alloc(HEADER_SIZE_341);
  header.write('3.41', 0, 'latin1');
  header.writeBigInt64LE(6567223n, 8);
  header[16] = compression;
  header.writeBigUInt64LE(BigInt.asUintN(64, input.partialMask ?? 0n), 24);
  header.writeBigUInt64LE(BigInt(nameRegion.off), 32);
  header.writeBigUInt64LE(BigInt(nameRegion.len), 40);
  regions.forEach((r, i) => {
    header.writeBigUInt64LE(BigInt(r.off), 48 + 16 * i);
    header.writeBigUInt64LE(BigInt(r.len), 56 + 16 * i);
    header.writeUInt32LE(r.version, 1072 + 4 * i);
  });
  return Buffer.concat([header, ...chunks]);
}

/**
 * Everything needed to write `log` again: its job record, names and every module (decoded tables where a codec can
 * encode them; raw region bytes of little-endian logs otherwise). Notes lists what could not be carried over.
 */
export function logToInput(log: DarshanLog): { input: LogInput; notes: string[] } {
  const notes: string[] = [];
  const modules: ModuleInput[] = [];
  for (const s of log.slots()) {
    if (s.region.len === 0) continue;
    const codec = MODULES[s.id]?.codec;
    if (codec?.encode) {
      const res = log.decode(s.id);
      if (!res) continue;
      if (res.error) notes.push(`${s.name}: kept the ${res.table.length} records read before: ${res.error}`);
      modules.push({ id: s.id, table: res.table });
    } else if (log.header.byteOrder === 'little') {
      modules.push({ id: s.id, raw: log.regionBytes(s.id), version: s.version });
    } else {
      notes.push(`${s.name ?? `module ${s.id}`}: not written (no encoder for a big-endian region)`);
    }
  }
  const j = log.job;
  return {
    input: {
      job: { ...j, mounts: j.mountsInFileOrder },
      names: [...log.names.entries()],
      modules,
      partialMask: log.header.partialMask,
    },
    notes,
  };
}
