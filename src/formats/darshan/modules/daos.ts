import { defineFixedCodec } from './fixed-codec.js';
import { DAOS_FLOAT_COUNTERS, DAOS_INT_COUNTERS, DAOS_VERSIONS } from './counters/daos.js';
import { reverseInPlace, uuidText } from './uuid.js';

/**
 * DAOS object module (id 17). After the counters: pool and container uuids, then the object id (hi, lo). The file
 * column shows the object id instead of a name; the mount column the pool and container.
 */
export default defineFixedCodec({
  id: 17,
  name: 'DAOS',
  currentVersion: 1,
  intNames: DAOS_INT_COUNTERS,
  floatNames: DAOS_FLOAT_COUNTERS,
  layouts: DAOS_VERSIONS,
  tailBytes: 48,
  swapTail: (t) => {
    reverseInPlace(t, 0, 16);
    reverseInPlace(t, 16, 16);
    reverseInPlace(t, 32, 8);
    reverseInPlace(t, 40, 8);
  },
  columns: (t, r) => {
    const tail = t.tail!.subarray(r * 48, r * 48 + 48);
    const dv = new DataView(tail.buffer, tail.byteOffset, 48);
    return {
      file: `${dv.getBigUint64(32, true)}.${dv.getBigUint64(40, true)}`,
      mount: `${uuidText(tail.subarray(0, 16))}:${uuidText(tail.subarray(16, 32))}`,
      fs: 'N/A',
    };
  },
});
