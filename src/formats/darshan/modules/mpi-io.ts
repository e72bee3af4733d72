import { defineFixedCodec } from './fixed-codec.js';
import { MPI_IO_FLOAT_COUNTERS, MPI_IO_INT_COUNTERS, MPI_IO_VERSIONS } from './counters/mpi-io.js';

/** MPI-IO module (id 2); versions 1 and 2 share a layout and gain two timestamps (as -1) in version 3. */
export default defineFixedCodec({
  id: 2,
  name: 'MPI-IO',
  currentVersion: 3,
  intNames: MPI_IO_INT_COUNTERS,
  floatNames: MPI_IO_FLOAT_COUNTERS,
  layouts: MPI_IO_VERSIONS,
});
