import { defineCheck } from '../define-check.js';
import type { DetailInput } from '../types.js';
import { DATA_OPS, modelOf, rowsHolding, rowsIn, secondsOf, subjectName } from '../families/diagnosis-common.js';

/**
 * D02: strided access. Each rank jumps forward by a regular stride: its blocks interleave with the other ranks' on
 * a shared file. Darshan shows it as sequential but not consecutive requests whose common strides
 * (POSIX_STRIDE1..4) are non-zero; DXT, when present, shows the forward jumps per rank. A file counts when more than
 * `strided_share` of its requests are strided; the job needs `strided_min` strided requests on such files together.
 *
 * Independent MPI-IO through a noncontiguous file view hides the stride inside one call per rank. With data sieving,
 * ROMIO then reads (and for writes, writes back) each rank's whole extent, holes included: POSIX moves more bytes
 * than MPI-IO asked for. An independently accessed MPI-IO file whose POSIX bytes exceed its MPI-IO bytes by more than
 * `rmw_read_share` was therefore accessed in pieces with holes between them (the other ranks' pieces): strided.
 */
export default defineCheck({
  meta: {
    code: 'D02',
    slug: 'strided-access',
    title: 'Ranks access contiguous regions',
    failureTitle: 'Strided access: ranks interleave small pieces of the file',
    description:
      'When each rank reads or writes every N-th block of a file, its requests are small and scattered, neighbouring ' +
      'ranks contend for the same file-system blocks and stripes (lock ping-pong on Lustre/GPFS), and read-ahead is useless.',
    panel: 'OPERATIONS',
    layer: 'POSIX',
    scope: 'file',
    level: 'HIGH',
    problem: 'strided-access',
    requires: ['posix.files'],
    modes: ['default'],
    options: {
      share: { knob: 'strided_share', description: "Share of a file's requests with a regular non-zero stride." },
      min: { knob: 'strided_min', description: 'Minimum number of strided requests on a file.' },
      large: { knob: 'large_piece_bytes', description: 'Mean request size of the strided files from which the finding is WARN rather than HIGH.' },
      sieve: { knob: 'rmw_read_share', description: 'POSIX bytes beyond the MPI-IO bytes of an independently accessed file (data sieving over holes), as a share of the MPI-IO bytes, above which the file view was strided.' },
    },
    messages: {
      strided: '{count} of {total} requests ({ratio:pct}) on {files} file(s) jump forward by a regular stride',
      file: '{count} strided requests ({ratio:pct}) on "{file}"{dxt}',
      sieved: '"{file}": {calls} independent MPI-IO requests of {app:bytes} moved {posix:bytes} at POSIX (data sieving over the holes between the pieces of a strided view)',
    },
    recommendations: {
      view: { text: 'Describe the interleaved layout with an MPI file view (MPI_Type_vector / subarray) and write it with one collective call per rank', snippet: 'mpi-io-strided-view.c' },
      contiguous: { text: 'Or give each rank one contiguous region of the file (or its own file) and reorder data in memory' },
    },
    compat: { differences: [{ id: 'new', description: 'Drishti has no rule for strided access.' }] },
  },
  run(ctx) {
    const p = ctx.fact('posix.files');
    const dxt = ctx.tryFact('dxt.posixRanks');
    const dIdx = new Map<bigint, { ops: number; regular: number }>();
    if (dxt) for (let r = 0; r < dxt.ids.length; r++) {
      const e = dIdx.get(dxt.ids[r]) ?? { ops: 0, regular: 0 };
      e.ops += dxt.ops[r];
      e.regular += dxt.regularGaps[r];
      dIdx.set(dxt.ids[r], e);
    }
    // Files written or read mostly through collective MPI-IO are left out: there the POSIX strides are the
    // aggregators' file domains (two-phase I/O), the remedy itself, not the application's pattern.
    const mp = ctx.tryFact('mpiio.files');
    const collective = new Set<bigint>();
    if (mp) for (let i = 0; i < mp.ids.length; i++) if (mp.collReads[i] + mp.collWrites[i] >= mp.indepReads[i] + mp.indepWrites[i] && mp.collReads[i] + mp.collWrites[i] > 0) collective.add(mp.ids[i]);
    const details: DetailInput<'file' | 'sieved'>[] = [];
    const model = modelOf(ctx);
    let count = 0, total = 0, bytes = 0, sieved = 0, seconds = 0;
    const collectiveRow = rowsHolding(p.ids, collective);
    for (let i = 0; i < p.ids.length; i++) {
      if (collectiveRow[i]) continue;
      const ops = p.reads[i] + p.writes[i];
      const s = p.stridedOps[i];
      if (!(ops > 0 && s > 0 && s / ops > ctx.options.share)) continue;
      count += s;
      total += ops;
      bytes += Math.max(0, p.bytesRead[i]) + Math.max(0, p.bytesWritten[i]);
      // The strided requests' time: the file's data time in proportion to them.
      seconds += (secondsOf(model, p.ids[i], DATA_OPS.both) * s) / ops;
      const subject = ctx.file(p.ids[i]);
      const d = dIdx.get(p.ids[i]);
      details.push({ messageId: 'file', data: { count: s, ratio: s / ops, file: subjectName(subject), dxt: d && d.ops ? ` (DXT: ${d.regular} of ${d.ops} requests repeat the previous forward jump)` : '' }, subject });
    }
    if (details.length && count < ctx.options.min) {
      details.length = 0;
      count = total = bytes = seconds = 0;
    }
    const toPosix = mp ? rowsIn(mp.ids, p.ids) : null;
    if (mp) for (let m = 0; m < mp.ids.length; m++) {
      const indep = mp.indepReads[m] + mp.indepWrites[m] + mp.nbReads[m] + mp.nbWrites[m];
      const app = mp.bytesRead[m] + mp.bytesWritten[m];
      const i = toPosix![m];
      if (i < 0 || collective.has(mp.ids[m]) || !(indep > 0 && app > 0) || details.some((d) => d.subject.kind === 'file' && d.subject.id === mp.ids[m].toString())) continue;
      const posix = Math.max(0, p.bytesRead[i]) + Math.max(0, p.bytesWritten[i]);
      if (!(posix > (1 + ctx.options.sieve) * app)) continue;
      sieved += indep;
      seconds += secondsOf(model, mp.ids[m], DATA_OPS.both);
      count += indep;
      total += indep;
      bytes += app;
      const subject = ctx.file(mp.ids[m]);
      details.push({ messageId: 'sieved', data: { file: subjectName(subject), calls: indep, app, posix }, subject });
    }
    if (!details.length) return;
    ctx.report({
      // Small interleaved pieces share blocks and stripes between ranks; large pieces fill them and cost little.
      level: bytes / total < ctx.options.large ? 'HIGH' : 'WARN',
      cost: { seconds },
      messageId: 'strided',
      data: { count, total, ratio: count / total, files: details.length },
      evidence: [
        { name: 'stridedRequests', value: count, unit: 'count', source: 'POSIX_STRIDE1..4_COUNT with POSIX_STRIDEn_STRIDE > 0' },
        { name: 'requests', value: total, unit: 'count', source: 'POSIX_READS + POSIX_WRITES' },
      ],
      details,
      recommendations: ['view', 'contiguous'],
    });
  },
});
