import { Int64Block } from '../int64-block.js';
import type { DecodeContext, DecodeOutcome, ModuleCodec, ModuleTable, NameResolver, RecordSink } from '../module-types.js';
import type { Payload } from '../payload.js';
import { I64List, nameColumns } from './columns.js';

/** Per-component counters of a Lustre layout, in storage order. */
export const LUSTRE_COMPONENT_COUNTERS = ['STRIPE_SIZE', 'STRIPE_COUNT', 'STRIPE_PATTERN', 'FLAGS', 'EXT_START', 'EXT_END', 'MIRROR_ID'] as const;
/** Lustre's largest stripe count (LOV_MAX_STRIPE_COUNT). */
export const LUSTRE_MAX_STRIPES = 2000;
const FLAG_BITS = ['stale', 'prefrd', 'prefwr', 'offline', 'init', 'nosync', 'extension', 'parity', 'compress', 'partial', 'nocompr', 'neg'];
const PATTERNS: Record<string, string> = { '0': 'raid0', '2': 'mdt', '4': 'raid0,overstriped', '8': 'foreign' };

/**
 * Lustre striping, one record per file: components (v2, 3.4.6+; v1 records become one component) and the OST ids.
 * Components after the first unused one (stripe size -1) are dropped and the stripe count recomputed, as
 * darshan-util does; the OST list is kept whole.
 */
export interface LustreTable extends ModuleTable {
  readonly kind: 'lustre';
  /** Number of components after truncation (or as stored when stored < 1). */
  readonly numComponents: Int64Block;
  /** Number of stripes: the sum of kept components' stripe counts (or as stored when components < 1). */
  readonly numStripes: Int64Block;
  /** Index of the record's first component in the component columns. */
  readonly componentStart: Int32Array;
  /** Component counters, one column per LUSTRE_COMPONENT_COUNTERS entry, one row per kept component. */
  readonly components: Int64Block;
  readonly poolNames: readonly string[];
  /** Index of the record's first OST id in `osts`, and how many were stored. */
  readonly ostStart: Int32Array;
  readonly ostCount: Int32Array;
  readonly osts: I64List;
}

function decode(p: Payload, ctx: DecodeContext): DecodeOutcome<LustreTable> {
  const ids: bigint[] = [];
  const ranks = new I64List();
  const nComp = new I64List();
  const nStripe = new I64List();
  const compStart: number[] = [];
  const comps: bigint[][] = [];
  const pools: string[] = [];
  const ostStart: number[] = [];
  const ostCount: number[] = [];
  const osts = new I64List();
  let error: string | null = null;
  let off = 0;
  const v1 = ctx.version === 1;
  while (true) {
    const fixed = v1 ? 56 : 32;
    if (p.length - off < fixed) break;
    const id = p.u64(off);
    const rank = p.i64Exact(off + 8);
    if (v1) {
      const stripeSize = p.i64Exact(off + 16 + 24);
      const width = p.i64Exact(off + 16 + 32);
      if (width < 0n || BigInt(p.length - off - 56) < width * 8n) {
        error = 'LUSTRE record extends past the end of its region';
        break;
      }
      ids.push(id);
      ranks.push(rank);
      nComp.push(1n);
      nStripe.push(width);
      compStart.push(comps.length);
      comps.push([stripeSize, width, -1n, -1n, 0n, -1n, -1n]);
      pools.push('');
      ostStart.push(osts.length);
      ostCount.push(Number(width));
      for (let j = 0; j < Number(width); j++) osts.push(p.i64Exact(off + 56 + 8 * j));
      off += 56 + 8 * Number(width);
      continue;
    }
    const storedComps = p.i64Exact(off + 16);
    const storedStripes = p.i64Exact(off + 24);
    ids.push(id);
    ranks.push(rank);
    compStart.push(comps.length);
    ostStart.push(osts.length);
    if (storedComps < 1n) {
      nComp.push(storedComps);
      nStripe.push(storedStripes);
      ostCount.push(0);
      off += 32;
      continue;
    }
    const need = 72n * storedComps + 8n * storedStripes;
    if (storedStripes < 0n || need > BigInt(p.length - off - 32)) {
      ids.pop();
      ranks.length--;
      compStart.pop();
      ostStart.pop();
      error = 'LUSTRE record extends past the end of its region';
      break;
    }
    // The printers list STRIPE_COUNT OST ids per component from the record's list, and print 0 for ids the record
    // does not hold (as darshan-parser does: some runtimes wrote such records). The counts may claim at most
    // Lustre's own maximum stripe count beyond what the record holds, so one changed field cannot print without end.
    let claimed = 0n;
    let nKept = 0;
    for (; nKept < Number(storedComps); nKept++) {
      const b = off + 32 + 72 * nKept;
      if (p.i64Exact(b) === -1n) break;
      const count = p.i64Exact(b + 8);
      if (count > 0n) claimed += count;
    }
    if (claimed > storedStripes + BigInt(LUSTRE_MAX_STRIPES)) {
      ids.pop();
      ranks.length--;
      compStart.pop();
      ostStart.pop();
      error = `LUSTRE record's stripe counts claim ${claimed} OST ids but it holds ${storedStripes}`;
      break;
    }
    let kept = 0;
    let stripes = 0n;
    for (let c = 0; c < nKept; c++) {
      const b = off + 32 + 72 * c;
      const vals = [0, 1, 2, 3, 4, 5, 6].map((k) => p.i64Exact(b + 8 * k));
      comps.push(vals);
      const pool = p.bytes.subarray(b + 56, b + 72);
      const nul = pool.indexOf(0);
      pools.push(Buffer.from(nul < 0 ? pool : pool.subarray(0, nul)).toString('latin1'));
      stripes += vals[1];
      kept++;
    }
    nComp.push(BigInt(kept));
    nStripe.push(stripes);
    const ostBase = off + 32 + 72 * Number(storedComps);
    ostCount.push(Number(storedStripes));
    for (let j = 0; j < Number(storedStripes); j++) osts.push(p.i64Exact(ostBase + 8 * j));
    off = ostBase + 8 * Number(storedStripes);
  }
  const n = ids.length;
  const components = new Int64Block(comps.length, LUSTRE_COMPONENT_COUNTERS.length);
  comps.forEach((vals, r) => vals.forEach((v, c) => components.setExact(c, r, v)));
  const toBlock = (l: I64List) => {
    const b = new Int64Block(l.length, 1);
    for (let i = 0; i < l.length; i++) b.setExact(0, i, l.exact(i));
    return b;
  };
  const table: LustreTable = {
    kind: 'lustre',
    module: 'LUSTRE',
    moduleId: 8,
    version: ctx.version,
    length: n,
    ids: BigUint64Array.from(ids),
    ranks: toBlock(ranks),
    numComponents: toBlock(nComp),
    numStripes: toBlock(nStripe),
    componentStart: Int32Array.from(compStart),
    components,
    poolNames: pools,
    ostStart: Int32Array.from(ostStart),
    ostCount: Int32Array.from(ostCount),
    osts,
  };
  return { table, error };
}

function flagsText(v: bigint): string {
  if (v === -1n) return 'N/A';
  if (v === 0n) return '0';
  let s = '';
  FLAG_BITS.forEach((name, k) => {
    if ((v >> BigInt(k)) & 1n) s += name + ',';
  });
  return s.slice(0, 64).slice(0, -1);
}

function print(t: LustreTable, sink: RecordSink, names: NameResolver): void {
  for (let r = 0; r < t.length; r++) {
    const cols = nameColumns(names, t.ids[r]);
    sink.record('LUSTRE', t.ranks.text(0, r), t.ids[r].toString(), cols.file, cols.mount, cols.fs);
    sink.counter('LUSTRE_NUM_COMPONENTS', t.numComponents.text(0, r));
    sink.counter('LUSTRE_NUM_STRIPES', t.numStripes.text(0, r));
    const nc = t.numComponents.get(0, r);
    let ost = t.ostStart[r];
    for (let c = 0; c < nc; c++) {
      const row = t.componentStart[r] + c;
      const pre = `LUSTRE_COMP${c + 1}_`;
      sink.counter(pre + 'STRIPE_SIZE', t.components.text(0, row));
      sink.counter(pre + 'STRIPE_COUNT', t.components.text(1, row));
      sink.counter(pre + 'STRIPE_PATTERN', PATTERNS[t.components.text(2, row)] ?? 'N/A');
      sink.counter(pre + 'FLAGS', flagsText(t.components.exact(3, row)));
      sink.counter(pre + 'EXT_START', t.components.text(4, row));
      sink.counter(pre + 'EXT_END', t.components.text(5, row));
      sink.counter(pre + 'MIRROR_ID', t.components.text(6, row));
      sink.counter(pre + 'POOL_NAME', t.poolNames[row] === '' ? 'N/A' : t.poolNames[row]);
      const count = t.components.get(1, row);
      for (let j = 0; j < count; j++, ost++) sink.counter(`${pre}OST_ID_${j}`, ost < t.osts.length ? t.osts.text(ost) : '0');
    }
  }
}

function encode(t: LustreTable): Uint8Array {
  const parts: Buffer[] = [];
  for (let r = 0; r < t.length; r++) {
    const nc = Math.max(0, t.numComponents.get(0, r));
    const nOst = t.ostCount[r];
    const b = Buffer.alloc(32 + 72 * nc + 8 * nOst);
    b.writeBigUInt64LE(t.ids[r], 0);
    b.writeBigInt64LE(t.ranks.exact(0, r), 8);
    b.writeBigInt64LE(t.numComponents.exact(0, r), 16);
    b.writeBigInt64LE(nc > 0 ? BigInt(nOst) : t.numStripes.exact(0, r), 24);
    for (let c = 0; c < nc; c++) {
      const row = t.componentStart[r] + c;
      for (let k = 0; k < 7; k++) b.writeBigInt64LE(t.components.exact(k, row), 32 + 72 * c + 8 * k);
      b.write(t.poolNames[row].slice(0, 15), 32 + 72 * c + 56, 'latin1');
    }
    for (let j = 0; j < nOst; j++) b.writeBigInt64LE(t.osts.exact(t.ostStart[r] + j), 32 + 72 * nc + 8 * j);
    parts.push(b);
  }
  return Buffer.concat(parts);
}

function recordJson(t: LustreTable, r: number): Record<string, unknown> {
  const components = [];
  for (let c = 0; c < t.numComponents.get(0, r); c++) {
    const row = t.componentStart[r] + c;
    const comp: Record<string, unknown> = {};
    LUSTRE_COMPONENT_COUNTERS.forEach((name, k) => (comp[name] = t.components.json(k, row)));
    comp.POOL_NAME = t.poolNames[row];
    components.push(comp);
  }
  const osts = [];
  for (let j = 0; j < t.ostCount[r]; j++) osts.push(t.osts.get(t.ostStart[r] + j));
  return { LUSTRE_NUM_COMPONENTS: t.numComponents.json(0, r), LUSTRE_NUM_STRIPES: t.numStripes.json(0, r), components, osts };
}

const codec: ModuleCodec<LustreTable> = { id: 8, name: 'LUSTRE', currentVersion: 2, versions: [1, 2], decode, print, encode, recordJson };
export default codec;
