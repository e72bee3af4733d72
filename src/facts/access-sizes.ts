import { FixedTable } from '../formats/darshan/index.js';
import { defineFact } from './define-fact.js';
import { counterSum } from './module-measures.js';

/** Counter-name suffixes of Darshan's ten access-size bins, in order (contract: ACCESS_SIZE_BINS). */
const SUFFIXES = ['0_100', '100_1K', '1K_10K', '10K_100K', '100K_1M', '1M_4M', '4M_10M', '10M_100M', '100M_1G', '1G_PLUS'] as const;

/** Modules with access-size histograms and the counter prefix of their read and write bins. */
const HISTOGRAMS = [
  { module: 'POSIX', read: 'POSIX_SIZE_READ_', write: 'POSIX_SIZE_WRITE_' },
  { module: 'MPI-IO', read: 'MPIIO_SIZE_READ_AGG_', write: 'MPIIO_SIZE_WRITE_AGG_' },
  { module: 'H5D', read: 'H5D_SIZE_READ_AGG_', write: 'H5D_SIZE_WRITE_AGG_' },
  { module: 'PNETCDF_VAR', read: 'PNETCDF_VAR_SIZE_READ_AGG_', write: 'PNETCDF_VAR_SIZE_WRITE_AGG_' },
] as const;

export default defineFact({
  name: 'modules.accessSizes',
  description:
    'Access-size histograms per module (POSIX request sizes; MPI-IO, HDF5 and PnetCDF aggregate datatype sizes): requests per Darshan size bin, reads and writes, summed over records. A module whose bins the input lacks is left out.',
  compute(src) {
    const modules: { module: string; read: number[]; write: number[] }[] = [];
    for (const h of HISTOGRAMS) {
      if (!src.log.has(h.module)) continue;
      const t = src.fixed(h.module);
      if (!(t instanceof FixedTable) || t.length === 0) continue;
      const read = SUFFIXES.map((s) => counterSum(t, h.read + s));
      const write = SUFFIXES.map((s) => counterSum(t, h.write + s));
      if (read.some((v) => v === null) || write.some((v) => v === null)) continue;
      modules.push({ module: h.module, read: read as number[], write: write as number[] });
    }
    return { modules };
  },
});
