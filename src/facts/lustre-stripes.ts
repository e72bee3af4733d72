import type { LustreTable } from '../formats/darshan/index.js';
import { LUSTRE_COMPONENT_COUNTERS } from '../formats/darshan/modules/lustre.js';
import { defineFact } from './define-fact.js';

/** `lustre.stripes`: each Lustre file's stripe size and count (its first layout component), ids in log order. */
export default defineFact({
  name: 'lustre.stripes',
  description: "Stripe size and stripe count of each file with a LUSTRE record (the first layout component's).",
  compute(src) {
    let t: LustreTable | null = null;
    try {
      t = src.table<LustreTable>('LUSTRE');
    } catch {
      return null;
    }
    if (!t || !t.length) return null;
    const sizeCol = t.components.col(LUSTRE_COMPONENT_COUNTERS.indexOf('STRIPE_SIZE'));
    const countCol = t.components.col(LUSTRE_COMPONENT_COUNTERS.indexOf('STRIPE_COUNT'));
    const stripeSize = new Float64Array(t.length), stripeCount = new Float64Array(t.length), hasLayout = new Uint8Array(t.length);
    for (let r = 0; r < t.length; r++) {
      const c = t.componentStart[r];
      const has = t.numComponents.col(0)[r] > 0 && c < sizeCol.length;
      hasLayout[r] = has ? 1 : 0;
      stripeSize[r] = has ? sizeCol[c] : 0;
      stripeCount[r] = has ? countCol[c] : 0;
    }
    return { ids: t.ids, stripeSize, stripeCount, hasLayout };
  },
});
