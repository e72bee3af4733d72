import { defineFixedCodec } from './fixed-codec.js';
import { DFS_FLOAT_COUNTERS, DFS_INT_COUNTERS, DFS_VERSIONS } from './counters/dfs.js';
import { isZero, reverseInPlace, uuidText } from './uuid.js';

/** DAOS file system module (id 16). Pool and container uuids follow the counters and fill the mount column. */
export default defineFixedCodec({
  id: 16,
  name: 'DFS',
  currentVersion: 1,
  intNames: DFS_INT_COUNTERS,
  floatNames: DFS_FLOAT_COUNTERS,
  layouts: DFS_VERSIONS,
  tailBytes: 32,
  swapTail: (t) => {
    reverseInPlace(t, 0, 16);
    reverseInPlace(t, 16, 16);
  },
  columns: (t, r, names) => {
    const tail = t.tail!.subarray(r * 32, r * 32 + 32);
    const pool = tail.subarray(0, 16);
    const cont = tail.subarray(16, 32);
    const name = names.name(t.ids[r]);
    return {
      file: name ?? '(null)',
      mount: isZero(pool) || isZero(cont) ? 'UNKNOWN' : `${uuidText(pool)}:${uuidText(cont)}`,
      fs: 'N/A',
    };
  },
});
