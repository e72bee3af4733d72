import { parquetHeader } from 'hyparquet/src/column.js';
import { decompressPage } from 'hyparquet/src/datapage.js';
import { deltaBinaryUnpack } from 'hyparquet/src/delta.js';
import { getMaxDefinitionLevel, getMaxRepetitionLevel, getSchemaPath } from 'hyparquet/src/schema.js';
import type { AsyncBuffer, Compressors, FileMetaData, PageHeader } from 'hyparquet';
import { LimitError } from '../../../contract/errors.js';
import { TraceInputError } from '../errors.js';

/**
 * Values one page may claim. hyparquet builds a JavaScript array of a page's `num_values` before it decodes a value;
 * past V8's largest array (about 2^27 elements) that aborts the whole process, uncatchably. A real page holds far
 * fewer values than this, and never more than its row group has rows (times a repetition factor for nested columns).
 */
export const MAX_PAGE_VALUES = 1 << 26;

type RowGroup = FileMetaData['row_groups'][number];

/** A header field as a safe integer, NaN when it is not one. */
function int(v: unknown): number {
  const n = typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : NaN;
  return Number.isSafeInteger(n) ? n : NaN;
}

/** What the run check needs besides the pages: the file's schema (levels per column) and the page decompressors. */
export interface RunCheck {
  readonly schema: FileMetaData['schema'];
  readonly compressors: Compressors;
}

/**
 * Walks the page headers of the columns hyparquet is about to read in one row group — headers only, a few bytes
 * each — and refuses a page whose value count or size no real file has, before hyparquet allocates by them. Checks
 * are: the column chunk lies inside the file; every page header parses; `num_values` is at most MAX_PAGE_VALUES and
 * at most 16 × the row group's rows (and a v2 page's `num_nulls` between 0 and `num_values`); the page's uncompressed
 * size is at most `maxBytes`; the pages stay inside their chunk. With `runs`, each data page is also decompressed and
 * its run-length encoded sections checked (`checkPageRuns`): that costs a second decompression of every page read.
 */
export function checkPages(path: string, file: AsyncBuffer, rg: RowGroup, columns: ReadonlySet<string>, maxBytes: number, runs?: RunCheck): void {
  const rows = Number(rg.num_rows);
  const perPage = Math.min(MAX_PAGE_VALUES, Math.max(1, rows) * 16);
  for (const col of rg.columns) {
    const md = col.meta_data;
    if (!md || !columns.has(md.path_in_schema[md.path_in_schema.length - 1])) continue;
    const start = Number(md.dictionary_page_offset ?? md.data_page_offset);
    const size = Number(md.total_compressed_size);
    if (!(Number.isSafeInteger(start) && Number.isSafeInteger(size) && start >= 0 && size >= 0 && start + size <= file.byteLength)) {
      throw new TraceInputError(`${path}: column ${md.path_in_schema.join('.')} lies outside the file`);
    }
    const bytes = new Uint8Array(file.slice(start, start + size) as ArrayBuffer);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const levels = runs ? levelsOf(runs.schema, md.path_in_schema) : null;
    const reader = { view, offset: 0 };
    while (reader.offset < bytes.length) {
      let h: ReturnType<typeof parquetHeader>;
      try {
        h = parquetHeader(reader);
      } catch (err) {
        throw new TraceInputError(`${path}: corrupt Parquet page header in column ${md.path_in_schema.join('.')} (${(err as Error).message})`);
      }
      // A damaged header can carry any Thrift type where an i32 belongs (a BigInt, a string …).
      const n = int(h.data_page_header?.num_values ?? h.data_page_header_v2?.num_values ?? h.dictionary_page_header?.num_values ?? 0);
      const unpacked = int(h.uncompressed_page_size);
      const packed = int(h.compressed_page_size);
      if (Number.isNaN(n) || Number.isNaN(unpacked) || Number.isNaN(packed)) throw new TraceInputError(`${path}: corrupt Parquet page header in column ${md.path_in_schema.join('.')}`);
      if (!(n >= 0 && n <= perPage)) throw new TraceInputError(`${path}: a page claims ${n} values in a row group of ${rows} rows`);
      // A v2 page's values are its value count less its nulls: hyparquet sizes its arrays by that difference.
      if (h.data_page_header_v2) {
        const nulls = int(h.data_page_header_v2.num_nulls);
        if (!(nulls >= 0 && nulls <= n)) throw new TraceInputError(`${path}: a page claims ${h.data_page_header_v2.num_nulls} nulls among ${n} values`);
      }
      if (!(unpacked >= 0 && unpacked <= maxBytes)) throw new LimitError(`${path}: a page of ${unpacked} bytes uncompressed, past the ${maxBytes}-byte budget`);
      if (!(packed >= 0) || reader.offset + packed > bytes.length) throw new TraceInputError(`${path}: a page runs past its column chunk`);
      if (runs && levels && (h.type === 'DATA_PAGE' || h.type === 'DATA_PAGE_V2')) {
        checkPageRuns(`${path}: column ${md.path_in_schema.join('.')}`, h, bytes.subarray(reader.offset, reader.offset + packed), md.codec, md.type, levels, runs.compressors, maxBytes);
      }
      reader.offset += packed;
    }
  }
}

/** Bits per value of levels up to `max` (the width hyparquet reads them with). */
function widthOf(max: number): number {
  return 32 - Math.clz32(max);
}

/** The highest repetition and definition levels of a column, as hyparquet derives them from the schema. */
function levelsOf(schema: FileMetaData['schema'], name: readonly string[]): { rep: number; def: number } {
  let tree;
  try {
    tree = getSchemaPath(schema, [...name]);
  } catch {
    // a column the schema does not have: hyparquet fails on it by itself
    return { rep: 0, def: 0 };
  }
  return { rep: tree.length > 1 ? getMaxRepetitionLevel(tree) : 0, def: getMaxDefinitionLevel(tree) };
}

/** Thrown inside the run walk when the bytes end: hyparquet fails on such a page by itself, nothing to bound. */
class OutOfBytes extends Error {}

/** An unsigned LEB128 integer at `at.off` (moved past it), accumulated in 32 bits as hyparquet does. */
function varint32(view: DataView, at: { off: number }): number {
  let v = 0;
  for (let shift = 0; ; shift += 7) {
    if (at.off >= view.byteLength) throw new OutOfBytes();
    const b = view.getUint8(at.off++);
    v |= (b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
}

/**
 * Values a run may reach past the end of its section and still be padding: writers round runs up (DuckDB writes
 * levels as bit-packed blocks of 256 values, three of them used in a page of three).
 */
export const RUN_PADDING = 1024;

/**
 * One RLE / bit-packed hybrid section (Parquet's encoding of levels, dictionary indices and booleans) as hyparquet
 * walks it: runs until `n` values are seen. A repeated run writes every repeat into hyparquet's array, whatever its
 * length, so a run of 2^31 repeats in a page of 1,000 values makes it grow a JavaScript array past any memory: a run
 * reaching more than RUN_PADDING values past the section is refused. A bit-packed run writes only what the array
 * holds and reads its bits from the page, except at width 0, where it spins without reading a byte: such a run is
 * held to the same bound, and a negative one (a damaged header) is refused. Returns how many of the values
 * hyparquet's array ends up holding equal `match` (its padding included), without keeping them.
 */
function walkRuns(view: DataView, start: number, width: number, n: number, match: number, where: string): number {
  const at = { off: start };
  const byte = () => {
    if (at.off >= view.byteLength) throw new OutOfBytes();
    return view.getUint8(at.off++);
  };
  let seen = 0;
  let matches = 0;
  while (seen < n) {
    const header = varint32(view, at);
    if (header & 1) {
      const count = (header >> 1) << 3;
      if (count < 0 || (width === 0 && count > n - seen + RUN_PADDING)) throw new TraceInputError(`${where}: a bit-packed run of ${count} values where ${n - seen} are left`);
      // hyparquet reads a run's first byte whatever its count and width
      const bytes = count === 0 || width === 0 ? Math.min(1, view.byteLength - at.off) : Math.ceil((count * width) / 8);
      if (at.off + bytes > view.byteLength) throw new OutOfBytes();
      if (match >= 0) {
        for (let k = 0; k < count && seen + k < n; k++) {
          let v = 0;
          for (let b = 0; b < width; b++) {
            const bit = k * width + b;
            v |= ((view.getUint8(at.off + (bit >> 3)) >> (bit & 7)) & 1) << b;
          }
          if (v === match) matches++;
        }
      }
      at.off += bytes;
      seen = Math.min(n, seen + count);
    } else {
      const count = header >>> 1;
      if (count > n - seen + RUN_PADDING) throw new TraceInputError(`${where}: a run repeats a value ${count} times where ${n - seen} values are left`);
      let v = 0;
      for (let i = 0; i < (width + 7) >> 3; i++) v |= byte() << (i << 3);
      if (v === match) matches += count;
      seen += count;
    }
  }
  return matches;
}

/**
 * Checks the encoded sections of one data page the way hyparquet will read them — repetition and definition levels,
 * then dictionary indices, RLE booleans or delta-encoded values — so that no run can make it write past its arrays,
 * no delta header can make it loop, and no shared prefix can make it allocate past `maxBytes`.
 * `stored` is the page as stored (compressed, for a v1 page; levels plain and values compressed, for v2). A page
 * hyparquet cannot decode at all is left to it (it fails with its own error); a run no valid writer makes is refused.
 */
export function checkPageRuns(where: string, h: PageHeader, stored: Uint8Array, codec: Parameters<typeof decompressPage>[2], type: string, levels: { rep: number; def: number }, compressors: Compressors, maxBytes: number): void {
  try {
    if (h.type === 'DATA_PAGE' && h.data_page_header) {
      const d = h.data_page_header;
      const n = Number(d.num_values);
      const page = decompressPage(stored, Number(h.uncompressed_page_size), codec, compressors);
      const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
      let off = 0;
      // v1: each level section is a 4-byte length, then its runs; the reader moves on by that length
      const section = (max: number, match: number) => {
        if (off + 4 > view.byteLength) throw new OutOfBytes();
        const len = view.getUint32(off, true);
        const matches = walkRuns(view, off + 4, widthOf(max), n, match, where);
        off += 4 + len;
        return matches;
      };
      if (levels.rep) section(levels.rep, -1);
      // the values present: hyparquet counts the defined levels over its whole array, padding included
      const present = levels.def ? section(levels.def, levels.def) : n;
      valueSection(view, off, d.encoding, type, present, where, true, maxBytes);
    } else if (h.type === 'DATA_PAGE_V2' && h.data_page_header_v2) {
      const d = h.data_page_header_v2;
      const n = Number(d.num_values);
      const repBytes = Number(d.repetition_levels_byte_length);
      const defBytes = Number(d.definition_levels_byte_length);
      const plain = new DataView(stored.buffer, stored.byteOffset, stored.byteLength);
      if (levels.rep) walkRuns(plain, 0, widthOf(levels.rep), n, -1, where);
      if (levels.def) walkRuns(plain, repBytes, widthOf(levels.def), n, -1, where);
      let values = stored.subarray(repBytes + defBytes);
      if (d.is_compressed !== false) values = decompressPage(values, Number(h.uncompressed_page_size) - repBytes - defBytes, codec, compressors);
      valueSection(new DataView(values.buffer, values.byteOffset, values.byteLength), 0, d.encoding, type, n - Number(d.num_nulls), where, false, maxBytes);
    }
  } catch (err) {
    if (err instanceof TraceInputError || err instanceof LimitError) throw err;
    // out of bytes, or a page that does not decompress: hyparquet reports it when it reads the page
  }
}

/**
 * The values after the levels, as hyparquet reads them. Run-length encoded: booleans (a 4-byte length first, one bit
 * each) or dictionary indices (a width byte first); a v1 page reads any of the three encodings as booleans for a
 * BOOLEAN column and skips indices of width 0 (all zero), a v2 page reads RLE as booleans and runs of any width.
 * Delta encoded: each stream's header is checked (`checkDeltaHeader`), and DELTA_BYTE_ARRAY's prefix and suffix
 * lengths are decoded (by hyparquet's own decoder, once the headers are sound) and held to what the format allows.
 */
function valueSection(view: DataView, off: number, encoding: string, type: string, n: number, where: string, v1: boolean, maxBytes: number): void {
  if (encoding === 'DELTA_BINARY_PACKED' || encoding === 'DELTA_LENGTH_BYTE_ARRAY') return checkDeltaHeader(view, off, where);
  if (encoding === 'DELTA_BYTE_ARRAY') return checkByteArrayPrefixes(view, off, Math.max(0, n), where, maxBytes);
  const dictionary = encoding === 'PLAIN_DICTIONARY' || encoding === 'RLE_DICTIONARY';
  if (!dictionary && encoding !== 'RLE') return;
  if (v1 ? type === 'BOOLEAN' : encoding === 'RLE') {
    walkRuns(view, off + 4, 1, n, -1, where);
    return;
  }
  if (!v1 && !dictionary) return;
  if (off >= view.byteLength) throw new OutOfBytes();
  const width = view.getUint8(off);
  if (width || !v1) walkRuns(view, off + 1, width, n, -1, where);
}

/**
 * A DELTA_BINARY_PACKED stream's header (values per block, miniblocks per block) as the format defines it: a
 * positive multiple of 128 values per block, split into a whole number of miniblocks of a multiple of 32 values. A
 * writer makes nothing else; hyparquet reads any numbers, and with a negative miniblock count it moves back in the
 * page and decodes forever.
 */
function checkDeltaHeader(view: DataView, off: number, where: string): void {
  const at = { off };
  const block = varint32(view, at);
  const minis = varint32(view, at);
  const per = block / minis;
  if (!(block > 0 && block % 128 === 0 && minis > 0 && Number.isInteger(per) && per % 32 === 0)) {
    throw new TraceInputError(`${where}: a delta-encoded block of ${block} values in ${minis} miniblocks`);
  }
}

/**
 * DELTA_BYTE_ARRAY: each value is a prefix of the previous value and a suffix of its own. hyparquet allocates
 * prefix + suffix bytes per value whatever the previous value held, so a page of a hundred bytes could claim values of
 * gigabytes each. Refused: a length below 0, a prefix longer than the previous value, and values that together pass
 * the decompression budget (a run of long shared prefixes is a bomb like any other).
 */
function checkByteArrayPrefixes(view: DataView, off: number, n: number, where: string, maxBytes: number): void {
  const reader = { view, offset: off };
  const prefix = new Int32Array(n);
  checkDeltaHeader(view, reader.offset, where);
  deltaBinaryUnpack(reader, n, prefix);
  const suffix = new Int32Array(n);
  checkDeltaHeader(view, reader.offset, where);
  deltaBinaryUnpack(reader, n, suffix);
  let previous = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const p = prefix[i], s = suffix[i];
    if (p < 0 || s < 0 || p > previous) throw new TraceInputError(`${where}: value ${i} takes ${p} bytes of a previous value of ${previous} and adds ${s}`);
    previous = p + s;
    total += previous;
    if (total > maxBytes) throw new LimitError(`${where}: a page's values decode to more than the ${maxBytes}-byte budget`);
  }
}
