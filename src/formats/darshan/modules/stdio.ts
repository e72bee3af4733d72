import { defineFixedCodec } from './fixed-codec.js';
import { STDIO_FLOAT_COUNTERS, STDIO_INT_COUNTERS, STDIO_VERSIONS } from './counters/stdio.js';

/** STDIO module (id 9); version 1 lacks STDIO_FDOPENS (read as -1). */
export default defineFixedCodec({
  id: 9,
  name: 'STDIO',
  currentVersion: 2,
  intNames: STDIO_INT_COUNTERS,
  floatNames: STDIO_FLOAT_COUNTERS,
  layouts: STDIO_VERSIONS,
});
