import { defineCheck } from '../define-check.js';
import type { DetailInput } from '../types.js';
import { judgeTargets, targetSavings } from '../families/storage-targets.js';
import { subjectName } from '../families/diagnosis-common.js';

const MIB = 1048576;

/**
 * D21: a storage target far slower than its peers (docs/diagnosis.md, "Storage targets"). Lustre OSTs come from the
 * LUSTRE module's layouts; each target's bandwidth is the median of its files' (bytes / data seconds of the one time
 * model), so a file with more bytes is not slower for it and one slow file (a slow rank or node) does not make its
 * target slow. A target is slow when it runs `ratio` times below the median target and `spread` robust deviations
 * below it, on at least `minFiles` files with at least `minFiles` peers; a target whose files issue much smaller
 * requests or move much less is excused. Slowness spread evenly over the targets moves the median with it: nothing
 * stands out, and nothing fires (D13 and D20 name ranks and sinks).
 *
 * The cost is what the slowest rank would not have waited had the slow targets run like the median file on no slow
 * target (the job's own evidence: savings basis `job`); it must pass `minSeconds`. Without a LUSTRE module the placement is unknown: each file
 * of one rank is its own target, and a slow one may be a slow server or a slow node — at most WARN.
 */
export default defineCheck({
  meta: {
    code: 'D21',
    slug: 'slow-storage-target',
    title: 'Storage targets ran alike',
    failureTitle: 'A storage target ran far slower than its peers',
    description:
      'When one storage target (a Lustre OST) runs far slower than the others, every file on it is slow and the ranks ' +
      'writing them hold the whole job back. That is the file system, not the I/O pattern: changing the code does not ' +
      'help, avoiding the target or reporting it does.',
    panel: 'OPERATIONS',
    layer: 'POSIX',
    scope: 'file',
    level: 'HIGH',
    problem: 'slow-storage-target',
    requires: ['storage.targets', 'io.time'],
    modes: ['default'],
    options: {
      ratio: { knob: 'slow_target_ratio', description: 'Median target bandwidth over the slow target bandwidth.' },
      spread: { knob: 'slow_target_spread', description: 'Robust deviations (log bandwidth) below the median target.' },
      minFiles: { knob: 'slow_target_min_files', description: 'Files per compared target, and peers compared.' },
      minSeconds: { knob: 'slow_target_min_seconds', description: 'Seconds the slowest rank waited for the slow targets.' },
    },
    messages: {
      ost: '{targets} moved data at {rate:fixed2} MiB/s against {median:fixed2} MiB/s on the median of {compared} OSTs: the job waited {seconds:fixed2} s for it (the file system, not the I/O pattern)',
      file: '{count} file(s) moved data at {rate:fixed2} MiB/s against {median:fixed2} MiB/s for the median of {compared} files: the job waited {seconds:fixed2} s for them (the log has no placement: a slow server or a slow node)',
      target: 'OST {ost}: {files} file(s), {bytes:bytes}, {rate:fixed2} MiB/s (median file), {slowest:fixed2} s on the slowest rank; slowest file "{file}"',
      slowFile: '"{file}" (rank {rank}): {bytes:bytes} at {rate:fixed2} MiB/s, {slowest:fixed2} s',
    },
    recommendations: {
      report: { text: 'Report the slow target to the facility (it is the storage, not your code): compare with other jobs in `iolens summary --section targets` and the servers\' health' },
      avoid: { text: 'Until it is fixed, keep new files off the slow OST: place them on a pool without it, or give the file a layout that starts on a healthy OST (`lfs setstripe -i`)', advises: 'striping', snippet: 'lustre-striping.sh' },
      rerun: { text: 'Rerun before changing the code: a slow target is the file system\'s state during this run' },
      placement: { text: 'Find which server holds the slow files (GlusterFS: `getfattr -n trusted.glusterfs.pathinfo <file>`; NFS: the export) and which node wrote them: without placement IOLens cannot tell a slow server from a slow node' },
    },
    compat: {},
  },
  run(ctx) {
    const st = ctx.fact('storage.targets');
    const model = ctx.fact('io.time');
    const { ratio, spread, minFiles } = ctx.options;
    const judged = judgeTargets(st, { ratio, spread, minFiles });
    const slow = judged.slow.filter((s) => s.excused === null);
    if (!slow.length) return;
    const saving = targetSavings(st, model, new Set(slow.map((s) => s.target)));
    if (!(saving.seconds > ctx.options.minSeconds)) return;
    const t = st.targets, f = st.files;
    // The slowest file on each slow target names it in the details.
    const slowestFile = new Int32Array(t.ids.length).fill(-1);
    for (let i = 0; i < f.ids.length; i++)
      for (let j = f.targetStart[i]; j < f.targetStart[i] + f.targetCount[i]; j++) {
        const k = f.targetOf[j];
        if (slowestFile[k] < 0 || f.slowest[i] > f.slowest[slowestFile[k]]) slowestFile[k] = i;
      }
    const rate = slow[0].bandwidth / MIB;
    const median = judged.median / MIB;
    const savings = {
      kind: 'known' as const,
      seconds: saving.seconds,
      low: saving.low,
      high: saving.high,
      basis: 'job' as const,
      reference: `the job's median file (per OST) on no slow target, ${(saving.reference / MIB).toFixed(2)} MiB/s`,
    };
    const evidence = [
      { name: 'slowTargetBandwidth', value: slow[0].bandwidth, unit: 'bytes/s' as const, source: 'storage.targets: median file bytes / data seconds (POSIX bytes, io.time)' },
      { name: 'medianTargetBandwidth', value: judged.median, unit: 'bytes/s' as const, source: 'storage.targets: median of the compared targets' },
      { name: 'waitedSeconds', value: saving.seconds, unit: 'seconds' as const, source: 'io.time per-rank seconds with the slow targets at the reference bandwidth' },
      { name: 'comparedTargets', value: judged.compared, unit: 'count' as const, source: st.kind === 'ost' ? 'LUSTRE OST ids' : 'POSIX files of one rank' },
    ];
    if (st.kind === 'ost') {
      const details: DetailInput<'target'>[] = slow.map((s) => {
        const i = slowestFile[s.target];
        const subject = ctx.file(f.ids[i], f.rank[i] >= 0 ? f.rank[i] : undefined);
        return { messageId: 'target', data: { ost: t.ids[s.target], files: t.files[s.target], bytes: t.bytes[s.target], rate: s.bandwidth / MIB, slowest: t.slowestSeconds[s.target], file: subjectName(subject) }, subject };
      });
      const names = slow.map((s) => t.ids[s.target]);
      ctx.report({
        cost: { seconds: saving.seconds, semantics: 'slowest' },
        savings,
        messageId: 'ost',
        data: { targets: `${names.length > 1 ? 'OSTs' : 'OST'} ${names.join(', ')}`, rate, median, compared: judged.compared, seconds: saving.seconds },
        evidence,
        details,
        recommendations: ['report', 'avoid', 'rerun'],
      });
      return;
    }
    const details: DetailInput<'slowFile'>[] = slow.slice(0, ctx.detailLimit).map((s) => {
      const i = t.ids[s.target];
      const subject = ctx.file(f.ids[i], f.rank[i]);
      return { messageId: 'slowFile', data: { file: subjectName(subject), rank: f.rank[i], bytes: f.bytes[i], rate: s.bandwidth / MIB, slowest: f.slowest[i] }, subject };
    });
    ctx.report({
      level: 'WARN',
      cost: { seconds: saving.seconds, semantics: 'slowest' },
      savings,
      messageId: 'file',
      data: { count: slow.length, rate, median, compared: judged.compared, seconds: saving.seconds },
      evidence,
      details,
      detailCount: slow.length,
      recommendations: ['placement', 'rerun'],
    });
  },
});
