import { defineCheck } from '../define-check.js';
import { median, modelOf } from '../families/diagnosis-common.js';

/**
 * D03: one rank does (nearly) all the I/O of a multi-process job. Bytes per rank come from `io.rankBytes`, which
 * judges MPI-IO files by their MPI-IO bytes, so collective-buffering aggregators (the only ranks issuing POSIX I/O in
 * a healthy collective run, MANIFEST caveat 5) are not mistaken for serialised I/O.
 */
export default defineCheck({
  meta: {
    code: 'D03',
    slug: 'single-rank-io',
    title: 'Ranks share the I/O',
    failureTitle: 'One rank does the I/O of the whole job',
    description:
      'When one process reads or writes everything while the others wait, the job gets the bandwidth of one client ' +
      'no matter how many nodes it runs on, and the waiting ranks burn their allocation.',
    panel: 'OPERATIONS',
    layer: 'job',
    scope: 'rank',
    level: 'HIGH',
    problem: 'rank0-only-io',
    requires: ['io.rankBytes'],
    modes: ['default'],
    options: {
      share: { knob: 'single_rank_share', description: "The busiest rank's share of the job's bytes." },
      minBytes: { knob: 'io_bytes_min', description: 'Minimum bytes moved by the job.' },
    },
    messages: { single: 'Rank {rank} moves {share:pct} of the job\'s {bytes:bytes} while {nprocs} processes run' },
    recommendations: {
      parallel: { text: 'Let every rank read or write its own part (MPI-IO collective I/O on a shared file, or HDF5/PnetCDF in parallel mode)', snippet: 'mpi-io-collective-write.c' },
      aggregate: { text: 'If one writer is wanted, use a few aggregator ranks (one per node) instead of rank 0 alone, e.g. through MPI-IO hints', snippet: 'mpi-io-hints.sh' },
    },
    compat: { differences: [{ id: 'new', description: 'Drishti has no rule for single-process I/O; its data-imbalance rule (P18) is also fooled by collective-buffering aggregators.' }] },
  },
  run(ctx) {
    const f = ctx.fact('io.rankBytes');
    if (f.nprocs < 2 || f.total < ctx.options.minBytes) return;
    let top = 0;
    for (let r = 1; r < f.nprocs; r++) if (f.bytes[r] > f.bytes[top]) top = r;
    const share = f.bytes[top] / f.total;
    if (!(share > ctx.options.share)) return;
    // What the others wait: the rank's I/O time beyond the median rank's (the time model; slowest-rank semantics).
    const model = modelOf(ctx);
    let seconds = 0;
    if (model) {
      const n = Math.min(model.rankSeconds.length, f.nprocs);
      const others = Array.from(model.rankSeconds.subarray(0, n)).filter((_, r) => r !== top);
      seconds = others.length ? Math.max(0, (model.rankSeconds[top] ?? 0) - median(others)) : 0;
    }
    ctx.report({
      cost: { seconds, semantics: 'slowest' },
      savings: { kind: 'spread', seconds, ranks: f.nprocs },
      messageId: 'single',
      data: { rank: top, share, bytes: f.total, nprocs: f.nprocs },
      evidence: [
        { name: 'rankBytes', value: f.bytes[top], unit: 'bytes', source: 'io.rankBytes (MPIIO_/POSIX_/STDIO_BYTES_*, *_SLOWEST_RANK_BYTES)' },
        { name: 'jobBytes', value: f.total, unit: 'bytes', source: 'io.rankBytes' },
        { name: 'processes', value: f.nprocs, unit: 'ranks', source: 'job nprocs' },
      ],
      recommendations: ['parallel', 'aggregate'],
    });
  },
});
