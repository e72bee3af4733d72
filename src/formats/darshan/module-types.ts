import type { ByteOrder } from './header.js';
import type { Int64Block } from './int64-block.js';
import type { Payload } from './payload.js';

/** What a codec needs to know about the log to decode one module region. */
export interface DecodeContext {
  /** Module format version stored in the header slot. */
  readonly version: number;
  readonly byteOrder: ByteOrder;
  /** Every slot's stored version (current numbering); a few byte-order quirks depend on another module's version. */
  readonly moduleVersions: readonly number[];
}

/** Records common to every module table: one row per record, in file order. */
export interface ModuleTable {
  readonly module: string;
  readonly moduleId: number;
  /** Stored module format version the records were decoded from. */
  readonly version: number;
  readonly length: number;
  /** Record ids (64-bit hashes of the file name). */
  readonly ids: BigUint64Array;
  /** Ranks (column 0 of this block); -1 marks a record shared by all ranks. */
  readonly ranks: Int64Block;
}

/** A decoded region: the records read, plus the error that stopped reading early, if any. */
export interface DecodeOutcome<T extends ModuleTable = ModuleTable> {
  readonly table: T;
  readonly error: string | null;
}

/** Lines of darshan-parser's record output. `file`, `mount` and `fs` are raw (latin1) strings. */
export interface RecordSink {
  /** Starts a record: the module, rank and id columns, and the trailing name/mount/fs columns. */
  record(module: string, rank: string, id: string, file: string, mount: string, fs: string): void;
  /** One counter line of the current record. */
  counter(name: string, value: string): void;
  /** Closes the last record (called by the printer after a module's records). */
  end(): void;
  /** Prepares a list of counter names once; `counterIntPrepared`/`counterPrepared` then print by handle. */
  prepare(names: readonly string[]): readonly unknown[];
  counterIntPrepared(name: unknown, value: number): void;
  counterPrepared(name: unknown, value: string): void;
  /**
   * Optional fast path: every counter of the current record straight from its stored bytes (little-endian 64-bit
   * integers as 32-bit halves from word `intWord` on, then doubles from `floatWord` on), exactly as the
   * `counterIntPrepared`/`counterPrepared` calls would print them, given handles from `prepare`.
   */
  rawCounters?(intKeys: readonly unknown[], unsignedCols: readonly boolean[], i32: Int32Array, u32: Uint32Array, intWord: number, floatKeys: readonly unknown[], f64: Float64Array, floatWord: number): void;
}

/** Looks a record id up the way darshan-parser does (name, mount point, fs type). */
export interface NameResolver {
  /** Raw name or null when the log has none for that id. */
  name(id: bigint): string | null;
  mount(name: string | null): { path: string; fsType: string } | null;
}

/** One codec per Darshan module: decoding (with up-conversion to the current version), printing, encoding. */
export interface ModuleCodec<T extends ModuleTable = ModuleTable> {
  readonly id: number;
  readonly name: string;
  readonly currentVersion: number;
  /** Stored versions this codec decodes. */
  readonly versions: readonly number[];
  decode(payload: Payload, ctx: DecodeContext): DecodeOutcome<T>;
  /** darshan-parser's record lines for the table (absent for modules darshan-parser never prints, e.g. DXT). */
  print?(table: T, sink: RecordSink, names: NameResolver): void;
  /** Encodes the table's records, little-endian (the writer), in `encodeVersion(table)` or the current version. */
  encode?(table: T): Uint8Array;
  /** One record as plain JSON for `iolens parse --json` (64-bit values beyond 2^53 as decimal strings). */
  recordJson?(table: T, row: number): Record<string, unknown>;
  /** The format version `encode` writes for this table, when it depends on the table (DXT with or without thread ids). */
  encodeVersion?(table: T): number;
}
