import { Int64Block } from '../int64-block.js';
import type { DecodeContext, DecodeOutcome, ModuleCodec, ModuleTable } from '../module-types.js';
import type { Payload } from '../payload.js';
import { APXC_COUNTERS } from './counters/apxc.js';

const HEADER_BYTES = 72;
const PERF_BYTES = 3184;
const NC = APXC_COUNTERS.length;

export interface ApxcHeader {
  readonly id: bigint;
  readonly rank: bigint;
  readonly magic: bigint;
  readonly nblades: bigint;
  readonly nchassis: bigint;
  readonly ngroups: bigint;
  readonly memoryMode: bigint;
  readonly clusterMode: bigint;
  readonly appid: bigint;
}

/**
 * AutoPerf Cray XC network counters: a header record, then perf records (rows) with the router position and
 * unsigned counters. Decoded for analysis; like the reference darshan-util build, `iolens parse` does not print it.
 */
export interface ApxcTable extends ModuleTable {
  readonly kind: 'apxc';
  readonly header: ApxcHeader | null;
  /** group, chassis, blade, node. */
  readonly position: Int64Block;
  readonly counters: Int64Block;
}

function decode(p: Payload, ctx: DecodeContext): DecodeOutcome<ApxcTable> {
  let header: ApxcHeader | null = null;
  let off = 0;
  if (p.length >= HEADER_BYTES) {
    header = {
      id: p.u64(0), rank: p.i64Exact(8), magic: p.i64Exact(16), nblades: p.i64Exact(24), nchassis: p.i64Exact(32),
      ngroups: p.i64Exact(40), memoryMode: p.i64Exact(48), clusterMode: p.i64Exact(56), appid: p.u64(64),
    };
    off = HEADER_BYTES;
  }
  const n = Math.max(0, Math.floor((p.length - off) / PERF_BYTES));
  const ids = new BigUint64Array(n);
  const ranks = new Int64Block(n, 1);
  const position = new Int64Block(n, 4);
  const counters = new Int64Block(n, NC);
  for (let r = 0; r < n; r++, off += PERF_BYTES) {
    ids[r] = p.u64(off);
    p.i64Into(ranks, 0, r, off + 8);
    for (let c = 0; c < 4; c++) p.i64Into(position, c, r, off + 16 + 8 * c);
    for (let c = 0; c < NC; c++) p.i64Into(counters, c, r, off + 48 + 8 * c);
  }
  return { table: { kind: 'apxc', module: 'APXC', moduleId: 13, version: ctx.version, length: n, ids, ranks, header, position, counters }, error: null };
}

function recordJson(t: ApxcTable, r: number): Record<string, unknown> {
  const counters: Record<string, string> = {};
  APXC_COUNTERS.forEach((name, c) => (counters[name] = t.counters.unsignedText(c, r)));
  return { group: t.position.json(0, r), chassis: t.position.json(1, r), blade: t.position.json(2, r), node: t.position.json(3, r), counters };
}

const codec: ModuleCodec<ApxcTable> = { id: 13, name: 'APXC', currentVersion: 1, versions: [1], decode, recordJson };
export default codec;
