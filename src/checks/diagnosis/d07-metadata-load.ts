import { defineCheck } from '../define-check.js';

/**
 * D07: metadata calls dominate: opens + stats at least as many as data requests, or metadata time a large share of
 * the I/O time, with a floor on the number of calls (not Drishti's 30 s per rank, which hides ordinary-size runs).
 * Opens of STDIO files count too. stat() may be invisible (MANIFEST caveat 4), so opens alone can carry the finding.
 */
export default defineCheck({
  meta: {
    code: 'D07',
    slug: 'metadata-load',
    title: 'Metadata calls are few',
    failureTitle: 'Metadata calls dominate the I/O',
    description:
      'open, stat and close go to the metadata servers, which every job on the machine shares and which scale far less ' +
      'than the data servers. A job that opens and stats as often as it reads and writes is limited by them.',
    panel: 'METADATA',
    layer: 'POSIX',
    scope: 'job',
    level: 'HIGH',
    problem: 'metadata-heavy',
    requires: ['posix.files'],
    modes: ['default'],
    supersedes: ['P17'],
    options: {
      timeShare: { knob: 'metadata_time_share', description: 'Metadata share of I/O time.' },
      perData: { knob: 'metadata_per_data_op', description: 'opens + stats per read/write request.' },
      min: { knob: 'metadata_min', description: 'Minimum opens + stats.' },
    },
    messages: { load: '{meta} opens and stats for {data} reads and writes ({perData:fixed2} per request, {perFile:fixed2} per file over {files} files); metadata takes {timeShare:pct} of the I/O time' },
    recommendations: {
      fewerFiles: { text: 'Keep files open across phases, avoid repeated stat/open/close of the same file, and cache what stat returns' },
      combine: { text: 'Pack many small outputs into one shared file (or a container such as HDF5) instead of one file each' },
      hdf5Collective: { text: 'With HDF5, make metadata operations collective so one rank talks to the metadata servers', snippet: 'hdf5-collective-metadata.c' },
    },
    compat: { differences: [{ id: 'share-not-seconds', description: "Drishti (P17) needs 30 s of metadata time on one rank; this check uses the metadata share of the job's calls and time, with a floor on the number of calls." }] },
  },
  run(ctx) {
    const p = ctx.fact('posix.files');
    let meta = 0, data = 0, mt = 0, tt = 0;
    let files = p.ids.length;
    for (let i = 0; i < p.ids.length; i++) {
      meta += Math.max(0, p.opens[i]) + Math.max(0, p.stats[i]);
      data += Math.max(0, p.reads[i]) + Math.max(0, p.writes[i]);
      mt += Math.max(0, p.metaTime[i]);
      tt += Math.max(0, p.metaTime[i]) + Math.max(0, p.readTime[i]) + Math.max(0, p.writeTime[i]);
    }
    const s = ctx.tryFact('stdio.files');
    if (s) files += s.ids.length;
    if (s) for (let i = 0; i < s.ids.length; i++) {
      meta += Math.max(0, s.opens[i]);
      data += Math.max(0, s.reads[i]) + Math.max(0, s.writes[i]);
      mt += Math.max(0, s.metaTime[i]);
      tt += Math.max(0, s.metaTime[i]) + Math.max(0, s.readTime[i]) + Math.max(0, s.writeTime[i]);
    }
    const perData = data ? meta / data : meta;
    const timeShare = tt ? mt / tt : 0;
    const o = ctx.options;
    if (!(meta >= o.min && (perData > o.perData || timeShare > o.timeShare))) return;
    const h = ctx.tryFact('hdf5');
    ctx.report({
      // The file system's metadata calls: POSIX and STDIO opens, stats, seeks and closes.
      cost: { seconds: mt },
      // Done well each file is opened (and stat'ed) once: the job's own mean metadata call, once per file.
      savings: { kind: 'calls', seconds: mt, calls: meta, needed: Math.min(meta, files), what: 'one open per file' },
      messageId: 'load',
      data: { meta, data, perData, perFile: files ? meta / files : 0, files, timeShare },
      evidence: [
        { name: 'metadataCalls', value: meta, unit: 'count', source: 'POSIX_OPENS + POSIX_STATS + STDIO_OPENS' },
        { name: 'dataRequests', value: data, unit: 'count', source: 'POSIX_READS + POSIX_WRITES + STDIO_READS + STDIO_WRITES' },
        { name: 'files', value: files, unit: 'files', source: 'POSIX and STDIO records (standard streams left out)' },
        { name: 'metadataSeconds', value: mt, unit: 'seconds', source: 'POSIX_F_META_TIME + STDIO_F_META_TIME' },
        { name: 'timeShare', value: timeShare, unit: 'ratio', source: 'metadata / (read + write + metadata) time' },
      ],
      recommendations: h && (h.h5f || h.h5d) ? ['fewerFiles', 'combine', 'hdf5Collective'] : ['fewerFiles', 'combine'],
    });
  },
});
