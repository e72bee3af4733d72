import { defineFixedCodec } from './fixed-codec.js';
import { H5F_FLOAT_COUNTERS, H5F_INT_COUNTERS, H5F_VERSIONS } from './counters/h5f.js';

/** HDF5 file module (id 3); the pre-3.2 "HDF5" module's records (v1, v2) are read as H5F. */
export default defineFixedCodec({
  id: 3,
  name: 'H5F',
  currentVersion: 3,
  intNames: H5F_INT_COUNTERS,
  floatNames: H5F_FLOAT_COUNTERS,
  layouts: H5F_VERSIONS,
});
