import { defineFixedCodec } from './fixed-codec.js';
import { H5D_FLOAT_COUNTERS, H5D_INT_COUNTERS, H5D_VERSIONS } from './counters/h5d.js';

/**
 * HDF5 dataset module (id 4). Version 2 adds the owning file's record id after the base record (v1 reads it as 0).
 * darshan-util swaps that id on big-endian logs only when the log's H5F module is version 2 or later.
 */
export default defineFixedCodec({
  id: 4,
  name: 'H5D',
  currentVersion: 2,
  intNames: H5D_INT_COUNTERS,
  floatNames: H5D_FLOAT_COUNTERS,
  layouts: H5D_VERSIONS,
  head: (v) => (v >= 2 ? { bytes: 8, fileRecId: true } : { bytes: 0, fileRecId: false }),
  fileRecIdName: 'H5D_FILE_REC_ID',
  unswappedFileRecId: (ctx) => !((ctx.moduleVersions[3] ?? 0) >= 2),
});
