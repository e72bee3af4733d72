import { defineTraceCheck, reportFlagged } from './define.js';

/** T01: metadata calls (open, stat, close, seek…) take most of a flagged record's I/O time. */
export default defineTraceCheck({
  meta: {
    code: 'T01',
    slug: 'excessive-metadata',
    title: 'Metadata calls take a small part of the I/O time',
    failureTitle: 'Metadata calls take most of the I/O time',
    description:
      'open, stat, close and seek go to the metadata servers, which every job on the machine shares and which scale far ' +
      'less than the data servers. Where they take most of the time, the data calls are not what limits the I/O.',
    panel: 'METADATA',
    problem: 'metadata-heavy',
    options: {
      share: { knob: 'trace_metadata_time_share', description: "Metadata share of a record's I/O time above which it is metadata-heavy." },
      minOps: { knob: 'trace_min_ops', description: 'Metadata calls a record needs at least.' },
    },
    messages: {
      finding:
        'Metadata calls take more than {limit:pct} of the I/O time of {records} flagged record(s); the records of the {view} view among them hold {share:pct} of the time in traced calls and cost {seconds:seconds}, {metaShare:pct} of their time in {metaOps} metadata calls',
      record: '{record}: metadata calls take {timeShare:pct} of its I/O time ({ops} calls, {opsShare:pct} of its operations)',
    },
    recommendations: {
      keepOpen: { text: 'Keep files open across phases instead of opening and closing them for every access, and do not stat or seek the same file again and again' },
      fewerFiles: { text: 'Pack many small files into fewer larger ones (or a container such as HDF5) so that fewer opens and stats reach the metadata servers' },
    },
  },
  run(ctx) {
    const o = ctx.options;
    reportFlagged(ctx, {
      where: (m) => m.metadata_ops >= o.minOps && m.metadata_time_share > o.share,
      finding: 'finding',
      detail: 'record',
      detailData: (m) => ({ timeShare: m.metadata_time_share, ops: m.metadata_ops, opsShare: m.metadata_ops_share }),
      summary: (s) => ({ limit: o.share, metaOps: s.metadata_ops, metaShare: s.time > 0 ? s.metadata_time / s.time : 0 }),
      cost: (s) => ({ seconds: s.metadata_time }),
      // Done well each file is opened and closed once: records that are files (or a process's file) need two calls each,
      // at the job's own mean metadata call; other records (directories, processes, time windows) cannot say how many
      // files they hold: a bound.
      savings: (s, records, cost) =>
        records.every((r) => 'file' in r.key)
          ? { kind: 'calls', seconds: cost.seconds, calls: s.metadata_ops, needed: 2 * records.length, what: 'one open and one close per file' }
          : { kind: 'bound', seconds: cost.seconds, what: "the records' metadata calls: how many are needed is not known" },
      evidence: (s) => [{ name: 'metadataSeconds', value: s.metadata_time, unit: 'seconds', source: 'metadata_time summed over the records of the costing view' }],
      recommendations: ['keepOpen', 'fewerFiles'],
    });
  },
});
