import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parquetHeader } from 'hyparquet/src/column.js';
import { LimitError } from '../../contract/errors.js';
import { TraceInputError } from '../errors.js';
import { checkPages, MAX_PAGE_VALUES } from './parquet-guard.js';

/** Thrift compact encoding of a data page header (what a Parquet writer puts before each page). */
function pageHeader(numValues: number, uncompressed: number, compressed: number): number[] {
  const varint = (v: number) => {
    const out: number[] = [];
    let z = v * 2; // zigzag of a non-negative value
    while (z >= 0x80) {
      out.push((z % 0x80) | 0x80);
      z = Math.floor(z / 0x80);
    }
    out.push(z);
    return out;
  };
  return [
    0x15, ...varint(0), // 1: type DATA_PAGE
    0x15, ...varint(uncompressed), // 2: uncompressed_page_size
    0x15, ...varint(compressed), // 3: compressed_page_size
    0x2c, // 5: data_page_header (struct)
    0x15, ...varint(numValues), 0x15, 0x00, 0x15, 0x00, 0x15, 0x00, 0x00,
    0x00,
  ];
}

function file(bytes: number[]) {
  const b = Uint8Array.from(bytes);
  return { byteLength: b.length, slice: (s: number, e?: number) => b.slice(s, e).buffer };
}

const rowGroup = (rows: number, size: number) =>
  ({ num_rows: BigInt(rows), columns: [{ meta_data: { path_in_schema: ['tstart'], data_page_offset: 0n, total_compressed_size: BigInt(size) } }] }) as never;

test('page headers that would make hyparquet allocate past what V8 survives are refused before it reads', () => {
  // hyparquet itself reads the hand-made header the same way.
  const evil = pageHeader(137_000_000, 100, 0);
  assert.equal(parquetHeader({ view: new DataView(Uint8Array.from(evil).buffer), offset: 0 }).data_page_header?.num_values, 137_000_000);
  assert.throws(() => checkPages('x.parquet', file(evil), rowGroup(10, evil.length), new Set(['tstart']), 1 << 30), (e: unknown) => e instanceof TraceInputError && /a page claims 137000000 values in a row group of 10 rows/.test(e.message));
  // More values than 16 × the rows of its group (but under the absolute cap).
  const many = pageHeader(1000, 100, 0);
  assert.throws(() => checkPages('x.parquet', file(many), rowGroup(10, many.length), new Set(['tstart']), 1 << 30), TraceInputError);
  // A page bigger than the budget.
  const big = pageHeader(10, 1 << 20, 0);
  assert.throws(() => checkPages('x.parquet', file(big), rowGroup(10, big.length), new Set(['tstart']), 1 << 16), LimitError);
  // A page running past its chunk, a chunk outside the file, garbage.
  const past = pageHeader(10, 100, 50);
  assert.throws(() => checkPages('x.parquet', file(past), rowGroup(10, past.length), new Set(['tstart']), 1 << 30), /runs past its column chunk/);
  assert.throws(() => checkPages('x.parquet', file(past), rowGroup(10, past.length + 100), new Set(['tstart']), 1 << 30), /outside the file/);
  assert.throws(() => checkPages('x.parquet', file([0xff, 0xff, 0xff]), rowGroup(10, 3), new Set(['tstart']), 1 << 30), TraceInputError);
  // A damaged header with an i64 (a BigInt in JavaScript) where an i32 belongs is read by value, never a TypeError.
  const i64 = pageHeader(10, 100, 0);
  i64[i64.indexOf(0x15, 4)] = 0x16; // field 3 (compressed size) re-typed as i64: 0n
  checkPages('x.parquet', file(i64), rowGroup(10, i64.length), new Set(['tstart']), 1 << 30);
  const i64past = pageHeader(10, 100, 50);
  i64past[i64past.indexOf(0x15, 4)] = 0x16; // 50n: past the chunk
  assert.throws(() => checkPages('x.parquet', file(i64past), rowGroup(10, i64past.length), new Set(['tstart']), 1 << 30), /runs past its column chunk/);
  // A sane page passes, and columns not read are not looked at.
  const ok = pageHeader(10, 100, 0);
  checkPages('x.parquet', file(ok), rowGroup(10, ok.length), new Set(['tstart']), 1 << 30);
  checkPages('x.parquet', file(evil), rowGroup(10, evil.length), new Set(['tend']), 1 << 30);
  assert.ok(MAX_PAGE_VALUES < 134_217_725, "below V8's largest array");
});
