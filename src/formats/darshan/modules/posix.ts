import { defineFixedCodec } from './fixed-codec.js';
import { POSIX_FLOAT_COUNTERS, POSIX_INT_COUNTERS, POSIX_VERSIONS } from './counters/posix.js';

/**
 * POSIX module (id 1). Versions 1–3 are up-converted to 4 by name. Two darshan-util behaviours are reproduced:
 * v1 records with POSIX_FOPENS > 0 (stdio streams the old module mixed in) are dropped, testing the raw bytes as
 * little-endian; and on big-endian logs older than v4 the meta/max-read/max-write time floats are not byte-swapped.
 */
export default defineFixedCodec({
  id: 1,
  name: 'POSIX',
  currentVersion: 4,
  intNames: POSIX_INT_COUNTERS,
  floatNames: POSIX_FLOAT_COUNTERS,
  layouts: POSIX_VERSIONS,
  unsignedInts: ['POSIX_RENAMED_FROM'],
  keepRecord: { versions: [1], test: (p, base) => p.i64LE(base + 16 + 8 * 6) <= 0n },
  unswappedFloats: (ctx) => (ctx.version < 4 ? ['POSIX_F_META_TIME', 'POSIX_F_MAX_READ_TIME', 'POSIX_F_MAX_WRITE_TIME'] : []),
});
