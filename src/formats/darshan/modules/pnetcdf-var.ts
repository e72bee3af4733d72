import { defineFixedCodec } from './fixed-codec.js';
import { PNETCDF_VAR_FLOAT_COUNTERS, PNETCDF_VAR_INT_COUNTERS, PNETCDF_VAR_VERSIONS } from './counters/pnetcdf-var.js';

/** PnetCDF variable module (id 6, new in 3.41); each record names its file's record id. */
export default defineFixedCodec({
  id: 6,
  name: 'PNETCDF_VAR',
  currentVersion: 1,
  intNames: PNETCDF_VAR_INT_COUNTERS,
  floatNames: PNETCDF_VAR_FLOAT_COUNTERS,
  layouts: PNETCDF_VAR_VERSIONS,
  head: () => ({ bytes: 8, fileRecId: true }),
  fileRecIdName: 'PNETCDF_VAR_FILE_REC_ID',
});
