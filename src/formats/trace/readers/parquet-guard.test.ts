import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetMetadata, type PageHeader } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { readDataPage } from 'hyparquet/src/datapage.js';
import { getSchemaPath } from 'hyparquet/src/schema.js';
import { compressors } from 'hyparquet-compressors';
import { LimitError } from '../../../contract/errors.js';
import { REPO_ROOT } from '../../../testing/corpus.js';
import { TraceInputError } from '../errors.js';
import { checkPageRuns, checkPages, MAX_PAGE_VALUES, RUN_PADDING } from './parquet-guard.js';

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
  // A v2 page whose nulls are negative (its values would be 4 + 200,000,000: hyparquet sizes its arrays by them, and a
  // run-length check bounded by that count would bound nothing), or more than its values.
  const v2 = (nulls: number) => {
    const zigzag = (v: number) => {
      const out: number[] = [];
      let z = v >= 0 ? v * 2 : -v * 2 - 1;
      while (z >= 0x80) {
        out.push((z % 0x80) | 0x80);
        z = Math.floor(z / 0x80);
      }
      out.push(z);
      return out;
    };
    // type DATA_PAGE_V2 (3), sizes 0; field 8: num_values, num_nulls, num_rows, encoding, level byte lengths, compressed
    return [0x15, ...zigzag(3), 0x15, 0x00, 0x15, 0x00, 0x5c, 0x15, ...zigzag(4), 0x15, ...zigzag(nulls), 0x15, ...zigzag(4), 0x15, 0x00, 0x15, 0x00, 0x15, 0x00, 0x11, 0x00, 0x00];
  };
  assert.equal(parquetHeader({ view: new DataView(Uint8Array.from(v2(-200_000_000)).buffer), offset: 0 }).data_page_header_v2?.num_nulls, -200_000_000);
  checkPages('x.parquet', file(v2(1)), rowGroup(4, v2(1).length), new Set(['tstart']), 1 << 30);
  assert.throws(() => checkPages('x.parquet', file(v2(-200_000_000)), rowGroup(4, v2(-200_000_000).length), new Set(['tstart']), 1 << 30), (e: unknown) => e instanceof TraceInputError && e.message === 'x.parquet: a page claims -200000000 nulls among 4 values');
  assert.throws(() => checkPages('x.parquet', file(v2(5)), rowGroup(4, v2(5).length), new Set(['tstart']), 1 << 30), /claims 5 nulls among 4 values/);
  // A sane page passes, and columns not read are not looked at.
  const ok = pageHeader(10, 100, 0);
  checkPages('x.parquet', file(ok), rowGroup(10, ok.length), new Set(['tstart']), 1 << 30);
  checkPages('x.parquet', file(evil), rowGroup(10, evil.length), new Set(['tend']), 1 << 30);
  assert.ok(MAX_PAGE_VALUES < 134_217_725, "below V8's largest array");
});

/** Unsigned LEB128, as run headers are written. */
function uleb(v: number): number[] {
  const out: number[] = [];
  do {
    out.push((v % 0x80) | (v >= 0x80 ? 0x80 : 0));
    v = Math.floor(v / 0x80);
  } while (v > 0);
  return out;
}
const rle = (count: number, value: number) => [...uleb(count * 2), value];
const u32 = (v: number) => [v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >>> 24];

/** A v1 data page of an optional INT32 column, stored uncompressed: definition levels, then dictionary indices. */
function v1Page(n: number, defRuns: number[], indexWidth: number, indexRuns: number[]): { h: PageHeader; bytes: Uint8Array } {
  const bytes = Uint8Array.from([...u32(defRuns.length), ...defRuns, indexWidth, ...indexRuns]);
  const h = { type: 'DATA_PAGE', uncompressed_page_size: bytes.length, compressed_page_size: bytes.length, data_page_header: { num_values: n, encoding: 'RLE_DICTIONARY', definition_level_encoding: 'RLE', repetition_level_encoding: 'RLE' } } as PageHeader;
  return { h, bytes };
}

const OPTIONAL = { rep: 0, def: 1 };
const runsOf = (p: { h: PageHeader; bytes: Uint8Array }, levels = OPTIONAL) => checkPageRuns('x.parquet: column c', p.h, p.bytes, 'UNCOMPRESSED', 'INT32', levels, compressors, 1 << 20);

test('run-length encoded runs that would make hyparquet grow an array past any memory are refused before it reads', () => {
  // Four values, two of them defined, indices 0 and 1 of a dictionary: hyparquet reads this page as we say.
  const ok = v1Page(4, [...rle(2, 1), ...rle(2, 0)], 1, [...rle(1, 0), ...rle(1, 1)]);
  runsOf(ok);
  const schema = [{ name: 'root', num_children: 1 }, { name: 'c', type: 'INT32', repetition_type: 'OPTIONAL' }] as never;
  const page = readDataPage(ok.bytes, ok.h.data_page_header!, { type: 'INT32', element: { name: 'c' }, schemaPath: getSchemaPath(schema, ['c']) } as never);
  assert.deepEqual([...(page.definitionLevels ?? [])], [1, 1, 0, 0]);
  assert.deepEqual([...page.dataPage], [0, 1]);
  // A definition-level run of 2^30 repeats in a page of four values (what a fuzzed file held): refused from the
  // run's header, before any value is read (the check reads headers only; counted, not timed)
  assert.throws(() => runsOf(v1Page(4, rle(2 ** 30, 1), 1, rle(4, 0))), (e: unknown) => e instanceof TraceInputError && e.message === 'x.parquet: column c: a run repeats a value 1073741824 times where 4 values are left');
  // Padding up to RUN_PADDING values past the section passes, one more does not; the same for dictionary indices,
  // counted against the defined values (2 here, as hyparquet counts them).
  runsOf(v1Page(4, rle(4 + RUN_PADDING, 1), 1, rle(4, 0)));
  assert.throws(() => runsOf(v1Page(4, rle(5 + RUN_PADDING, 1), 1, rle(4, 0))), /repeats a value 1029 times where 4 values are left/);
  runsOf(v1Page(4, [...rle(2, 1), ...rle(2, 0)], 1, rle(2 + RUN_PADDING, 0)));
  // hyparquet keeps a padded run's values and counts them as defined: 4 + RUN_PADDING indices follow, not 4.
  const padded = v1Page(4, rle(4 + RUN_PADDING, 1), 1, rle(4 + 2 * RUN_PADDING, 0));
  runsOf(padded);
  const read = readDataPage(padded.bytes, padded.h.data_page_header!, { type: 'INT32', element: { name: 'c' }, schemaPath: getSchemaPath(schema, ['c']) } as never);
  assert.equal(read.definitionLevels?.length, 4 + RUN_PADDING);
  assert.throws(() => runsOf(v1Page(4, [...rle(2, 1), ...rle(2, 0)], 1, rle(3 + RUN_PADDING, 0))), /repeats a value 1027 times where 2 values are left/);
  // Bit-packed runs: padded blocks pass (DuckDB writes 256 values for three); a damaged, negative header does not.
  runsOf(v1Page(3, [...uleb(32 * 2 + 1), ...new Array(32).fill(0xff)], 1, rle(3, 0)));
  assert.throws(() => runsOf(v1Page(4, [0xff, 0xff, 0xff, 0xff, 0x0f], 1, rle(4, 0))), /a bit-packed run of -8 values/);
  // A v2 page with dictionary indices of width 0 (hyparquet reads them without reading a byte): a long run is refused.
  const v2 = (indexRun: number[]) => {
    const bytes = Uint8Array.from([...rle(4, 1), 0, ...indexRun]);
    const h = { type: 'DATA_PAGE_V2', uncompressed_page_size: bytes.length, compressed_page_size: bytes.length, data_page_header_v2: { num_values: 4, num_nulls: 0, num_rows: 4, encoding: 'RLE_DICTIONARY', definition_levels_byte_length: 2, repetition_levels_byte_length: 0, is_compressed: false } } as PageHeader;
    return { h, bytes };
  };
  runsOf(v2(uleb(1 * 2 + 1)));
  assert.throws(() => runsOf(v2(uleb(2 ** 28 * 2 + 1))), /a bit-packed run of 2147483648 values|a bit-packed run of -2147483648 values/);
  // A page that ends early is left to hyparquet, which reports it itself.
  runsOf(v1Page(4, [0x80], 1, []));
});

/** A DELTA_BINARY_PACKED stream of `n` values: `first`, then `delta` added each time (blocks of 128, deltas of width 0). */
function deltaStream(n: number, first: number, delta: number, minis = 4): number[] {
  const zigzag = (v: number) => uleb(v >= 0 ? 2 * v : -2 * v - 1);
  const blocks = Array.from({ length: Math.ceil(Math.max(0, n - 1) / 128) }, () => [...zigzag(delta), ...new Array(Math.max(0, minis)).fill(0)]);
  return [...uleb(128), ...(minis < 0 ? [0xff, 0xff, 0xff, 0xff, 0x0f] : uleb(minis)), ...uleb(n), ...zigzag(first), ...blocks.flat()];
}

/** A v1 data page of a required column, stored uncompressed, holding `values` in `encoding`. */
function plainPage(n: number, encoding: string, values: number[]): { h: PageHeader; bytes: Uint8Array } {
  const bytes = Uint8Array.from(values);
  const h = { type: 'DATA_PAGE', uncompressed_page_size: bytes.length, compressed_page_size: bytes.length, data_page_header: { num_values: n, encoding, definition_level_encoding: 'RLE', repetition_level_encoding: 'RLE' } } as PageHeader;
  return { h, bytes };
}

test('delta-encoded values that would make hyparquet loop forever or allocate gigabytes are refused before it reads', () => {
  const REQUIRED = { rep: 0, def: 0 };
  const check = (p: { h: PageHeader; bytes: Uint8Array }, type: string, maxBytes = 1 << 20) => checkPageRuns('x.parquet: column c', p.h, p.bytes, 'UNCOMPRESSED', type, REQUIRED, compressors, maxBytes);
  const read = (p: { h: PageHeader; bytes: Uint8Array }, type: string, element: object) =>
    readDataPage(p.bytes, p.h.data_page_header!, { type, element: { name: 'c', type, ...element }, schemaPath: getSchemaPath([{ name: 'root', num_children: 1 }, { name: 'c', type, repetition_type: 'REQUIRED', ...element }] as never, ['c']) } as never);
  // Integers 5, 8, 11, 14: read by hyparquet as written, passed by the check.
  const ints = plainPage(4, 'DELTA_BINARY_PACKED', deltaStream(4, 5, 3));
  check(ints, 'INT32');
  assert.deepEqual([...read(ints, 'INT32', {}).dataPage], [5, 8, 11, 14]);
  // 17 bytes with a miniblock count of -1: hyparquet's INT32 decoder moves back a byte per block and never ends.
  assert.throws(() => check(plainPage(4, 'DELTA_BINARY_PACKED', deltaStream(4, 5, 3, -1)), 'INT32'), (e: unknown) => e instanceof TraceInputError && e.message === 'x.parquet: column c: a delta-encoded block of 128 values in -1 miniblocks');
  assert.throws(() => check(plainPage(4, 'DELTA_LENGTH_BYTE_ARRAY', deltaStream(4, 1, 0, 3)), 'BYTE_ARRAY'), /a delta-encoded block of 128 values in 3 miniblocks/);
  // Strings "a", "aa", "aaa": each value the previous one and one byte more.
  const strings = plainPage(3, 'DELTA_BYTE_ARRAY', [...deltaStream(3, 0, 1), ...deltaStream(3, 1, 0), 97, 97, 97]);
  check(strings, 'BYTE_ARRAY');
  assert.deepEqual(Array.from(read(strings, 'BYTE_ARRAY', {}).dataPage as ArrayLike<Uint8Array>, (v) => new TextDecoder().decode(v)), ['a', 'aa', 'aaa']);
  // Prefixes growing by 2^28 a value (a page of ~50 bytes that made hyparquet allocate and copy 5 GB for 16 values).
  assert.throws(() => check(plainPage(16, 'DELTA_BYTE_ARRAY', [...deltaStream(16, 0, 2 ** 28), ...deltaStream(16, 1, 0), ...new Array(16).fill(97)]), 'BYTE_ARRAY'), /value 1 takes 268435456 bytes of a previous value of 1 and adds 1/);
  // Sound prefixes whose values together pass the budget: 1 + 2 + … + 64 bytes against 1,000.
  const long = plainPage(64, 'DELTA_BYTE_ARRAY', [...deltaStream(64, 0, 1), ...deltaStream(64, 1, 0), ...new Array(64).fill(97)]);
  check(long, 'BYTE_ARRAY', 4096);
  assert.throws(() => check(long, 'BYTE_ARRAY', 1000), (e: unknown) => e instanceof LimitError && /decode to more than the 1000-byte budget/.test(e.message));
});

test('a Parquet trace whose level run claims more values than its page holds is one error line and exit 2', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-pq-runs-'));
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    const file = join(dir, 'part.0.parquet');
    const values = `(0.5::FLOAT, 0.75::FLOAT, 'open'), (1.0::FLOAT, 1.25::FLOAT, 'write'), (1.5::FLOAT, 2.0::FLOAT, 'fsync')`;
    await con.run(`COPY (SELECT * FROM (VALUES ${values}) v(tstart, tend, func_id)) TO '${file.replace(/'/g, "''")}' (FORMAT parquet, COMPRESSION uncompressed)`);
    const run = () => spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'trace', dir], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(run().status, 0);
    // The tstart column's page: a 4-byte length, then the definition levels' one run (3 × 1): make it 8,191 repeats.
    const bytes = readFileSync(file);
    const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;
    const col = parquetMetadata(ab).row_groups[0].columns.find((c) => c.meta_data?.path_in_schema[0] === 'tstart')!;
    const reader = { view: new DataView(ab), offset: Number(col.meta_data!.data_page_offset) };
    parquetHeader(reader);
    assert.deepEqual([...bytes.subarray(reader.offset, reader.offset + 6)], [...u32(2), ...rle(3, 1)]);
    bytes.set(uleb(8191 * 2), reader.offset + 4);
    writeFileSync(file, bytes);
    const r = run();
    assert.equal(r.status, 2, r.stderr);
    assert.deepEqual(r.stderr.trim().split('\n'), [`iolens: ${file}: column tstart: a run repeats a value 8191 times where 3 values are left`]);
  } finally {
    con.closeSync();
    db.closeSync();
    rmSync(dir, { recursive: true, force: true });
  }
});
