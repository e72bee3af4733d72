import { defineCheck } from '../define-check.js';

type Rec = 'align' | 'hdf5Alignment' | 'lustreAlignment';

/**
 * P08: many POSIX requests not aligned to the file system block (POSIX_FILE_NOT_ALIGNED / all requests).
 * Drishti tests for a module named 'HF5' (a typo, SPEC §7.3), so its HDF5 advice never shows; the default mode gives
 * it when the job uses HDF5.
 */
export default defineCheck({
  meta: {
    code: 'P08',
    slug: 'misaligned-file',
    title: 'File requests are aligned',
    failureTitle: 'Many file requests not aligned to the file system block',
    description:
      'A request that starts or ends inside a file-system block (or a Lustre stripe) makes the servers read-modify-write ' +
      'that block and, with several writers, contend for its lock.',
    panel: 'METADATA',
    layer: 'POSIX',
    scope: 'job',
    level: 'HIGH',
    problem: 'misaligned-file',
    requires: ['posix.totals'],
    options: { ratio: { knob: 'misaligned_requests', description: 'Share of requests misaligned in the file above which this fires.' } },
    messages: { misaligned: '{ratio:pct} of the POSIX requests are not aligned to the file system block' },
    recommendations: {
      align: { text: 'Make request offsets and sizes multiples of the file system block (or stripe) size', advises: 'align-requests' },
      hdf5Alignment: { text: 'The job uses HDF5: H5Pset_alignment() on the file access property list aligns every object above a threshold size', snippet: 'hdf5-alignment.c' },
      lustreAlignment: { text: 'Match request alignment to the Lustre stripe size (and set a stripe layout that fits the requests)', advises: 'striping', snippet: 'lustre-striping.sh' },
    },
    compat: {
      drishti: 'P08',
      differences: [{ id: 'hdf5-advice', description: "Drishti looks for a module named 'HF5' (a typo) and never shows its HDF5 alignment advice; the default mode shows it when the H5F/H5D modules are present or an MPI-IO file is named *.h5/*.hdf5." }],
    },
  },
  run(ctx) {
    const t = ctx.fact('posix.totals');
    const ops = t.reads + t.writes;
    if (!(ops && t.fileNotAligned / ops > ctx.options.ratio)) return;
    const recs: Rec[] = ['align'];
    const h = ctx.tryFact('hdf5');
    if (ctx.mode === 'default' && h && (h.h5f || h.h5d || h.mpiioHdf5Name)) recs.push('hdf5Alignment');
    if (ctx.hasModule('LUSTRE')) recs.push('lustreAlignment');
    ctx.report({
      messageId: 'misaligned',
      data: { ratio: t.fileNotAligned / ops },
      evidence: [
        { name: 'fileNotAligned', value: t.fileNotAligned, unit: 'count', source: 'POSIX_FILE_NOT_ALIGNED' },
        { name: 'operations', value: ops, unit: 'count', source: 'POSIX_READS + POSIX_WRITES' },
      ],
      recommendations: recs,
    });
  },
});
