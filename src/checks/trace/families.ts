import type { Metrics } from '../../trace/views.js';
import type { CheckContext } from '../types.js';
import { reportFlagged } from './define.js';

type SmallMessages = 'finding' | 'record';
type SmallOptions = 'share' | 'minOps' | 'smallBytes';

/** T04/T05: most reads (writes) of a flagged record are smaller than `small_bytes`. */
export function reportSmallRequests<R extends string>(
  ctx: CheckContext<SmallOptions, SmallMessages, R>,
  kind: 'read' | 'write',
  recommendations: readonly R[],
): void {
  const o = ctx.options;
  const col = (m: Metrics) =>
    kind === 'read'
      ? { ops: m.read_ops, small: m.small_read_ops, share: m.small_read_share, avg: m.read_size_avg }
      : { ops: m.write_ops, small: m.small_write_ops, share: m.small_write_share, avg: m.write_size_avg };
  reportFlagged(ctx, {
    where: (m) => col(m).ops >= o.minOps && col(m).share > o.share,
    finding: 'finding',
    detail: 'record',
    detailData: (m) => ({ smallShare: col(m).share, ops: col(m).ops, avg: col(m).avg, smallBytes: o.smallBytes }),
    // The small requests' time: each record's time of that direction in proportion to its small requests.
    cost: (_s, records) => ({
      seconds: records.reduce((a, r) => {
        const c = col(r.metrics);
        return a + (c.ops > 0 ? ((kind === 'read' ? r.metrics.read_time : r.metrics.write_time) * c.small) / c.ops : 0);
      }, 0),
    }),
    // Done well: the small requests' bytes in large requests, at the job's (or the reference) bandwidth.
    savings: (_s, records, cost) => {
      const bytes = records.reduce((a, r) => {
        const c = col(r.metrics);
        return a + (c.ops > 0 ? ((kind === 'read' ? r.metrics.read_bytes : r.metrics.write_bytes) * c.small) / c.ops : 0);
      }, 0);
      return { kind: 'data', seconds: cost.seconds, readBytes: kind === 'read' ? bytes : 0, writeBytes: kind === 'write' ? bytes : 0 };
    },
    summary: (s) => ({
      limit: o.share,
      smallBytes: o.smallBytes,
      small: kind === 'read' ? s.small_read_ops : s.small_write_ops,
      ops: kind === 'read' ? s.read_ops : s.write_ops,
    }),
    evidence: (s) => [
      { name: kind === 'read' ? 'smallReads' : 'smallWrites', value: kind === 'read' ? s.small_read_ops : s.small_write_ops, unit: 'count', source: `small_${kind}_ops summed over the records of the costing view` },
    ],
    recommendations,
  });
}
