import { defineCheck } from '../define-check.js';
import type { DetailInput } from '../types.js';
import { jobBytes, modelOf, rowsHolding, rowsIn, subjectName } from '../families/diagnosis-common.js';
import { fileRow, fileSeconds } from '../../facts/time-model.js';

/**
 * D14: bytes per rank on shared files are very uneven, judged at the layer the application called: MPI-IO files by
 * MPI-IO bytes, because in a healthy collective run only the aggregators issue POSIX I/O (MANIFEST caveat 5); other
 * files by POSIX. Each rank's bytes on the layer's shared files come from the HEATMAP module where it allows
 * (`io.sharedRankBytes`: exact); otherwise Darshan keeps only the bytes of the slowest and the fastest rank by time,
 * a proxy for the most and least loaded ones that collective calls defeat (every rank waits as long as the busiest).
 * Spread = (busiest − least busy) / busiest: HIGH above `rank_spread`, WARN above `rank_spread_warn`.
 */
export default defineCheck({
  meta: {
    code: 'D14',
    slug: 'shared-file-rank-imbalance',
    title: 'Ranks move similar amounts of data on shared files',
    failureTitle: 'Uneven bytes per rank on shared files',
    description: 'When some ranks read or write much more of a shared file than others, the others wait for them at the next synchronisation, and the busy ranks\' clients limit the bandwidth.',
    panel: 'OPERATIONS',
    layer: 'job',
    scope: 'file',
    level: 'HIGH',
    problem: 'rank-imbalance',
    requires: ['posix.files'],
    modes: ['default'],
    supersedes: ['P18'],
    options: {
      spread: { knob: 'rank_spread', description: '(slowest − fastest rank bytes) / slowest rank bytes above which the finding is HIGH.' },
      warn: { knob: 'rank_spread_warn', description: 'The same spread above which the finding is WARN.' },
      minBytes: { knob: 'io_bytes_min', description: 'Minimum bytes moved on the file.' },
    },
    messages: {
      imbalance: 'Bytes per rank differ by up to {spread:pct} on {files} shared file(s) holding {share:pct} of the data',
      file: '"{file}" ({layer}): busiest rank {slow:bytes}, least busy {fast:bytes}',
      ranks: '{files} shared file(s) ({layer}, {bytes:bytes}): rank {rank} moves {slow:bytes}, rank {least} {fast:bytes} (HEATMAP bytes per rank)',
    },
    recommendations: {
      balance: { text: 'Split the data evenly over the ranks (or let a collective call do it)', snippet: 'mpi-io-collective-write.c' },
    },
    compat: { differences: [{ id: 'aggregators', description: 'Drishti (P18) judges POSIX bytes, so collective-buffering aggregators look like imbalance; this check judges MPI-IO files by their MPI-IO bytes.' }] },
  },
  run(ctx) {
    const p = ctx.fact('posix.files');
    const mp = ctx.tryFact('mpiio.files');
    const toMpiio = mp ? rowsIn(p.ids, mp.ids) : null;
    const exact = ctx.tryFact('io.sharedRankBytes');
    const covered = rowsHolding(p.ids, exact ? exact.ids : []);
    const details: DetailInput<'file' | 'ranks'>[] = [];
    const model = modelOf(ctx);
    // What the job waits on an imbalanced file: its slowest rank's time beyond the mean rank's (the time model).
    const waitOn = (id: bigint) => {
      if (!model) return 0;
      const f = fileRow(model, id);
      return f < 0 ? 0 : Math.max(0, model.files.slowest[f] - model.files.total[f] / Math.max(1, model.files.ranks[f]));
    };
    // Where no rank waits measurably (collective calls make every rank wait as long as the busiest), the files' data
    // time in proportion to the spread bounds what the imbalance costs.
    const spreadTime = (id: bigint, spread: number) => (model ? fileSeconds(model, id, ['read', 'write']) * spread : 0);
    let worst = 0, bytes = 0, files = 0, seconds = 0, bound = 0;
    const consider = (id: bigint, layer: string, slow: number, fast: number, total: number) => {
      if (!(slow > 0) || total < ctx.options.minBytes) return;
      const spread = (slow - Math.max(0, fast)) / slow;
      if (!(spread > ctx.options.warn)) return;
      worst = Math.max(worst, spread);
      bytes += total;
      files++;
      seconds += waitOn(id);
      bound += spreadTime(id, spread);
      const subject = ctx.file(id);
      details.push({ messageId: 'file', data: { file: subjectName(subject), layer, slow, fast: Math.max(0, fast) }, subject });
    };
    if (exact && exact.total >= ctx.options.minBytes) {
      let hi = 0, lo = 0;
      for (let r = 1; r < exact.nprocs; r++) {
        if (exact.bytes[r] > exact.bytes[hi]) hi = r;
        if (exact.bytes[r] < exact.bytes[lo]) lo = r;
      }
      const spread = exact.bytes[hi] > 0 ? (exact.bytes[hi] - exact.bytes[lo]) / exact.bytes[hi] : 0;
      if (spread > ctx.options.warn) {
        worst = spread;
        bytes += exact.total;
        files += exact.ids.length;
        for (const id of exact.ids) {
          seconds += waitOn(id);
          bound += spreadTime(id, spread);
        }
        details.push({ messageId: 'ranks', data: { files: exact.ids.length, layer: exact.layer, bytes: exact.total, rank: hi, slow: exact.bytes[hi], least: lo, fast: exact.bytes[lo] }, subject: { kind: 'job' } });
      }
    }
    for (let i = 0; i < p.ids.length; i++) {
      if (covered[i]) continue;
      const m = toMpiio ? toMpiio[i] : -1;
      if (m >= 0) {
        if (mp!.shared[m]) consider(p.ids[i], 'MPI-IO', mp!.slowestRankBytes[m], mp!.fastestRankBytes[m], mp!.bytesRead[m] + mp!.bytesWritten[m]);
      } else if (p.shared[i]) consider(p.ids[i], 'POSIX', p.slowestRankBytes[i], p.fastestRankBytes[i], p.bytesRead[i] + p.bytesWritten[i]);
    }
    if (!details.length) return;
    const all = jobBytes(ctx);
    const share = all ? Math.min(1, bytes / all) : 0;
    ctx.report({
      level: worst > ctx.options.spread ? 'HIGH' : 'WARN',
      cost: seconds > 0 ? { seconds, semantics: 'slowest' } : { seconds: bound, basis: 'bound' },
      savings: seconds > 0 ? { kind: 'excess', seconds, what: "the slowest rank's time on the files beyond the median rank's" } : { kind: 'bound', seconds: bound, what: "the files' time in proportion to the spread: an upper bound" },
      messageId: 'imbalance',
      data: { spread: worst, files, share },
      evidence: [
        { name: 'spread', value: worst, unit: 'ratio', source: exact ? 'HEATMAP bytes per rank less per-rank records (io.sharedRankBytes); else *_SLOWEST_RANK_BYTES, *_FASTEST_RANK_BYTES' : '*_SLOWEST_RANK_BYTES, *_FASTEST_RANK_BYTES (MPI-IO for MPI-IO files)' },
        { name: 'bytes', value: bytes, unit: 'bytes', source: 'bytes of the imbalanced files' },
      ],
      details,
      recommendations: ['balance'],
    });
  },
});
