import { defineFact } from './define-fact.js';
import { groupById, sumByGroup } from './group.js';

/** `hl.opens`: file opens and metadata time of the high-level libraries (H5F, PNETCDF_FILE) per file. */
export default defineFact({
  name: 'hl.opens',
  description: 'Opens (and creates) and metadata seconds per file of the HDF5 (H5F) and PnetCDF (PNETCDF_FILE) modules.',
  compute(src) {
    const ids: bigint[] = [], layers: ('HDF5' | 'PnetCDF')[] = [], opens: number[] = [], meta: number[] = [];
    for (const [mod, layer] of [['H5F', 'HDF5'], ['PNETCDF_FILE', 'PnetCDF']] as const) {
      const t = src.fixed(mod);
      if (!t) continue;
      const g = groupById(t.ids);
      let o: Float64Array;
      if (mod === 'H5F') o = sumByGroup(g, t.int('H5F_OPENS'));
      else {
        // ncmpi_create and ncmpi_open both open the file.
        const creates = sumByGroup(g, t.int('PNETCDF_FILE_CREATES'));
        o = sumByGroup(g, t.int('PNETCDF_FILE_OPENS')).map((v, i) => v + creates[i]);
      }
      const m = sumByGroup(g, t.float(mod === 'H5F' ? 'H5F_F_META_TIME' : 'PNETCDF_FILE_F_META_TIME'));
      for (let i = 0; i < g.keys.length; i++) {
        ids.push(g.keys[i]);
        layers.push(layer);
        opens.push(o[i]);
        meta.push(m[i]);
      }
    }
    if (!ids.length) return null;
    return { ids: BigUint64Array.from(ids), layers, opens: Float64Array.from(opens), metaSeconds: Float64Array.from(meta) };
  },
});
