import { defineFixedCodec } from './fixed-codec.js';
import { BG_Q_FLOAT_COUNTERS, BG_Q_INT_COUNTERS, BG_Q_VERSIONS } from './counters/bg-q.js';

/** Blue Gene/Q job module (id 7). Version 1 has 8 bytes of padding after the base record. */
export default defineFixedCodec({
  id: 7,
  name: 'BG/Q',
  currentVersion: 2,
  intNames: BG_Q_INT_COUNTERS,
  floatNames: BG_Q_FLOAT_COUNTERS,
  layouts: BG_Q_VERSIONS,
  head: (v) => (v === 1 ? { bytes: 8, fileRecId: false } : { bytes: 0, fileRecId: false }),
  missingName: 'darshan-bgq-record',
});
