import { defineFact } from './define-fact.js';
import { isStdStream } from './stdio-files.js';

/**
 * Bytes each rank moved, judged at the layer the application called: files with MPI-IO records count their MPI-IO
 * bytes (POSIX bytes there belong to collective-buffering aggregators, MANIFEST caveat 5), other files their POSIX
 * bytes, plus STDIO (standard streams left out). The shared records (rank −1) of the application's layer are split
 * over the ranks exactly when the HEATMAP module allows it (`io.sharedRankBytes`); other shared records give their
 * slowest and fastest rank their bytes and spread the rest evenly over the other ranks, the best the counters allow.
 */
export default defineFact({
  name: 'io.rankBytes',
  description: 'Bytes moved per rank (MPI-IO bytes for MPI-IO files, else POSIX; plus STDIO), shared records split by HEATMAP bytes per rank where it can, else attributed from their slowest/fastest rank counters.',
  compute(src, facts) {
    const nprocs = Math.max(1, Number(src.log.job.nprocs));
    // A damaged or anonymised job record can claim absurd process counts; no per-rank table for those.
    if (!Number.isSafeInteger(nprocs) || nprocs > 1 << 24) return null;
    const bytes = new Float64Array(nprocs);
    const exact = facts.tryGet('io.sharedRankBytes');
    if (exact && exact.nprocs === nprocs) for (let k = 0; k < nprocs; k++) bytes[k] += exact.bytes[k];
    const mpiio = src.fixed('MPI-IO');
    const viaMpiio = new Set<bigint>(mpiio ? mpiio.ids : []);
    let any = false;
    for (const [mod, p] of [['MPI-IO', 'MPIIO'], ['POSIX', 'POSIX'], ['STDIO', 'STDIO']] as const) {
      const t = src.fixed(mod);
      if (!t) continue;
      any = true;
      const ranks = t.ranks.col(0);
      const br = t.int(`${p}_BYTES_READ` as never), bw = t.int(`${p}_BYTES_WRITTEN` as never);
      const hasExtremes = mod !== 'STDIO';
      const slowR = hasExtremes ? t.int(`${p}_SLOWEST_RANK` as never) : null;
      const slowB = hasExtremes ? t.int(`${p}_SLOWEST_RANK_BYTES` as never) : null;
      const fastR = hasExtremes ? t.int(`${p}_FASTEST_RANK` as never) : null;
      const fastB = hasExtremes ? t.int(`${p}_FASTEST_RANK_BYTES` as never) : null;
      for (let r = 0; r < t.length; r++) {
        if (mod === 'POSIX' && viaMpiio.has(t.ids[r])) continue;
        if (mod === 'STDIO' && isStdStream(src.log.names.get(t.ids[r]))) continue;
        const b = Math.max(0, br[r]) + Math.max(0, bw[r]);
        if (!b) continue;
        if (ranks[r] >= 0) {
          if (ranks[r] < nprocs) bytes[ranks[r]] += b;
          continue;
        }
        if (exact && exact.nprocs === nprocs && exact.layer === mod) continue;
        let rest = b;
        const named = new Set<number>();
        if (slowR && slowB && fastR && fastB) {
          for (const [rk, v] of [[slowR[r], slowB[r]], [fastR[r], fastB[r]]] as const) {
            if (rk >= 0 && rk < nprocs && !named.has(rk) && v >= 0) {
              bytes[rk] += Math.min(v, rest);
              rest -= Math.min(v, rest);
              named.add(rk);
            }
          }
        }
        const others = nprocs - named.size;
        if (rest > 0 && others > 0) for (let k = 0; k < nprocs; k++) if (!named.has(k)) bytes[k] += rest / others;
      }
    }
    if (!any) return null;
    let total = 0;
    for (const v of bytes) total += v;
    return { nprocs, bytes, total };
  },
});
