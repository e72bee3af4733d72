import { Int64Block } from '../int64-block.js';
import type { DecodeContext, DecodeOutcome, ModuleCodec, ModuleTable, NameResolver, RecordSink } from '../module-types.js';
import type { Payload } from '../payload.js';
import { cF6 } from '../../../util/cfmt.js';
import { I64List, nameColumns } from './columns.js';
import { MDHIM_FLOAT_COUNTERS, MDHIM_INT_COUNTERS } from './counters/mdhim.js';

/** MDHIM key-value store records: five counts, four times, then a per-server histogram of MDHIM_SERVERS entries. */
export interface MdhimTable extends ModuleTable {
  readonly kind: 'mdhim';
  readonly ints: Int64Block;
  readonly floats: Float64Array;
  readonly serverStart: Int32Array;
  readonly serverCount: Int32Array;
  readonly servers: I64List;
}

const NI = MDHIM_INT_COUNTERS.length;
const NF = MDHIM_FLOAT_COUNTERS.length;
const SERVERS = MDHIM_INT_COUNTERS.indexOf('MDHIM_SERVERS');

function decode(p: Payload, ctx: DecodeContext): DecodeOutcome<MdhimTable> {
  const rows: { id: bigint; rank: bigint; ints: bigint[]; floats: number[]; hist: bigint[] }[] = [];
  let error: string | null = null;
  let off = 0;
  while (p.length - off >= 96) {
    const ints = Array.from({ length: NI }, (_, c) => p.i64Exact(off + 16 + 8 * c));
    const servers = ints[SERVERS];
    const extra = servers > 1n ? 8n * (servers - 1n) : 0n;
    if (extra > BigInt(p.length - off - 96)) {
      error = 'MDHIM record extends past the end of its region';
      break;
    }
    const floats = Array.from({ length: NF }, (_, c) => p.f64At(off + 56 + 8 * c));
    const nHist = servers > 1n ? Number(servers) : 1;
    const hist = Array.from({ length: nHist }, (_, k) => p.i64Exact(off + 88 + 8 * k));
    rows.push({ id: p.u64(off), rank: p.i64Exact(off + 8), ints, floats, hist });
    off += 96 + Number(extra);
  }
  const n = rows.length;
  const ranks = new Int64Block(n, 1);
  const ints = new Int64Block(n, NI);
  const floats = new Float64Array(n * NF);
  const serverStart = new Int32Array(n);
  const serverCount = new Int32Array(n);
  const servers = new I64List();
  rows.forEach((row, r) => {
    ranks.setExact(0, r, row.rank);
    row.ints.forEach((v, c) => ints.setExact(c, r, v));
    row.floats.forEach((v, c) => (floats[c * n + r] = v));
    serverStart[r] = servers.length;
    serverCount[r] = row.hist.length;
    row.hist.forEach((v) => servers.push(v));
  });
  const table: MdhimTable = {
    kind: 'mdhim', module: 'MDHIM', moduleId: 12, version: ctx.version, length: n,
    ids: BigUint64Array.from(rows.map((r) => r.id)), ranks, ints, floats, serverStart, serverCount, servers,
  };
  return { table, error };
}

function print(t: MdhimTable, sink: RecordSink, names: NameResolver): void {
  for (let r = 0; r < t.length; r++) {
    const cols = nameColumns(names, t.ids[r]);
    sink.record('MDHIM', t.ranks.text(0, r), t.ids[r].toString(), cols.file, cols.mount, cols.fs);
    for (let c = 0; c < NI; c++) sink.counter(MDHIM_INT_COUNTERS[c], t.ints.text(c, r));
    for (let c = 0; c < NF; c++) sink.counter(MDHIM_FLOAT_COUNTERS[c], cF6(t.floats[c * t.length + r]));
    const servers = t.ints.get(SERVERS, r);
    for (let k = 0; k < servers; k++) sink.counter(`MDHIM_SERVER_${k}`, t.servers.text(t.serverStart[r] + k));
  }
}

function encode(t: MdhimTable): Uint8Array {
  const parts: Buffer[] = [];
  for (let r = 0; r < t.length; r++) {
    const nHist = t.serverCount[r];
    const b = Buffer.alloc(88 + 8 * Math.max(1, nHist));
    b.writeBigUInt64LE(t.ids[r], 0);
    b.writeBigInt64LE(t.ranks.exact(0, r), 8);
    for (let c = 0; c < NI; c++) b.writeBigInt64LE(t.ints.exact(c, r), 16 + 8 * c);
    for (let c = 0; c < NF; c++) b.writeDoubleLE(t.floats[c * t.length + r], 56 + 8 * c);
    for (let k = 0; k < nHist; k++) b.writeBigInt64LE(t.servers.exact(t.serverStart[r] + k), 88 + 8 * k);
    parts.push(b);
  }
  return Buffer.concat(parts);
}

function recordJson(t: MdhimTable, r: number): Record<string, unknown> {
  const counters: Record<string, number | string> = {};
  MDHIM_INT_COUNTERS.forEach((name, c) => (counters[name] = t.ints.json(c, r)));
  const fcounters: Record<string, number> = {};
  MDHIM_FLOAT_COUNTERS.forEach((name, c) => (fcounters[name] = t.floats[c * t.length + r]));
  const servers = [];
  for (let k = 0; k < t.serverCount[r]; k++) servers.push(t.servers.get(t.serverStart[r] + k));
  return { counters, fcounters, servers };
}

const codec: ModuleCodec<MdhimTable> = { id: 12, name: 'MDHIM', currentVersion: 1, versions: [1], decode, print, encode, recordJson };
export default codec;
