import { defineCheck } from '../define-check.js';

type Rec = 'reduceMetadata' | 'hdf5CollectiveMetadata' | 'hdf5MetadataCache';

/**
 * P17: ranks spending more than metadata_time_rank seconds in metadata operations.
 * `--drishti` counts POSIX *records* over the threshold, and a shared record's time is the sum over all ranks
 * (SPEC §7.8). The default mode counts ranks: each rank's own records plus an even share of the shared records' time.
 */
export default defineCheck({
  meta: {
    code: 'P17',
    slug: 'metadata-time',
    title: 'Metadata operations are quick',
    failureTitle: 'Ranks spend long in metadata operations',
    description:
      'Opens, stats, seeks and syncs go to the metadata servers, which every rank of every job shares. Ranks that spend ' +
      'tens of seconds there are usually opening too many files or syncing too often.',
    panel: 'METADATA',
    layer: 'POSIX',
    scope: 'rank',
    level: 'HIGH',
    problem: 'metadata-heavy',
    requires: ['posix.metaTime', 'job'],
    options: { seconds: { knob: 'metadata_time_rank', description: 'Metadata seconds per rank above which a rank is counted.' } },
    messages: { slow: '{ranks} rank(s) spend more than {seconds} seconds in metadata operations' },
    recommendations: {
      reduceMetadata: { text: 'Open fewer files (combine them), avoid repeated open/close/stat, and cache metadata results' },
      hdf5CollectiveMetadata: { text: 'The job uses HDF5: make metadata operations collective (H5Pset_coll_metadata_write, H5Pset_all_coll_metadata_ops)', snippet: 'hdf5-collective-metadata.c' },
      hdf5MetadataCache: { text: 'The job uses HDF5: enlarge or tune the metadata cache to defer metadata writes', snippet: 'hdf5-metadata-cache.c' },
    },
    compat: {
      drishti: 'P17',
      differences: [
        { id: 'count-ranks', description: "Drishti counts POSIX records over the threshold (a shared record's time is summed over all ranks, so one shared file can count as \"1 rank\"); the default mode counts ranks, sharing shared-record time evenly among them." },
        { id: 'hdf5-advice', description: "Drishti's HDF5 advice never shows ('HF5' typo); the default mode shows it when the job uses HDF5." },
      ],
    },
  },
  run(ctx) {
    const m = ctx.fact('posix.metaTime');
    const thr = ctx.options.seconds;
    let count = 0;
    if (ctx.mode === 'drishti') {
      for (let i = 0; i < m.metaTime.length; i++) if (m.metaTime[i] > thr) count++;
    } else {
      const nprocs = Math.max(1, ctx.fact('job').processes);
      let shared = 0;
      const perRank = new Map<number, number>();
      for (let i = 0; i < m.metaTime.length; i++) {
        const r = m.ranks[i];
        if (r === -1) shared += m.metaTime[i];
        else perRank.set(r, (perRank.get(r) ?? 0) + m.metaTime[i]);
      }
      const share = shared / nprocs;
      for (const v of perRank.values()) if (v + share > thr) count++;
      if (share > thr) count += Math.max(0, nprocs - perRank.size);
    }
    if (count === 0) return;
    const recs: Rec[] = ['reduceMetadata'];
    const h = ctx.tryFact('hdf5');
    if (ctx.mode === 'default' && h && (h.h5f || h.h5d || h.mpiioHdf5Name)) recs.push('hdf5CollectiveMetadata', 'hdf5MetadataCache');
    ctx.report({
      messageId: 'slow',
      data: { ranks: count, seconds: thr },
      evidence: [{ name: 'ranks', value: count, unit: 'ranks', source: 'POSIX_F_META_TIME' }],
      recommendations: recs,
    });
  },
});
