#!/usr/bin/env node
// Synthesizes a Darshan log with a DXT_POSIX trace of any size, streamed to disk: memory holds one 64k-segment piece,
// not the log (`iolens synth --dxt-segments` builds the whole log in memory: ~1.5 GB at 10^7 segments).
// usage: node bench/trace-gen-dxt.mjs <out.darshan> [events=10000000] [files=64] [ranks=8]
// One DXT record per (file, rank), the events spread evenly over them; each record writes 70 % of its segments
// sequentially, then reads the file back from offset 0, one segment after another in time.
import { closeSync, createWriteStream, openSync, rmSync, writeSync } from 'node:fs';
import { once } from 'node:events';
import { createDeflate } from 'node:zlib';
import { synthesizeLog } from '../dist/formats/darshan/synth.js';
import { writeLog } from '../dist/formats/darshan/writer.js';
import { rng } from '../dist/util/random.js';

const out = process.argv[2];
if (!out) {
  console.error('usage: node bench/trace-gen-dxt.mjs <out.darshan> [events] [files] [ranks]');
  process.exit(2);
}
const target = Number(process.argv[3] ?? 10_000_000);
const nfiles = Number(process.argv[4] ?? 64);
const nranks = Number(process.argv[5] ?? 8);
const RUN = 3600; // seconds: the job's run time, which the segments fill
const ACCESS = 1 << 20;
const DXT_POSIX = 10;
const VERSION = 2; // segments with thread ids: 40 bytes
const RECORD_HEAD = 104;
const SEG = 40;

// the job, the file names and their POSIX records, written as `iolens synth` writes them (one file per record id)
const base = synthesizeLog({ seed: 1, posixFiles: nfiles, sharedFiles: nfiles, nprocs: nranks, runSeconds: RUN, stdio: false });
const fileIds = [...base.names].map(([id]) => id);
const head = writeLog(base);
rmSync(out, { force: true });
const file = createWriteStream(out);
file.write(head);
const z = createDeflate({ level: 1 });
z.pipe(file);
let compressed = 0;
z.on('data', (b) => (compressed += b.length));

const nrec = nfiles * nranks;
const per = Math.floor(target / nrec);
const extra = target - per * nrec;
const rand = rng(3);
const CH = 1 << 16; // segments per piece handed to zlib
const push = async (buf) => {
  if (!z.write(buf)) await once(z, 'drain');
};
for (let r = 0; r < nrec; r++) {
  const fileIdx = Math.floor(r / nranks);
  const rank = r % nranks;
  const n = per + (r < extra ? 1 : 0);
  const w = Math.ceil(n * 0.7);
  const rec = Buffer.alloc(RECORD_HEAD);
  rec.writeBigUInt64LE(fileIds[fileIdx], 0);
  rec.writeBigInt64LE(BigInt(rank), 8);
  rec.write(`nid${String(rank >> 2).padStart(5, '0')}`, 24, 'latin1');
  rec.writeBigInt64LE(BigInt(w), 88);
  rec.writeBigInt64LE(BigInt(n - w), 96);
  await push(rec);
  // one timeline per record over 90 % of the run; a segment's I/O takes 0.5-1 ms per MiB (at most 80 % of its slot)
  const slot = (RUN * 0.9) / Math.max(1, n);
  let t = rand() * RUN * 0.05;
  let off = 0;
  for (let k = 0; k < n; ) {
    const m = Math.min(CH, n - k);
    const piece = Buffer.allocUnsafe(m * SEG);
    const f64 = new Float64Array(piece.buffer, piece.byteOffset, m * 5);
    const u32 = new Uint32Array(piece.buffer, piece.byteOffset, m * 10);
    for (let i = 0; i < m; i++, k++) {
      if (k === w) off = 0;
      const len = Math.max(1, Math.round(ACCESS * (0.5 + rand())));
      const q = i * 10;
      u32[q] = off % 4294967296;
      u32[q + 1] = Math.floor(off / 4294967296);
      u32[q + 2] = len;
      u32[q + 3] = 0;
      f64[i * 5 + 2] = t;
      f64[i * 5 + 3] = t + Math.min(slot * 0.8, (len / ACCESS) * (0.0005 + 0.0005 * rand()));
      u32[q + 8] = 1_000_000 + rank; // thread id
      u32[q + 9] = 0;
      t += slot;
      off += len;
    }
    await push(piece);
  }
}
z.end();
await once(file, 'close');
// the DXT_POSIX region goes after the others: its offset, length and version in the header's region map
const fd = openSync(out, 'r+');
const map = Buffer.alloc(16);
map.writeBigUInt64LE(BigInt(head.length), 0);
map.writeBigUInt64LE(BigInt(compressed), 8);
writeSync(fd, map, 0, 16, 48 + 16 * DXT_POSIX);
const ver = Buffer.alloc(4);
ver.writeUInt32LE(VERSION, 0);
writeSync(fd, ver, 0, 4, 1072 + 4 * DXT_POSIX);
closeSync(fd);
console.log(`${out}: ${nrec} records (${nfiles} files × ${nranks} ranks) × ${per} segments = ${per * nrec + extra} events, ${head.length + compressed} bytes`);
