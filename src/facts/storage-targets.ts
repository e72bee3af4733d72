import type { DxtTable, LustreTable } from '../formats/darshan/index.js';
import type { FactSource } from './source.js';
import { LUSTRE_COMPONENT_COUNTERS } from '../formats/darshan/modules/lustre.js';
import { nameText } from '../formats/darshan/names.js';
import { OP_INDEX } from './time-model.js';
import { defineFact } from './define-fact.js';
import type { StorageTargetsFact } from './types.js';

const SIZE = LUSTRE_COMPONENT_COUNTERS.indexOf('STRIPE_SIZE');
const COUNT = LUSTRE_COMPONENT_COUNTERS.indexOf('STRIPE_COUNT');
const EXT_START = LUSTRE_COMPONENT_COUNTERS.indexOf('EXT_START');
const EXT_END = LUSTRE_COMPONENT_COUNTERS.indexOf('EXT_END');

/** Median of the first `n` values (sorts them in place). */
function medianOf(a: Float64Array, n: number): number {
  if (n === 0) return 0;
  const s = a.subarray(0, n).sort();
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** One layout component: its extent, stripe size and OSTs in stripe order. */
interface Component {
  readonly start: number;
  readonly end: number;
  readonly size: number;
  readonly osts: readonly number[];
}

/** What DXT says of one file: shares of its traced bytes and seconds per OST, and each OST's bandwidth from the requests
 * that fell on it alone (bytes/s; absent when none did). */
interface DxtPlacement {
  readonly bytes: Map<number, number>;
  readonly seconds: Map<number, number>;
  readonly bandwidth: Map<number, number>;
  readonly pure: Map<number, [number, number]>;
}

/** DXT regions larger than this (compressed) are not mapped to OSTs: a whole decode would not be bounded. */
const DXT_MAP_MAX_REGION = 64 * 2 ** 20;
/** Stripes walked per request before the rest of a long request is spread evenly over its component's OSTs. */
const STRIPES_PER_REQUEST = 64;

/**
 * Per Lustre file traced by DXT_POSIX: bytes and seconds on each OST, each request's offsets mapped through the
 * file's layout (the component holding the offset, then stripe `⌊(offset − start) / size⌋ mod count`); a request
 * across stripes gives each its bytes and a share of its duration by bytes (its stripes are served at once), and only
 * requests on one OST time that OST's bandwidth (one across a slow and a fast OST waited for the slow one). Empty
 * when the log has no DXT_POSIX or its region is too large to decode whole.
 */
function dxtPlacement(src: FactSource, layouts: ReadonlyMap<bigint, { layout: readonly Component[] }>): Map<bigint, DxtPlacement> {
  const out = new Map<bigint, DxtPlacement>();
  if (!src.log.has('DXT_POSIX')) return out;
  const slot = src.log.slots().find((x) => x.name === 'DXT_POSIX');
  if (!slot || slot.region.len > DXT_MAP_MAX_REGION) return out;
  let t: DxtTable | null = null;
  try {
    t = src.table<DxtTable>('DXT_POSIX');
  } catch {
    return out;
  }
  if (!t) return out;
  const off = t.offsetLength.col(0), len = t.offsetLength.col(1);
  for (let r = 0; r < t.length; r++) {
    const lay = layouts.get(t.ids[r])?.layout;
    if (!lay || !lay.length) continue;
    let acc = out.get(t.ids[r]);
    if (!acc) out.set(t.ids[r], (acc = { bytes: new Map(), seconds: new Map(), bandwidth: new Map(), pure: new Map() }));
    const a = acc;
    const put = (ost: number, b: number, sec: number) => {
      a.bytes.set(ost, (a.bytes.get(ost) ?? 0) + b);
      a.seconds.set(ost, (a.seconds.get(ost) ?? 0) + sec);
    };
    const s0 = t.segStart[r], m = t.writeCount[r] + t.readCount[r];
    for (let k = s0; k < s0 + m; k++) {
      const o = off[k], n = len[k], dur = Math.max(0, t.end[k] - t.start[k]);
      if (!(o >= 0) || !(n > 0)) continue;
      let pos = o, walked = 0, first = -1, one = true;
      while (pos < o + n) {
        const c = lay.find((x) => pos >= x.start && pos < x.end);
        if (!c) break;
        const rel = pos - c.start;
        if (walked >= STRIPES_PER_REQUEST) {
          // The rest of a long request: evenly over the component's OSTs, up to its end.
          const rest = Math.min(o + n, c.end) - pos;
          for (const ost of c.osts) put(ost, rest / c.osts.length, (dur * rest) / n / c.osts.length);
          pos += rest;
          continue;
        }
        const stop = Math.min(pos + (c.size - (rel % c.size)), c.end, o + n);
        const b = stop - pos;
        const ost = c.osts[Math.floor(rel / c.size) % c.osts.length];
        put(ost, b, (dur * b) / n);
        if (first < 0) first = ost;
        else if (ost !== first) one = false;
        pos = stop;
        walked++;
      }
      // A request on one OST times that OST alone; one across OSTs waited for the slowest of them.
      if (one && first >= 0 && walked <= STRIPES_PER_REQUEST) {
        const p = a.pure.get(first) ?? [0, 0];
        p[0] += n;
        p[1] += dur;
        a.pure.set(first, p);
      }
    }
  }
  // Shares of the file's traced bytes and seconds (files whose requests took no measurable time keep the layout's).
  for (const [id, a] of out) {
    let b = 0, sec = 0;
    for (const v of a.bytes.values()) b += v;
    for (const v of a.seconds.values()) sec += v;
    if (!(b > 0) || !(sec > 0)) {
      out.delete(id);
      continue;
    }
    for (const [k, v] of a.bytes) a.bytes.set(k, v / b);
    for (const [k, v] of a.seconds) a.seconds.set(k, v / sec);
    for (const [k, [pb, ps]] of a.pure) if (ps > 0) a.bandwidth.set(k, pb / ps);
  }
  return out;
}

/**
 * `storage.targets` (docs/diagnosis.md, "Storage targets"): each file's placement and the bytes, seconds and
 * bandwidth of every storage target, from the LUSTRE module's layouts and the one time model. Placement is what the
 * layout says: where DXT_POSIX traced the file, each request's bytes and seconds go to the OSTs its offsets fall on
 * (`dxtPlacement`); otherwise the file's bytes are split over the components its extent covers (progressive
 * layouts), evenly over the OSTs of each, and its seconds likewise. Without a LUSTRE
 * module each file one rank wrote or read is its own target (kind `file`): the server behind it is unknown.
 */
export default defineFact({
  name: 'storage.targets',
  description: "Per storage target (Lustre OST, or a file where placement is unknown): files, bytes, data seconds summed and on the slowest rank, bandwidth; each file's placement.",
  compute(src, facts) {
    const model = facts.tryGet('io.time');
    const posix = facts.tryGet('posix.files');
    if (!model || !posix) return null;
    let lustre: LustreTable | null = null;
    try {
      lustre = src.log.has('LUSTRE') ? src.table<LustreTable>('LUSTRE') : null;
    } catch {
      lustre = null;
    }
    const kind: 'ost' | 'file' = lustre && lustre.length ? 'ost' : 'file';
    // The one rank of each POSIX file (−1: shared or several ranks).
    const p = src.fixed('POSIX');
    const rankOfFile = new Map<bigint, number>();
    if (p) {
      const ranks = p.ranks.col(0);
      for (let r = 0; r < p.length; r++) {
        const id = p.ids[r];
        const was = rankOfFile.get(id);
        rankOfFile.set(id, was === undefined ? ranks[r] : was === ranks[r] ? was : -1);
      }
    }
    const posixRows = new Map<bigint, number>();
    for (let i = 0; i < posix.ids.length; i++) posixRows.set(posix.ids[i], i);
    const posixRow = (id: bigint): number => posixRows.get(id) ?? -1;
    const modelRow = new Map<bigint, number>();
    for (let f = 0; f < model.files.keys.length; f++) modelRow.set(model.files.keys[f], f);
    const R = OP_INDEX.read, W = OP_INDEX.write, S = OP_INDEX.sync;

    // Files in log order (LUSTRE records, or POSIX files of one rank), each with its targets' shares.
    const ids: bigint[] = [], rank: number[] = [], nranks: number[] = [], bytes: number[] = [], written: number[] = [], requests: number[] = [];
    const seconds: number[] = [], slowest: number[] = [], stripeSize: number[] = [], stripeCount: number[] = [];
    const targetStart: number[] = [], targetCount: number[] = [], targetKey: number[] = [], targetShare: number[] = [], timeShare: number[] = [];
    const mapped: number[] = [];
    // Each (file, target)'s bandwidth measured by DXT requests on that target alone (NaN: not measured).
    const measured: number[] = [];
    const seen = new Set<bigint>();
    const add = (id: bigint, shares: ReadonlyMap<number, number> | null, size: number, count: number, times: ReadonlyMap<number, number> | null = null, rates: ReadonlyMap<number, number> | null = null): void => {
      if (seen.has(id)) return;
      const pr = posixRow(id);
      const f = modelRow.get(id);
      if (pr < 0 || f === undefined) return;
      const b = posix.bytesRead[pr] + posix.bytesWritten[pr];
      const data = model.files.ops[R][f] + model.files.ops[W][f] + model.files.ops[S][f];
      if (!(b > 0) || !(data > 0)) return;
      const r1 = rankOfFile.get(id) ?? -1;
      if (kind === 'file' && r1 < 0) return;
      seen.add(id);
      ids.push(id);
      rank.push(r1);
      nranks.push(model.files.ranks[f]);
      bytes.push(b);
      written.push(posix.bytesWritten[pr]);
      requests.push(posix.reads[pr] + posix.writes[pr]);
      seconds.push(data);
      const total = model.files.total[f];
      slowest.push(total > 0 ? (model.files.slowest[f] * data) / total : 0);
      stripeSize.push(size);
      stripeCount.push(count);
      targetStart.push(targetKey.length);
      const own = shares ?? new Map([[ids.length - 1, 1]]);
      for (const [k, w] of own) {
        targetKey.push(k);
        targetShare.push(w);
        timeShare.push(times ? (times.get(k) ?? 0) : w);
        measured.push(rates?.get(k) ?? NaN);
      }
      targetCount.push(own.size);
      mapped.push(times ? 1 : 0);
    };
    if (lustre && kind === 'ost') {
      const pending = new Map<bigint, { shares: Map<number, number>; size: number; count: number; layout: Component[] }>();
      const comps = lustre.components;
      const ncomp = lustre.numComponents.col(0);
      for (let r = 0; r < lustre.length; r++) {
        const id = lustre.ids[r];
        const n = ncomp[r];
        const c0 = lustre.componentStart[r];
        if (!(n > 0) || c0 >= comps.rows) continue;
        const pr = posixRow(id);
        const extent = pr >= 0 ? posix.extent[pr] : 0;
        // Each component's OSTs follow the previous components' in the record's list.
        const shares = new Map<number, number>();
        let o = lustre.ostStart[r];
        const oEnd = o + lustre.ostCount[r];
        let covered = 0;
        const parts: { osts: number[]; weight: number }[] = [];
        for (let c = c0; c < c0 + n && c < comps.rows; c++) {
          const count = Math.max(0, comps.get(COUNT, c));
          const osts: number[] = [];
          for (let k = 0; k < count && o < oEnd; k++, o++) osts.push(lustre.osts.get(o));
          const start = Math.max(0, comps.get(EXT_START, c));
          const endRaw = comps.get(EXT_END, c);
          const end = endRaw < 0 ? Infinity : endRaw;
          const weight = extent > 0 ? Math.max(0, Math.min(extent, end) - start) : c === c0 ? 1 : 0;
          covered += weight;
          if (osts.length) parts.push({ osts, weight });
        }
        if (!parts.length) continue;
        if (!(covered > 0)) parts[0].weight = covered = 1;
        for (const { osts, weight } of parts) for (const ost of osts) shares.set(ost, (shares.get(ost) ?? 0) + weight / covered / osts.length);
        for (const [k, w] of shares) if (!(w > 0)) shares.delete(k);
        if (!shares.size || seen.has(id) || pending.has(id)) continue;
        const layout: Component[] = [];
        for (let c = c0, oo = lustre.ostStart[r]; c < c0 + n && c < comps.rows; c++) {
          const count = Math.max(0, comps.get(COUNT, c));
          const osts: number[] = [];
          for (let k = 0; k < count && oo < oEnd; k++, oo++) osts.push(lustre.osts.get(oo));
          const endRaw = comps.get(EXT_END, c);
          if (osts.length && comps.get(SIZE, c) > 0) layout.push({ start: Math.max(0, comps.get(EXT_START, c)), end: endRaw < 0 ? Infinity : endRaw, size: comps.get(SIZE, c), osts });
        }
        pending.set(id, { shares, size: comps.get(SIZE, c0), count: comps.get(COUNT, c0), layout });
      }
      // DXT: each traced request's bytes and seconds go to the OSTs its offsets fall on.
      const byDxt = dxtPlacement(src, pending);
      for (const [id, p] of pending) {
        const d = byDxt.get(id);
        if (d) add(id, d.bytes, p.size, p.count, d.seconds, d.bandwidth);
        else add(id, p.shares, p.size, p.count);
      }
    } else {
      for (let i = 0; i < posix.ids.length; i++) add(posix.ids[i], null, 0, 0);
    }
    // (no file to place: an empty fact, so that D21 and D22 are quiet rather than not applicable on any log with
    // POSIX data, whichever way its counters were derived)
    const nf = ids.length;

    // Targets ascending by key, and each file's targets as indices into them.
    const keys = [...new Set(targetKey)].sort((a, b) => a - b);
    const index = new Map(keys.map((k, i) => [k, i]));
    const nt = keys.length;
    const tFiles = new Float64Array(nt), tBytes = new Float64Array(nt), tSeconds = new Float64Array(nt), tSlowest = new Float64Array(nt);
    const targetOf = Int32Array.from(targetKey, (k) => index.get(k)!);
    // The slowest rank on each target: per (target, rank) sums of files of one rank, plus shared files' slowest rank.
    const perRank = new Map<number, number>();
    const sharedSlowest = new Float64Array(nt);
    const fileBw: number[][] = Array.from({ length: nt }, () => []);
    const targetBandwidth = new Float64Array(targetKey.length);
    for (let i = 0; i < nf; i++) {
      for (let j = targetStart[i]; j < targetStart[i] + targetCount[i]; j++) {
        const t = targetOf[j], w = targetShare[j], ws = timeShare[j];
        // The file's bandwidth on this target: DXT requests on it alone, else its bytes there over its seconds there.
        const bw = measured[j] > 0 ? measured[j] : ws > 0 ? (bytes[i] * w) / (seconds[i] * ws) : bytes[i] / seconds[i];
        targetBandwidth[j] = bw;
        tFiles[t]++;
        tBytes[t] += bytes[i] * w;
        tSeconds[t] += seconds[i] * ws;
        fileBw[t].push(bw);
        if (rank[i] >= 0) {
          const key = t * 4294967296 + rank[i];
          perRank.set(key, (perRank.get(key) ?? 0) + slowest[i] * ws);
        } else sharedSlowest[t] += slowest[i] * ws;
      }
    }
    for (const [key, s] of perRank) {
      const t = Math.floor(key / 4294967296);
      if (s > tSlowest[t]) tSlowest[t] = s;
    }
    const medianFileBandwidth = new Float64Array(nt);
    const scratch = new Float64Array(Math.max(1, ...fileBw.map((b) => b.length)));
    for (let t = 0; t < nt; t++) {
      tSlowest[t] += sharedSlowest[t];
      scratch.set(fileBw[t]);
      medianFileBandwidth[t] = medianOf(scratch, fileBw[t].length);
    }
    // The file system the files live on (the mount type most of them have).
    const types = new Map<string, number>(), mounts = new Map<string, number>();
    for (let i = 0; i < Math.min(nf, 4096); i++) {
      const m = src.log.mountOf(src.log.names.get(ids[i]));
      if (m) types.set(m.fsType, (types.get(m.fsType) ?? 0) + 1);
      if (m?.path !== undefined) mounts.set(m.path, (mounts.get(m.path) ?? 0) + 1);
    }
    const most = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? '';
    const fsType = most(types);
    const mount = nameText(most(mounts));
    const value: StorageTargetsFact = {
      kind,
      files: {
        ids: BigUint64Array.from(ids),
        rank: Int32Array.from(rank),
        ranks: Float64Array.from(nranks),
        bytes: Float64Array.from(bytes),
        bytesWritten: Float64Array.from(written),
        requests: Float64Array.from(requests),
        seconds: Float64Array.from(seconds),
        slowest: Float64Array.from(slowest),
        stripeSize: Float64Array.from(stripeSize),
        stripeCount: Float64Array.from(stripeCount),
        targetStart: Int32Array.from(targetStart),
        targetCount: Int32Array.from(targetCount),
        targetOf,
        targetShare: Float64Array.from(targetShare),
        targetTimeShare: Float64Array.from(timeShare),
        targetBandwidth,
        dxtMapped: Uint8Array.from(mapped),
      },
      targets: {
        ids: Float64Array.from(keys),
        files: tFiles,
        bytes: tBytes,
        seconds: tSeconds,
        slowestSeconds: tSlowest,
        bandwidth: Float64Array.from(tBytes, (b, t) => (tSeconds[t] > 0 ? b / tSeconds[t] : 0)),
        medianFileBandwidth,
      },
      fsType,
      mount,
    };
    return value;
  },
});
