import { Int64Block } from '../int64-block.js';
import type { DecodeContext, DecodeOutcome, ModuleCodec, ModuleTable, NameResolver, RecordSink } from '../module-types.js';
import type { Payload } from '../payload.js';
import { cF6 } from '../../../util/cfmt.js';
import { I64List, nameColumns } from './columns.js';

/** darshan-util refuses heatmap records larger than this many bytes. */
const MAX_RECORD_BYTES = 81920;

/**
 * Runtime heatmaps (3.4.0+): per record (one per instrumented layer, e.g. `heatmap:POSIX`, per rank) a bin width and
 * bytes read and written per time bin. Bins are kept as stored; darshan-parser's bin-count fix-up is applied only
 * when printing.
 */
export interface HeatmapTable extends ModuleTable {
  readonly kind: 'heatmap';
  readonly binWidthSeconds: Float64Array;
  readonly nbins: Int32Array;
  /** Index of the record's first bin in `readBins` / `writeBins`. */
  readonly binStart: Int32Array;
  readonly readBins: I64List;
  readonly writeBins: I64List;
}

function decode(p: Payload, ctx: DecodeContext): DecodeOutcome<HeatmapTable> {
  const ids: bigint[] = [];
  const ranks: bigint[] = [];
  const widths: number[] = [];
  const nbins: number[] = [];
  const starts: number[] = [];
  const readBins = new I64List();
  const writeBins = new I64List();
  let error: string | null = null;
  let off = 0;
  while (p.length - off >= 48) {
    const nb = p.i64Exact(off + 24);
    const size = 48n + 16n * nb;
    if (nb < 0n || size > BigInt(MAX_RECORD_BYTES)) {
      error = `HEATMAP record of ${nb} bins is larger than darshan-util accepts`;
      break;
    }
    if (size > BigInt(p.length - off)) {
      error = 'HEATMAP record extends past the end of its region';
      break;
    }
    const n = Number(nb);
    ids.push(p.u64(off));
    ranks.push(p.i64Exact(off + 8));
    widths.push(p.f64At(off + 16));
    nbins.push(n);
    starts.push(readBins.length);
    for (let k = 0; k < n; k++) writeBins.push(p.i64Exact(off + 48 + 8 * k));
    for (let k = 0; k < n; k++) readBins.push(p.i64Exact(off + 48 + 8 * n + 8 * k));
    off += Number(size);
  }
  const rankBlock = new Int64Block(ids.length, 1);
  ranks.forEach((v, r) => rankBlock.setExact(0, r, v));
  return {
    table: {
      kind: 'heatmap',
      module: 'HEATMAP',
      moduleId: 15,
      version: ctx.version,
      length: ids.length,
      ids: BigUint64Array.from(ids),
      ranks: rankBlock,
      binWidthSeconds: Float64Array.from(widths),
      nbins: Int32Array.from(nbins),
      binStart: Int32Array.from(starts),
      readBins,
      writeBins,
    },
    error,
  };
}

function print(t: HeatmapTable, sink: RecordSink, names: NameResolver): void {
  // darshan-util normalises bin counts that differ by one from the first record's (same bin width).
  let refBins = 0;
  let refWidth = 0;
  for (let r = 0; r < t.length; r++) {
    const n = t.nbins[r];
    const w = t.binWidthSeconds[r];
    if (refBins === 0 && n !== 0) refBins = n;
    if (refWidth === 0 && w !== 0) refWidth = w;
    const s = t.binStart[r];
    let read: string[] = [];
    let write: string[] = [];
    for (let k = 0; k < n; k++) {
      read.push(t.readBins.text(s + k));
      write.push(t.writeBins.text(s + k));
    }
    if (w === refWidth && n === refBins + 1) {
      read = read.slice(0, n - 1);
      write = write.slice(0, n - 1);
    } else if (w === refWidth && n === refBins - 1) {
      write = [...write, '0'];
      read = ['0', ...read.slice(0, Math.max(0, n - 1)), '0'];
    }
    const cols = nameColumns(names, t.ids[r]);
    sink.record('HEATMAP', t.ranks.text(0, r), t.ids[r].toString(), cols.file, cols.mount, cols.fs);
    sink.counter('HEATMAP_F_BIN_WIDTH_SECONDS', cF6(w));
    read.forEach((v, k) => sink.counter(`HEATMAP_READ_BIN_${k}`, v));
    write.forEach((v, k) => sink.counter(`HEATMAP_WRITE_BIN_${k}`, v));
  }
}

function encode(t: HeatmapTable): Uint8Array {
  const parts: Buffer[] = [];
  for (let r = 0; r < t.length; r++) {
    const n = t.nbins[r];
    const b = Buffer.alloc(48 + 16 * n);
    b.writeBigUInt64LE(t.ids[r], 0);
    b.writeBigInt64LE(t.ranks.exact(0, r), 8);
    b.writeDoubleLE(t.binWidthSeconds[r], 16);
    b.writeBigInt64LE(BigInt(n), 24);
    for (let k = 0; k < n; k++) {
      b.writeBigInt64LE(t.writeBins.exact(t.binStart[r] + k), 48 + 8 * k);
      b.writeBigInt64LE(t.readBins.exact(t.binStart[r] + k), 48 + 8 * n + 8 * k);
    }
    parts.push(b);
  }
  return Buffer.concat(parts);
}

function recordJson(t: HeatmapTable, r: number): Record<string, unknown> {
  const s = t.binStart[r];
  const n = t.nbins[r];
  return {
    binWidthSeconds: t.binWidthSeconds[r],
    readBins: Array.from(t.readBins.values().subarray(s, s + n)),
    writeBins: Array.from(t.writeBins.values().subarray(s, s + n)),
  };
}

const codec: ModuleCodec<HeatmapTable> = { id: 15, name: 'HEATMAP', currentVersion: 1, versions: [1], decode, print, encode, recordJson };
export default codec;
