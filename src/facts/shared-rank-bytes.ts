import type { HeatmapTable } from '../formats/darshan/index.js';
import { defineFact } from './define-fact.js';

/**
 * `io.sharedRankBytes`: bytes each rank moved on the shared files (Darshan's reduced records, rank −1) of one layer,
 * exactly. A reduced record keeps only its slowest and fastest rank (by time) and a byte variance; Darshan 3.4's
 * HEATMAP module, however, keeps every rank's bytes per layer (`heatmap:MPIIO`, `heatmap:POSIX`). A rank's bytes on
 * shared files are its heatmap bytes less the bytes of its own (per-rank) records of that layer.
 *
 * The layer is MPI-IO when the job moved bytes through MPI-IO (the application's layer: at POSIX, collective
 * buffering makes the aggregators look busy), else POSIX; the POSIX heatmap of an MPI-IO job also holds the
 * aggregators' traffic, so POSIX-only shared files of such a job are not covered. Absent (null) without a HEATMAP
 * record of the layer, without shared records, or when the heatmap's bytes do not account for the records' (an
 * incomplete heatmap, bytes of files Darshan left out): the counters then say no more than slowest and fastest rank.
 */
export default defineFact({
  name: 'io.sharedRankBytes',
  description: "Bytes per rank on the shared files of the application's layer (MPI-IO, else POSIX), from HEATMAP bytes per rank less the rank's own records.",
  compute(src) {
    const nprocs = Number(src.log.job.nprocs);
    if (!Number.isSafeInteger(nprocs) || nprocs < 2 || nprocs > 1 << 20) return null;
    let heat: HeatmapTable | null = null;
    try {
      heat = src.table<HeatmapTable>('HEATMAP');
    } catch {
      return null;
    }
    if (!heat || !heat.length) return null;
    const mpiio = src.fixed('MPI-IO');
    const moduleBytes = (t: NonNullable<typeof mpiio>, p: string) => {
      const br = t.int(`${p}_BYTES_READ` as never), bw = t.int(`${p}_BYTES_WRITTEN` as never);
      return (r: number) => Math.max(0, br[r]) + Math.max(0, bw[r]);
    };
    let useMpiio = false;
    if (mpiio) {
      const b = moduleBytes(mpiio, 'MPIIO');
      for (let r = 0; r < mpiio.length && !useMpiio; r++) useMpiio = b(r) > 0;
    }
    const layer = useMpiio ? 'MPI-IO' : 'POSIX';
    const t = useMpiio ? mpiio : src.fixed('POSIX');
    if (!t) return null;
    const bytesOf = moduleBytes(t, useMpiio ? 'MPIIO' : 'POSIX');
    const heatName = useMpiio ? 'heatmap:MPIIO' : 'heatmap:POSIX';
    const bytes = new Float64Array(nprocs);
    let found = false;
    const hr = heat.ranks.col(0);
    for (let r = 0; r < heat.length; r++) {
      if (src.log.names.get(heat.ids[r]) !== heatName) continue;
      const rank = hr[r];
      if (!(rank >= 0 && rank < nprocs)) continue;
      found = true;
      for (let b = 0; b < heat.nbins[r]; b++) bytes[rank] += Math.max(0, heat.readBins.get(heat.binStart[r] + b)) + Math.max(0, heat.writeBins.get(heat.binStart[r] + b));
    }
    if (!found) return null;
    const ranks = t.ranks.col(0);
    let shared = 0;
    const ids = new Set<bigint>();
    for (let r = 0; r < t.length; r++) {
      const b = bytesOf(r);
      if (ranks[r] < 0) {
        shared += b;
        ids.add(t.ids[r]);
      } else if (ranks[r] < nprocs) bytes[ranks[r]] -= b;
    }
    if (!(shared > 0)) return null;
    let sum = 0;
    for (let k = 0; k < nprocs; k++) {
      bytes[k] = Math.max(0, bytes[k]);
      sum += bytes[k];
    }
    // The heatmap must account for the shared records' bytes (within 1%), or the split is not trustworthy.
    if (Math.abs(sum - shared) > 0.01 * shared) return null;
    return { layer, nprocs, bytes, total: shared, ids: BigUint64Array.from([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) };
  },
});
