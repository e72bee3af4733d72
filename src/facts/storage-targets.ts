import type { LustreTable } from '../formats/darshan/index.js';
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

/**
 * `storage.targets` (docs/diagnosis.md, "Storage targets"): each file's placement and the bytes, seconds and
 * bandwidth of every storage target, from the LUSTRE module's layouts and the one time model. Placement is what the
 * layout says: a file's bytes are split over the components its extent covers (progressive layouts), evenly over the
 * OSTs of each; DXT offsets are not mapped to stripes (the split is even within a component). Without a LUSTRE
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
    const targetStart: number[] = [], targetCount: number[] = [], targetKey: number[] = [], targetShare: number[] = [];
    const seen = new Set<bigint>();
    const add = (id: bigint, shares: ReadonlyMap<number, number> | null, size: number, count: number): void => {
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
      }
      targetCount.push(own.size);
    };
    if (lustre && kind === 'ost') {
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
        if (shares.size) add(id, shares, comps.get(SIZE, c0), comps.get(COUNT, c0));
      }
    } else {
      for (let i = 0; i < posix.ids.length; i++) add(posix.ids[i], null, 0, 0);
    }
    const nf = ids.length;
    if (!nf) return null;

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
    for (let i = 0; i < nf; i++) {
      const bw = bytes[i] / seconds[i];
      for (let j = targetStart[i]; j < targetStart[i] + targetCount[i]; j++) {
        const t = targetOf[j], w = targetShare[j];
        tFiles[t]++;
        tBytes[t] += bytes[i] * w;
        tSeconds[t] += seconds[i] * w;
        fileBw[t].push(bw);
        if (rank[i] >= 0) {
          const key = t * 4294967296 + rank[i];
          perRank.set(key, (perRank.get(key) ?? 0) + slowest[i] * w);
        } else sharedSlowest[t] += slowest[i] * w;
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
