import { defineCheck } from '../define-check.js';
import type { DetailInput } from '../types.js';
import { median, subjectName } from '../families/diagnosis-common.js';

/**
 * D13: one rank spends far longer in I/O on a shared file than the others while the bytes are balanced. With DXT,
 * each rank's time on the file is split into time inside read/write calls (busy: O_SYNC writes, slow storage) and
 * untraced gaps inside its I/O phase. The slowest rank must exceed the median rank by `time_imbalance_ratio` times in
 * one of them AND by `time_imbalance_seconds` in absolute terms: short runs on busy nodes vary 2–5x between ranks
 * (MANIFEST caveat 2). A straggler does the same work slower: a rank issuing many more requests than the typical one
 * is doing other work (HDF5 or PnetCDF rank 0 writing metadata), not straggling: the requests must agree within 1.5×. Gaps are sync time only when the file
 * is synced (fsync and fdatasync are not traced; otherwise gaps are the application computing). Noise makes a few
 * calls slow; O_SYNC makes every call slow, so a rank whose *median* call is `time_imbalance_ratio` times the typical
 * one needs only `time_imbalance_consistent_ratio` times the typical call time.
 *
 * The extra time in one part may not pass the spread of the counters' slowest and fastest rank times (which hold all
 * of a rank's time on the file, syncs included) by more than `time_imbalance_seconds`: DXT alone cannot tell a
 * straggler from time moved between traced writes and untraced syncs.
 *
 * Without DXT Darshan keeps the slowest rank's time and the file's total: the slowest rank is compared with the mean
 * of the others. On short runs that ratio reaches 13 on balanced reads (the first reader pays for the page cache), so
 * it must exceed 10 × `time_imbalance_ratio`, or `time_imbalance_ratio` when the counters show a mechanism that makes
 * one rank slow: some, but not all, writes of the file are synced (one rank syncing after its writes).
 */
export default defineCheck({
  meta: {
    code: 'D13',
    slug: 'rank-time-imbalance',
    title: 'Ranks spend similar time in I/O',
    failureTitle: 'One rank spends far longer in I/O than the others',
    description:
      'At the next collective operation every rank waits for the slowest. A rank that syncs after each write, opens ' +
      'with O_SYNC or hits a slow server holds the whole job back although it moves no more data than the others.',
    panel: 'OPERATIONS',
    layer: 'POSIX',
    scope: 'file',
    level: 'HIGH',
    problem: 'time-imbalance',
    requires: ['posix.files', 'job'],
    modes: ['default'],
    traces: true,
    supersedes: ['P19'],
    options: {
      ratio: { knob: 'time_imbalance_ratio', description: 'Slowest rank vs median rank, in call time or in gap time.' },
      seconds: { knob: 'time_imbalance_seconds', description: 'Minimum extra seconds of the slowest rank.' },
      minRequests: { knob: 'time_imbalance_min_requests', description: 'Requests every compared rank must issue on the file (DXT).' },
      consistent: { knob: 'time_imbalance_consistent_ratio', description: 'Call time vs typical when every call of the rank is slow.' },
    },
    messages: {
      imbalance: 'Rank {rank} spends {extra:fixed2} s more in I/O than a typical rank on {files} shared file(s) ({share:pct} of the run time)',
      file: '"{file}": rank {rank} {what} {slow:fixed2} s vs {typical:fixed2} s for a typical rank',
    },
    recommendations: {
      sync: { text: 'Check what the slow rank does differently: per-write fsync, O_SYNC/O_DIRECT opens, or a different code path; sync once per phase on every rank instead', snippet: 'sync-per-phase.c' },
      storage: { text: 'If the ranks do the same thing, look for a slow storage target: spread the file over more targets (stripe count) or avoid the slow one', advises: 'striping', snippet: 'lustre-striping.sh' },
    },
    compat: { differences: [{ id: 'floor-and-mechanism', description: 'Drishti (P19) compares slowest and fastest rank time to the file total with no absolute floor, and fires on most short runs; this check needs a large ratio and an absolute floor, and separates call time from sync gaps with DXT.' }] },
  },
  run(ctx) {
    const p = ctx.fact('posix.files');
    const dxt = ctx.tryFact('dxt.posixRanks');
    const nprocs = Math.max(1, ctx.fact('job').processes);
    // The job record keeps whole seconds; DXT end times (seconds from the start) bound short runs better.
    let runSeconds = Math.max(0, ctx.fact('job').endSeconds - ctx.fact('job').startSeconds);
    if (dxt) for (let r = 0; r < dxt.ids.length; r++) runSeconds = Math.max(runSeconds, dxt.lastEndSeconds[r]);
    const { ratio, seconds, minRequests } = ctx.options;
    const details: DetailInput<'file'>[] = [];
    let worst = { extra: 0, rank: -1 };
    const perFile = new Map<bigint, number[]>();
    if (dxt) for (let r = 0; r < dxt.ids.length; r++) if (dxt.ops[r] >= minRequests) (perFile.get(dxt.ids[r]) ?? perFile.set(dxt.ids[r], []).get(dxt.ids[r])!).push(r);
    for (let i = 0; i < p.ids.length; i++) {
      if (!p.shared[i]) continue;
      // Bytes must be balanced: a rank moving more data is a data imbalance (D14), not a time straggler.
      const sb = p.slowestRankBytes[i], fb = p.fastestRankBytes[i];
      if (!(sb > 0) || (sb - fb) / sb > 0.1) continue;
      const rows = perFile.get(p.ids[i]);
      const subject = ctx.file(p.ids[i]);
      const synced = p.syncs[i] > 0;
      if (rows && rows.length >= 2) {
        for (const [kind, what] of [['busy', 'is inside read/write calls for'], ['gap', 'waits between its calls (sync) for']] as const) {
          if (kind === 'gap' && !synced) continue;
          const vals = rows.map((r) => (kind === 'busy' ? dxt!.busySeconds[r] : Math.max(0, dxt!.spanSeconds[r] - dxt!.busySeconds[r])));
          let k = 0;
          for (let j = 1; j < vals.length; j++) if (vals[j] > vals[k]) k = j;
          const others = rows.filter((_, j) => j !== k);
          const typical = median(vals.filter((_, j) => j !== k));
          const extra = vals[k] - typical;
          // The counters' slowest and fastest rank times hold all of a rank's time on the file, syncs included, so a
          // straggler's extra in one part cannot pass their spread (beyond the noise floor): when it does, the time
          // moved between the calls DXT traces and the syncs it does not (a server making one rank's writes wait and
          // the others' syncs), and no rank is slower in all.
          const spread = p.slowestRankTime[i] - p.fastestRankTime[i];
          if (Number.isFinite(spread) && extra > Math.max(0, spread) + seconds) continue;
          const typicalOps = median(others.map((r) => dxt!.ops[r]));
          if (dxt!.ops[rows[k]] > 1.5 * typicalOps || 1.5 * dxt!.ops[rows[k]] < typicalOps) continue;
          const everyCallSlow = kind === 'busy' && dxt!.medianCallSeconds[rows[k]] > ratio * median(others.map((r) => dxt!.medianCallSeconds[r]));
          if (extra >= seconds && vals[k] > (everyCallSlow ? ctx.options.consistent : ratio) * typical) {
            details.push({ messageId: 'file', data: { file: subjectName(subject), rank: dxt!.ranks[rows[k]], what, slow: vals[k], typical }, subject });
            if (extra > worst.extra) worst = { extra, rank: dxt!.ranks[rows[k]] };
            break;
          }
        }
      } else if (!dxt && nprocs > 1) {
        const slow = p.slowestRankTime[i];
        // (A damaged counter can be negative, such as a ppc64 log's POSIX_F_META_TIME of −37,375 s: it counts as 0, or it
        // would make every other rank look idle.)
        const typical = Math.max(0, Math.max(0, p.readTime[i]) + Math.max(0, p.writeTime[i]) + Math.max(0, p.metaTime[i]) - slow) / (nprocs - 1);
        // A mechanism for one slow rank: syncs on some but not all writes of the file.
        const partialSync = p.syncs[i] >= 2 && p.syncs[i] < 0.9 * p.writes[i];
        if (slow - typical >= seconds && slow > (partialSync ? 1 : 10) * ratio * typical) {
          details.push({ messageId: 'file', data: { file: subjectName(subject), rank: p.slowestRank[i], what: 'spends', slow, typical }, subject });
          if (slow - typical > worst.extra) worst = { extra: slow - typical, rank: p.slowestRank[i] };
        }
      }
    }
    if (!details.length) return;
    const share = runSeconds ? Math.min(1, worst.extra / runSeconds) : 0;
    ctx.report({
      // The seconds the slowest rank spends beyond the typical one: what the job waits for it.
      cost: { seconds: worst.extra, semantics: 'slowest' },
      savings: { kind: 'excess', seconds: worst.extra, what: "the slowest rank's time beyond the median rank's" },
      messageId: 'imbalance',
      data: { rank: worst.rank, extra: worst.extra, files: details.length, share },
      evidence: [
        { name: 'extraSeconds', value: worst.extra, unit: 'seconds', source: dxt ? 'DXT_POSIX segment times per rank' : 'POSIX_F_SLOWEST_RANK_TIME − mean time of the other ranks (POSIX_F_*_TIME)' },
        { name: 'runSeconds', value: runSeconds, unit: 'seconds', source: 'job start/end' },
      ],
      details,
      recommendations: ['sync', 'storage'],
    });
  },
});
