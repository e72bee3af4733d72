import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

/**
 * Writers for synthetic traces (tests and the benchmark generator): Recorder folders in both layouts and DFTracer
 * files. They follow the on-disk formats documented in docs/trace.md, so the readers can be checked against known
 * contents.
 */

export interface SynthCall {
  funcId: number;
  args: string[];
  depth?: number;
}

export interface SynthRank {
  /** call signatures; terminal id = index */
  calls: SynthCall[];
  /** grammar rules: rule id (−1 is the start rule) → (symbol, repeat) pairs; symbol ≥ 0 is a call index */
  rules: Map<number, [number, number][]>;
  /** (start, end) tick offsets per call in expansion order, relative to the previous call's start */
  ticks: Uint32Array;
}

export const DEFAULT_FUNCS = [
  'creat', 'creat64', 'open', 'open64', 'close', 'write', 'read', 'lseek', 'lseek64', 'pread', 'pread64', 'pwrite',
  'pwrite64', 'readv', 'writev', 'mmap', 'mmap64', 'fopen', 'fopen64', 'fclose', 'fwrite', 'fread', 'ftell', 'fseek',
  'fsync', 'fdatasync', '__xstat', '__xstat64', '__lxstat', '__lxstat64', '__fxstat', '__fxstat64',
  'MPI_File_close', 'MPI_File_open', 'MPI_File_write_at', 'MPI_File_read_at', 'MPI_Barrier',
  'H5Fcreate', 'H5Fclose', 'H5Dwrite',
];

function cstBytes(calls: SynthCall[], rank: number, counts: number[]): Buffer {
  const parts: Buffer[] = [];
  const head = Buffer.alloc(4);
  head.writeInt32LE(calls.length);
  parts.push(head);
  calls.forEach((c, i) => {
    const text = Buffer.from(c.args.map((a) => `${a.replace(/ /g, '_')} `).join(''), 'latin1');
    const key = Buffer.alloc(15 + text.length);
    key.writeBigUInt64LE(0n, 0);
    key[8] = c.funcId;
    key[9] = c.depth ?? 0;
    key[10] = c.args.length;
    key.writeInt32LE(text.length, 11);
    text.copy(key, 15);
    const e = Buffer.alloc(16);
    e.writeInt32LE(i, 0);
    e.writeInt32LE(rank, 4);
    e.writeInt32LE(key.length, 8);
    e.writeUInt32LE(counts[i] ?? 0, 12);
    parts.push(e, key);
  });
  return Buffer.concat(parts);
}

function cfgBytes(rules: Map<number, [number, number][]>): Buffer {
  const ints: number[] = [rules.size];
  for (const [id, syms] of rules) {
    ints.push(id, syms.length);
    for (const [v, r] of syms) ints.push(v, r);
  }
  return Buffer.from(Int32Array.from(ints).buffer);
}

/** Expands a grammar the simple recursive way (for call counts in the CST). */
export function expandCounts(rules: Map<number, [number, number][]>, ncalls: number): number[] {
  const memo = new Map<number, number[]>();
  const visit = (id: number): number[] => {
    const hit = memo.get(id);
    if (hit) return hit;
    const out = new Array<number>(ncalls).fill(0);
    for (const [v, r] of rules.get(id) ?? []) {
      if (v >= 0) out[v] += r;
      else visit(v).forEach((n, i) => (out[i] += n * r));
    }
    memo.set(id, out);
    return out;
  };
  return visit(-1);
}

function zblock(data: Buffer): Buffer {
  const z = deflateSync(data);
  const h = Buffer.alloc(16);
  h.writeBigUInt64LE(BigInt(z.length), 0);
  h.writeBigUInt64LE(BigInt(data.length), 8);
  return Buffer.concat([h, z]);
}

/** Writes a Recorder folder: `per-rank` (v2.4/pilgrim raw files) or `final-2.5` (zlib blocks, one recorder.ts). */
export function writeRecorderFolder(
  dir: string,
  ranks: SynthRank[],
  opts: { layout: 'per-rank' | 'final-2.5'; funcNames?: string[]; startTs?: number; resolution?: number; totalRanks?: number; tsCompression?: boolean },
): void {
  mkdirSync(dir, { recursive: true });
  const names = opts.funcNames ?? DEFAULT_FUNCS;
  const mt = Buffer.alloc(40);
  mt.writeInt32LE(opts.totalRanks ?? ranks.length, 0);
  const startTs = opts.startTs ?? 1700000000;
  const res = opts.resolution ?? 1e-7;
  if (opts.layout === 'per-rank') {
    mt.writeDoubleLE(startTs, 8);
    mt.writeDoubleLE(res, 16);
    mt.writeInt32LE(1 << 18, 24);
  } else {
    for (let i = 4; i < 10; i++) mt[i] = 1;
    mt.writeDoubleLE(startTs, 16);
    mt.writeDoubleLE(res, 24);
    mt.writeInt32LE(1 << 18, 32);
    mt[36] = opts.tsCompression ? 1 : 0;
  }
  writeFileSync(join(dir, 'recorder.mt'), Buffer.concat([mt, Buffer.from(names.map((n) => `${n}\n`).join(''), 'latin1')]));
  writeFileSync(join(dir, 'VERSION'), opts.layout === 'per-rank' ? '2.4.0' : '2.5.0');
  const tsBlocks: Buffer[] = [];
  ranks.forEach((r, rank) => {
    const counts = expandCounts(r.rules, r.calls.length);
    const cst = cstBytes(r.calls, rank, counts);
    const cfg = cfgBytes(r.rules);
    const ts = Buffer.from(r.ticks.buffer, r.ticks.byteOffset, r.ticks.byteLength);
    if (opts.layout === 'per-rank') {
      writeFileSync(join(dir, `${rank}.cst`), cst);
      writeFileSync(join(dir, `${rank}.cfg`), cfg);
      writeFileSync(join(dir, `${rank}.ts`), ts);
    } else {
      writeFileSync(join(dir, `${rank}.cst`), zblock(cst));
      writeFileSync(join(dir, `${rank}.cfg`), zblock(cfg));
      tsBlocks.push(opts.tsCompression ? zblock(ts) : Buffer.from(ts));
    }
  });
  if (opts.layout === 'final-2.5') {
    const head = Buffer.alloc(8 * (opts.totalRanks ?? ranks.length));
    tsBlocks.forEach((b, i) => head.writeBigUInt64LE(BigInt(b.length), 8 * i));
    writeFileSync(join(dir, 'recorder.ts'), Buffer.concat([head, ...tsBlocks]));
  }
}

/** Deterministic pseudo-random numbers (xorshift32). */
export function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}

/** A small rank of 12 POSIX calls on one file (open, write×4, lseek, read×4, fsync, close), 10 µs apart, 5 µs each. */
export function synthRank(rank: number): SynthRank {
  const f = (n: string) => DEFAULT_FUNCS.indexOf(n);
  const path = `/scratch/out_${rank}.dat`;
  const calls = [
    { funcId: f('open'), args: [path, '66'] },
    { funcId: f('write'), args: [path, '%p', '4096'] },
    { funcId: f('lseek'), args: [path, '0', '0'] },
    { funcId: f('read'), args: [path, '%p', '4096'] },
    { funcId: f('fsync'), args: [path] },
    { funcId: f('close'), args: [path] },
  ];
  // open, write×4, lseek, read×4, fsync, close  = 12 calls
  const rules = new Map<number, [number, number][]>([
    [-1, [[0, 1], [1, 4], [2, 1], [-2, 2], [4, 1], [5, 1]]],
    [-2, [[3, 2]]],
  ]);
  const ticks = new Uint32Array(24);
  for (let i = 0; i < 12; i++) {
    ticks[2 * i] = i === 0 ? 10 : 100; // each call starts 10 µs after the previous one
    ticks[2 * i + 1] = (i === 0 ? 10 : 100) + 50; // and lasts 5 µs
  }
  return { calls, rules, ticks };
}
