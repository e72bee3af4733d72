import { defineFixedCodec } from './fixed-codec.js';
import { PNETCDF_FILE_FLOAT_COUNTERS, PNETCDF_FILE_INT_COUNTERS, PNETCDF_FILE_VERSIONS } from './counters/pnetcdf-file.js';

/**
 * PnetCDF file module (id 5; the pre-3.41 "PNETCDF" module). Old versions' independent and collective open counts
 * are summed into PNETCDF_FILE_OPENS. (darshan-util adds them unswapped on big-endian logs, which is wrong only when
 * a carry crosses a byte; IOLens adds the real values.)
 */
export default defineFixedCodec({
  id: 5,
  name: 'PNETCDF_FILE',
  currentVersion: 3,
  intNames: PNETCDF_FILE_INT_COUNTERS,
  floatNames: PNETCDF_FILE_FLOAT_COUNTERS,
  layouts: PNETCDF_FILE_VERSIONS,
});
