import { parquetHeader } from 'hyparquet/src/column.js';
import type { AsyncBuffer, FileMetaData } from 'hyparquet';
import { LimitError } from '../../contract/errors.js';
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

/**
 * Walks the page headers of the columns hyparquet is about to read in one row group — headers only, a few bytes
 * each — and refuses a page whose value count or size no real file has, before hyparquet allocates by them. Checks
 * are: the column chunk lies inside the file; every page header parses; `num_values` is at most MAX_PAGE_VALUES and
 * at most 16 × the row group's rows; the page's uncompressed size is at most `maxBytes`; the pages stay inside their
 * chunk.
 */
export function checkPages(path: string, file: AsyncBuffer, rg: RowGroup, columns: ReadonlySet<string>, maxBytes: number): void {
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
      if (!(unpacked >= 0 && unpacked <= maxBytes)) throw new LimitError(`${path}: a page of ${unpacked} bytes uncompressed, past the ${maxBytes}-byte budget`);
      if (!(packed >= 0) || reader.offset + packed > bytes.length) throw new TraceInputError(`${path}: a page runs past its column chunk`);
      reader.offset += packed;
    }
  }
}
