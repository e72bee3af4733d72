import { defineCheck } from '../define-check.js';

/**
 * S01: a large share of the job's bytes go through STDIO. Denominator as Drishti: STDIO + MPI-IO + POSIX bytes,
 * POSIX minus MPI-IO when POSIX ≥ MPI-IO (MPI-IO traffic also shows up in POSIX).
 */
export default defineCheck({
  meta: {
    code: 'S01',
    slug: 'stdio-heavy',
    title: 'Little data goes through STDIO',
    failureTitle: 'Much of the data goes through STDIO',
    description:
      'STDIO (fopen/fread/fwrite) adds a user-space buffer and serialises access per stream; it is not designed for ' +
      'parallel I/O. Moving a large share of the data through it usually limits bandwidth.',
    panel: 'OPERATIONS',
    layer: 'STDIO',
    scope: 'job',
    level: 'HIGH',
    problem: 'stdio-heavy',
    requires: ['stdio.totals'],
    options: { ratio: { knob: 'interface_stdio', description: 'Share of all transferred bytes moved through STDIO above which this fires.' } },
    messages: { heavy: 'STDIO, a low-performance interface, carries {ratio:pct} of the data transferred ({bytes:bytes})' },
    recommendations: { parallelInterface: { text: 'Move bulk data to a parallel I/O interface such as MPI-IO (or HDF5/PnetCDF over it)' } },
    compat: { drishti: 'S01' },
  },
  run(ctx) {
    const s = ctx.fact('stdio.totals');
    const p = ctx.tryFact('posix.totals');
    const m = ctx.tryFact('mpiio.totals');
    const stdio = s.bytesRead + s.bytesWritten;
    const mpiio = m ? m.bytesRead + m.bytesWritten : 0;
    let posix = p ? p.bytesRead + p.bytesWritten : 0;
    if (posix > 0 && posix >= mpiio) posix -= mpiio;
    const total = stdio + posix + mpiio;
    if (!(total && stdio / total > ctx.options.ratio)) return;
    ctx.report({
      messageId: 'heavy',
      data: { ratio: stdio / total, bytes: stdio },
      evidence: [
        { name: 'stdioBytes', value: stdio, unit: 'bytes', source: 'STDIO_BYTES_READ + STDIO_BYTES_WRITTEN' },
        { name: 'totalBytes', value: total, unit: 'bytes', source: 'STDIO + POSIX (− MPI-IO) + MPI-IO bytes' },
      ],
      recommendations: ['parallelInterface'],
    });
  },
});
