import { Int64Block } from '../int64-block.js';
import type { DecodeContext, DecodeOutcome, ModuleCodec, ModuleTable, RecordSink } from '../module-types.js';
import type { Payload } from '../payload.js';
import { cF6 } from '../../../util/cfmt.js';
import { APMPI_COUNTERS, APMPI_FLOAT_COUNTERS, APMPI_GLOBAL_FLOAT_COUNTERS, APMPI_SYNC_FLOAT_COUNTERS } from './counters/apmpi.js';

const HEADER_BYTES = 48;
const PERF_BYTES = 5232;
const NC = APMPI_COUNTERS.length;
const NF = APMPI_FLOAT_COUNTERS.length;
const NS = APMPI_SYNC_FLOAT_COUNTERS.length;
const NG = APMPI_GLOBAL_FLOAT_COUNTERS.length;

export interface ApmpiHeader {
  readonly id: bigint;
  readonly rank: bigint;
  readonly magic: bigint;
  readonly syncFlag: number;
  readonly varianceTotalMpiTime: number;
  readonly varianceTotalMpiSyncTime: number;
}

/** AutoPerf MPI profile: a header record, then one perf record per rank (rows of this table). */
export interface ApmpiTable extends ModuleTable {
  readonly kind: 'apmpi';
  readonly header: ApmpiHeader | null;
  /** Unsigned counters (call counts, bytes, message size bins). */
  readonly counters: Int64Block;
  /** Column-major: total/min/max time per MPI call. */
  readonly floats: Float64Array;
  readonly syncFloats: Float64Array;
  readonly globalFloats: Float64Array;
  readonly nodeNames: readonly string[];
}

function decode(p: Payload, ctx: DecodeContext): DecodeOutcome<ApmpiTable> {
  let header: ApmpiHeader | null = null;
  let off = 0;
  if (p.length >= HEADER_BYTES) {
    header = {
      id: p.u64(0),
      rank: p.i64Exact(8),
      magic: p.i64Exact(16),
      syncFlag: p.view.getUint32(24, p.little),
      varianceTotalMpiTime: p.f64At(32),
      varianceTotalMpiSyncTime: p.f64At(40),
    };
    off = HEADER_BYTES;
  }
  const n = Math.max(0, Math.floor((p.length - off) / PERF_BYTES));
  const ids = new BigUint64Array(n);
  const ranks = new Int64Block(n, 1);
  const counters = new Int64Block(n, NC);
  const floats = new Float64Array(n * NF);
  const syncFloats = new Float64Array(n * NS);
  const globalFloats = new Float64Array(n * NG);
  const nodeNames: string[] = [];
  for (let r = 0; r < n; r++, off += PERF_BYTES) {
    ids[r] = p.u64(off);
    p.i64Into(ranks, 0, r, off + 8);
    for (let c = 0; c < NC; c++) p.i64Into(counters, c, r, off + 16 + 8 * c);
    for (let c = 0; c < NF; c++) floats[c * n + r] = p.f64At(off + 3184 + 8 * c);
    for (let c = 0; c < NS; c++) syncFloats[c * n + r] = p.f64At(off + 4960 + 8 * c);
    for (let c = 0; c < NG; c++) globalFloats[c * n + r] = p.f64At(off + 5088 + 8 * c);
    const name = p.bytes.subarray(off + 5104, off + 5232);
    const nul = name.indexOf(0);
    nodeNames.push(Buffer.from(nul < 0 ? name : name.subarray(0, nul)).toString('latin1'));
  }
  return {
    table: { kind: 'apmpi', module: 'APMPI', moduleId: 14, version: ctx.version, length: n, ids, ranks, header, counters, floats, syncFloats, globalFloats, nodeNames },
    error: null,
  };
}

function print(t: ApmpiTable, sink: RecordSink): void {
  const sync = t.header !== null && t.header.syncFlag !== 0;
  if (t.header) {
    sink.record('APMPI', t.header.rank.toString(), t.header.id.toString(), '', '', '');
    sink.counter('MPI_TOTAL_COMM_TIME_VARIANCE', cF6(t.header.varianceTotalMpiTime));
    if (sync) sink.counter('MPI_TOTAL_COMM_SYNC_TIME_VARIANCE', cF6(t.header.varianceTotalMpiSyncTime));
  }
  const n = t.length;
  for (let r = 0; r < n; r++) {
    sink.record('APMPI', t.ranks.text(0, r), t.ids[r].toString(), '', '', '');
    sink.counter('MPI_PROCESSOR_NAME', t.nodeNames[r]);
    for (let c = 0; c < NC; c++) sink.counter(APMPI_COUNTERS[c], t.counters.unsignedText(c, r));
    for (let c = 0; c < NF; c++) sink.counter(APMPI_FLOAT_COUNTERS[c], cF6(t.floats[c * n + r]));
    if (sync) for (let c = 0; c < NS; c++) sink.counter(APMPI_SYNC_FLOAT_COUNTERS[c], cF6(t.syncFloats[c * n + r]));
    sink.counter('MPI_TOTAL_COMM_TIME', cF6(t.globalFloats[0 * n + r]));
    if (sync) sink.counter('MPI_TOTAL_COMM_SYNC_TIME', cF6(t.globalFloats[1 * n + r]));
  }
}

function encode(t: ApmpiTable): Uint8Array {
  const n = t.length;
  const b = Buffer.alloc((t.header ? HEADER_BYTES : 0) + n * PERF_BYTES);
  let off = 0;
  if (t.header) {
    b.writeBigUInt64LE(t.header.id, 0);
    b.writeBigInt64LE(t.header.rank, 8);
    b.writeBigInt64LE(t.header.magic, 16);
    b.writeUInt32LE(t.header.syncFlag, 24);
    b.writeDoubleLE(t.header.varianceTotalMpiTime, 32);
    b.writeDoubleLE(t.header.varianceTotalMpiSyncTime, 40);
    off = HEADER_BYTES;
  }
  for (let r = 0; r < n; r++, off += PERF_BYTES) {
    b.writeBigUInt64LE(t.ids[r], off);
    b.writeBigInt64LE(t.ranks.exact(0, r), off + 8);
    for (let c = 0; c < NC; c++) b.writeBigInt64LE(BigInt.asIntN(64, t.counters.exact(c, r)), off + 16 + 8 * c);
    for (let c = 0; c < NF; c++) b.writeDoubleLE(t.floats[c * n + r], off + 3184 + 8 * c);
    for (let c = 0; c < NS; c++) b.writeDoubleLE(t.syncFloats[c * n + r], off + 4960 + 8 * c);
    for (let c = 0; c < NG; c++) b.writeDoubleLE(t.globalFloats[c * n + r], off + 5088 + 8 * c);
    b.write(t.nodeNames[r].slice(0, 127), off + 5104, 'latin1');
  }
  return b;
}

function recordJson(t: ApmpiTable, r: number): Record<string, unknown> {
  const n = t.length;
  const counters: Record<string, string> = {};
  APMPI_COUNTERS.forEach((name, c) => (counters[name] = t.counters.unsignedText(c, r)));
  const fcounters: Record<string, number> = {};
  APMPI_FLOAT_COUNTERS.forEach((name, c) => (fcounters[name] = t.floats[c * n + r]));
  APMPI_SYNC_FLOAT_COUNTERS.forEach((name, c) => (fcounters[name] = t.syncFloats[c * n + r]));
  APMPI_GLOBAL_FLOAT_COUNTERS.forEach((name, c) => (fcounters[name] = t.globalFloats[c * n + r]));
  return { processorName: t.nodeNames[r], counters, fcounters };
}

const codec: ModuleCodec<ApmpiTable> = { id: 14, name: 'APMPI', currentVersion: 1, versions: [1], decode, print, encode, recordJson };
export default codec;
