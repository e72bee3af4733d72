import { defineFact } from './define-fact.js';
import { groupById, sumByGroup } from './group.js';
import { requestsBelow, sizeBins, SMALL_REQUEST_BYTES } from './posix-files.js';

/**
 * Dataset / variable counters of the high-level libraries (HDF5's H5D, PnetCDF's PNETCDF_VAR) summed per *file*
 * (the dataset record's file record id, which equals the file's POSIX and MPI-IO record id). This is the layer where
 * the application's request sizes and its collective choice are visible, before MPI-IO and POSIX reshape them.
 */
export default defineFact({
  name: 'hl.files',
  description: 'HDF5 dataset (H5D) and PnetCDF variable counters summed per file: requests, bytes, small requests, independent vs collective.',
  compute(src) {
    const ids: bigint[] = [];
    const cols = { datasets: [] as number[], reads: [] as number[], writes: [] as number[], bytesRead: [] as number[], bytesWritten: [] as number[], smallReads: [] as number[], smallWrites: [] as number[], indep: [] as number[], coll: [] as number[] };
    const layers: ('HDF5' | 'PnetCDF')[] = [];
    for (const [mod, p, layer] of [['H5D', 'H5D', 'HDF5'], ['PNETCDF_VAR', 'PNETCDF_VAR', 'PnetCDF']] as const) {
      const t = src.fixed(mod);
      if (!t || !t.fileRecIds) continue;
      const fids = t.fileRecIds;
      const g = groupById(fids);
      const rb = sizeBins(t, `${p}_SIZE_READ_AGG_`);
      const wb = sizeBins(t, `${p}_SIZE_WRITE_AGG_`);
      const acc = [1, 2, 3, 4].map((i) => t.int(`${p}_ACCESS${i}_ACCESS` as never));
      const cnt = [1, 2, 3, 4].map((i) => t.int(`${p}_ACCESS${i}_COUNT` as never));
      const sR = new Float64Array(t.length), sW = new Float64Array(t.length);
      for (let r = 0; r < t.length; r++) {
        sR[r] = requestsBelow(SMALL_REQUEST_BYTES, rb, wb, acc, cnt, r);
        sW[r] = requestsBelow(SMALL_REQUEST_BYTES, wb, rb, acc, cnt, r);
      }
      // H5D counts requests in H5D_READS/WRITES; PNETCDF_VAR splits them into independent, collective and non-blocking.
      const count = (dir: 'READS' | 'WRITES') =>
        mod === 'H5D' ? sumByGroup(g, t.int(`H5D_${dir}` as never)) : (['INDEP', 'COLL', 'NB'] as const).map((k) => sumByGroup(g, t.int(`PNETCDF_VAR_${k}_${dir}` as never))).reduce((a, b) => a.map((v, i) => v + b[i]));
      const reads = count('READS');
      const writes = count('WRITES');
      const add = (x: Float64Array, y: Float64Array) => x.map((v, i) => v + y[i]);
      let indep: Float64Array, coll: Float64Array;
      if (mod === 'H5D') {
        // H5D_USE_MPIIO_COLLECTIVE: the dataset's transfers used a collective property list (per record, 0/1).
        const flag = t.int('H5D_USE_MPIIO_COLLECTIVE');
        const ops = add(t.int('H5D_READS'), t.int('H5D_WRITES'));
        const c = new Float64Array(t.length), ind = new Float64Array(t.length);
        for (let r = 0; r < t.length; r++) (flag[r] > 0 ? c : ind)[r] = ops[r];
        indep = sumByGroup(g, ind);
        coll = sumByGroup(g, c);
      } else {
        indep = add(sumByGroup(g, t.int('PNETCDF_VAR_INDEP_READS')), sumByGroup(g, t.int('PNETCDF_VAR_INDEP_WRITES')));
        coll = add(sumByGroup(g, t.int('PNETCDF_VAR_COLL_READS')), sumByGroup(g, t.int('PNETCDF_VAR_COLL_WRITES')));
      }
      const br = sumByGroup(g, t.int(`${p}_BYTES_READ` as never));
      const bw = sumByGroup(g, t.int(`${p}_BYTES_WRITTEN` as never));
      const sr = sumByGroup(g, sR), sw = sumByGroup(g, sW);
      // Distinct dataset (variable) records per file: ranks' records of one dataset share its id.
      const seen = new Set<bigint>();
      const datasets = new Float64Array(g.keys.length);
      for (let r = 0; r < t.length; r++) {
        if (g.groupOf[r] < 0 || seen.has(t.ids[r])) continue;
        seen.add(t.ids[r]);
        datasets[g.groupOf[r]]++;
      }
      for (let i = 0; i < g.keys.length; i++) {
        ids.push(g.keys[i]);
        layers.push(layer);
        cols.datasets.push(datasets[i]);
        cols.reads.push(reads[i]);
        cols.writes.push(writes[i]);
        cols.bytesRead.push(br[i]);
        cols.bytesWritten.push(bw[i]);
        cols.smallReads.push(sr[i]);
        cols.smallWrites.push(sw[i]);
        cols.indep.push(indep[i]);
        cols.coll.push(coll[i]);
      }
    }
    if (!ids.length) return null;
    return {
      ids: BigUint64Array.from(ids),
      layers,
      datasets: Float64Array.from(cols.datasets),
      reads: Float64Array.from(cols.reads),
      writes: Float64Array.from(cols.writes),
      bytesRead: Float64Array.from(cols.bytesRead),
      bytesWritten: Float64Array.from(cols.bytesWritten),
      smallReads: Float64Array.from(cols.smallReads),
      smallWrites: Float64Array.from(cols.smallWrites),
      independentOps: Float64Array.from(cols.indep),
      collectiveOps: Float64Array.from(cols.coll),
    };
  },
});
