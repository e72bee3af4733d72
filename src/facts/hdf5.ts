import { defineFact } from './define-fact.js';

export default defineFact({
  name: 'hdf5',
  description: 'Whether the job used HDF5: H5F/H5D modules present, or an MPI-IO file named *.h5 / *.hdf5.',
  compute(src) {
    const t = src.fixed('MPI-IO');
    let mpiioHdf5Name = false;
    if (t) {
      const seen = new Set<bigint>();
      for (let r = 0; r < t.length && !mpiioHdf5Name; r++) {
        const id = t.ids[r];
        if (seen.has(id)) continue;
        seen.add(id);
        const name = src.log.names.get(id);
        if (name !== null && (name.endsWith('.h5') || name.endsWith('.hdf5'))) mpiioHdf5Name = true;
      }
    }
    return { h5f: src.log.has('H5F'), h5d: src.log.has('H5D'), mpiioHdf5Name };
  },
});
