import { DarshanFormatError } from './errors.js';

/** Number of module slots in the current (3.41) header. */
export const MAX_MODULES = 64;
export const HEADER_SIZE_341 = 1328;
export const HEADER_SIZE_OLD = 360;
const MAGIC = 6567223n;

export type ByteOrder = 'little' | 'big';

/** A region of the file: byte offset and compressed length. Both are validated against the file size. */
export interface Region {
  readonly off: number;
  readonly len: number;
}

/** The log header, converted to the current (3.41) module numbering whatever the stored version. */
export interface LogHeader {
  /** Version text as stored, up to its first NUL (`3.00` … `3.41`). */
  readonly versionString: string;
  readonly major: number;
  readonly minor: number;
  /** Stored header size in bytes (360 or 1328). */
  readonly headerBytes: number;
  readonly byteOrder: ByteOrder;
  /** Compression code: 0 zlib, 1 bzip2, 2 none (other values are kept to be reported). */
  readonly compression: number;
  /** Bit i set: module i ran out of memory at run time (remapped to current ids; never byte-swapped). */
  readonly partialMask: bigint;
  readonly nameRegion: Region;
  readonly jobRegion: Region;
  /** Per current module id 0..63: region and stored module format version. */
  readonly moduleRegions: readonly Region[];
  readonly moduleVersions: readonly number[];
}

const SUPPORTED_MINORS = new Set([0, 10, 20, 21, 41]);

/** Parses `<int>.<int>` at the start of the version text as C `sscanf("%d.%d")` would. */
function parseVersion(text: string): [number, number] | null {
  const m = /^\s*([+-]?\d+)\.([+-]?\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

function readU64(view: DataView, off: number, little: boolean): bigint {
  return view.getBigUint64(off, little);
}

/**
 * Reads and validates the header of a Darshan log at the start of `buf` (the whole file, or its start when `fileSize`,
 * the whole file's size, is given). Throws DarshanFormatError with a one-line reason for anything that is not a
 * readable 3.x log.
 */
export function parseHeader(buf: Uint8Array, fileSize = buf.length): LogHeader {
  if (buf.length === 0) throw new DarshanFormatError('empty file: not a Darshan log');
  const nul = buf.subarray(0, 8).indexOf(0);
  const versionString = Buffer.from(buf.subarray(0, nul < 0 ? Math.min(8, buf.length) : nul)).toString('latin1');
  const ver = parseVersion(versionString);
  if (!ver || ver[0] !== 3 || !SUPPORTED_MINORS.has(ver[1])) {
    const shown = JSON.stringify(versionString.replace(/[^\x20-\x7e]/g, '?'));
    throw new DarshanFormatError(
      ver && ver[0] === 3
        ? `unsupported Darshan log version ${shown} (IOLens reads 3.00, 3.10, 3.20, 3.21 and 3.41)`
        : `not a Darshan log (no Darshan version string at the start of the file; found ${shown})`,
    );
  }
  const [major, minor] = ver;
  const headerBytes = minor >= 41 ? HEADER_SIZE_341 : HEADER_SIZE_OLD;
  if (buf.length < headerBytes) throw new DarshanFormatError(`truncated Darshan log: ${buf.length} bytes, shorter than its ${headerBytes}-byte header`);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let little: boolean;
  if (view.getBigInt64(8, true) === MAGIC) little = true;
  else if (view.getBigInt64(8, false) === MAGIC) little = false;
  else throw new DarshanFormatError('bad magic number in darshan log file');
  const compression = buf[16];

  const regions: { off: bigint; len: bigint }[] = [];
  const versions: number[] = [];
  let partialMask: bigint;
  let nameOff: bigint;
  let nameLen: bigint;
  const slots = minor >= 41 ? 64 : 16;
  if (minor >= 41) {
    partialMask = view.getBigUint64(24, true);
    nameOff = readU64(view, 32, little);
    nameLen = readU64(view, 40, little);
    for (let i = 0; i < slots; i++) {
      regions.push({ off: readU64(view, 48 + 16 * i, little), len: readU64(view, 56 + 16 * i, little) });
      versions.push(view.getUint32(1072 + 4 * i, little));
    }
  } else {
    partialMask = BigInt(view.getUint32(20, true));
    nameOff = readU64(view, 24, little);
    nameLen = readU64(view, 32, little);
    for (let i = 0; i < slots; i++) {
      regions.push({ off: readU64(view, 40 + 16 * i, little), len: readU64(view, 48 + 16 * i, little) });
      versions.push(view.getUint32(296 + 4 * i, little));
    }
  }
  while (regions.length < MAX_MODULES) {
    regions.push({ off: 0n, len: 0n });
    versions.push(0);
  }
  // Old headers number module slots differently: insert the H5D slot (before 3.20) and the PNETCDF_VAR slot
  // (before 3.41), shifting later slots and their partial bits up by one each time.
  const insertSlot = (at: number) => {
    regions.splice(at, 0, { off: 0n, len: 0n });
    regions.length = MAX_MODULES;
    versions.splice(at, 0, 0);
    versions.length = MAX_MODULES;
    const low = partialMask & ((1n << BigInt(at)) - 1n);
    const high = (partialMask >> BigInt(at)) << BigInt(at + 1);
    partialMask = (low | high) & ((1n << 64n) - 1n);
  };
  if (minor < 20) insertSlot(4);
  if (minor < 41) insertSlot(6);

  const size = BigInt(fileSize);
  const checkRegion = (what: string, off: bigint, len: bigint): Region => {
    if (len === 0n) return { off: Number(off <= size ? off : 0n), len: 0 };
    if (off < BigInt(headerBytes) || off > size || len > size - off) {
      throw new DarshanFormatError(`truncated or corrupt Darshan log: the ${what} region (offset ${off}, ${len} bytes) lies outside the ${fileSize}-byte file`);
    }
    return { off: Number(off), len: Number(len) };
  };
  const nameRegion = checkRegion('name record', nameOff, nameLen);
  const moduleRegions: Region[] = regions.map((r, i) => (r.len === 0n ? { off: 0, len: 0 } : checkRegion(`module ${i}`, r.off, r.len)));

  // The job region has no entry of its own: it runs from the end of the header to the first region after it.
  let jobEnd: bigint;
  if (nameOff !== 0n) jobEnd = nameOff;
  else {
    const first = regions.find((r) => r.off !== 0n);
    jobEnd = first ? first.off : size;
  }
  if (jobEnd < BigInt(headerBytes) || jobEnd > size) {
    throw new DarshanFormatError(`truncated or corrupt Darshan log: job region ends at ${jobEnd}, outside the ${fileSize}-byte file`);
  }
  const jobRegion: Region = { off: headerBytes, len: Number(jobEnd) - headerBytes };
  return {
    versionString,
    major,
    minor,
    headerBytes,
    byteOrder: little ? 'little' : 'big',
    compression,
    partialMask,
    nameRegion,
    jobRegion,
    moduleRegions,
    moduleVersions: versions,
  };
}
