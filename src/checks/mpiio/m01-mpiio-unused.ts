import { defineCheck } from '../define-check.js';

/**
 * M01: the job does not use MPI-IO. Drishti fires for every log without the MPI-IO module, including serial jobs
 * and logs without I/O (SPEC §7.5); the default mode fires only for parallel jobs (more than one process) that moved
 * data through POSIX or STDIO.
 */
export default defineCheck({
  meta: {
    code: 'M01',
    slug: 'mpiio-unused',
    title: 'The job uses MPI-IO',
    failureTitle: 'A parallel job without MPI-IO',
    description:
      'The job runs several processes but does its I/O through POSIX or STDIO only. MPI-IO (directly or through HDF5, ' +
      'PnetCDF, ADIOS…) can coordinate ranks: collective buffering, aggregation and hints for the file system.',
    panel: 'OPERATIONS',
    layer: 'MPI-IO',
    scope: 'job',
    level: 'WARN',
    problem: 'no-mpiio',
    requires: ['modules', 'job'],
    options: {},
    messages: { unused: 'No MPI-IO: the job uses only low-performance interfaces' },
    recommendations: { adoptMpiio: { text: 'Use a parallel I/O interface such as MPI-IO (or HDF5/PnetCDF over it) for shared data' } },
    compat: {
      drishti: 'M01',
      differences: [{ id: 'parallel-jobs-only', description: 'Drishti fires for every log without MPI-IO, even serial jobs and logs with no I/O; the default mode requires more than one process and some POSIX or STDIO bytes.' }],
    },
  },
  run(ctx) {
    if (ctx.hasModule('MPI-IO')) return;
    if (ctx.mode === 'default') {
      const job = ctx.fact('job');
      const p = ctx.tryFact('posix.totals');
      const s = ctx.tryFact('stdio.totals');
      const bytes = (p ? p.bytesRead + p.bytesWritten : 0) + (s ? s.bytesRead + s.bytesWritten : 0);
      if (!(job.processes > 1 && bytes > 0)) return;
    }
    ctx.report({ messageId: 'unused', data: {}, recommendations: ['adoptMpiio'] });
  },
});
