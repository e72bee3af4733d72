import { defineCheck } from '../define-check.js';
import { modelOf, rowsHolding, secondsOf } from '../families/diagnosis-common.js';

/** D08: the job touches many small files (POSIX and STDIO, standard streams left out). */
export default defineCheck({
  meta: {
    code: 'D08',
    slug: 'many-small-files',
    title: 'Data is kept in few, large files',
    failureTitle: 'Many small files',
    description:
      'Each file costs metadata-server work (create, open, stat, close, and a directory entry) and at least one ' +
      'file-system block, whatever its size. Thousands of tiny files make a job metadata-bound and fill directories.',
    panel: 'METADATA',
    layer: 'POSIX',
    scope: 'job',
    level: 'HIGH',
    problem: 'many-small-files',
    requires: ['posix.files'],
    modes: ['default'],
    options: {
      min: { knob: 'small_files_min', description: 'Minimum number of small files.' },
      bytes: { knob: 'small_file_bytes', description: 'Extent below which a file is small.' },
    },
    messages: { files: '{small} of the {files} files the job touched are smaller than {limit:bytes} (median {median:bytes})' },
    recommendations: {
      container: { text: 'Aggregate small outputs into one file per rank or a shared container (HDF5, ADIOS2, a tar/zip-like archive), indexed by offset' },
      node: { text: 'Stage many small temporary files on node-local storage (/tmp, burst buffer) instead of the parallel file system' },
    },
    compat: { differences: [{ id: 'new', description: 'Drishti has no rule for the number or size of files.' }] },
  },
  run(ctx) {
    const p = ctx.fact('posix.files');
    const model = modelOf(ctx);
    const sizes: number[] = [];
    let seconds = 0;
    // Every call on the small files (opens, stats, closes and their little data) is what they cost.
    const add = (id: bigint, size: number) => {
      sizes.push(size);
      if (size < ctx.options.bytes) seconds += secondsOf(model, id);
    };
    for (let i = 0; i < p.ids.length; i++) add(p.ids[i], Math.max(0, p.extent[i]));
    const s = ctx.tryFact('stdio.files');
    const inPosix = rowsHolding(s ? s.ids : new BigUint64Array(0), p.ids);
    if (s) for (let i = 0; i < s.ids.length; i++) {
      const size = Math.max(0, s.bytesRead[i], s.bytesWritten[i]);
      // A stream with a POSIX record too is one file: its time is counted once.
      if (inPosix[i]) sizes.push(size);
      else add(s.ids[i], size);
    }
    const small = sizes.filter((x) => x < ctx.options.bytes).length;
    if (!(small >= ctx.options.min && small * 2 > sizes.length)) return;
    sizes.sort((a, b) => a - b);
    const ranks = Math.max(1, ctx.tryFact('job')?.processes ?? 1);
    ctx.report({
      cost: { seconds },
      // Done well the same bytes go to one file per rank: each small file's calls cost what the job's files cost on
      // average, and only one file per rank is left (the data those calls carry is little by definition).
      savings: { kind: 'calls', seconds, calls: small, needed: Math.min(small, ranks), what: 'one file per rank for the same bytes' },
      messageId: 'files',
      data: { small, files: sizes.length, limit: ctx.options.bytes, median: sizes[sizes.length >> 1] },
      evidence: [
        { name: 'smallFiles', value: small, unit: 'files', source: 'POSIX_MAX_BYTE_READ/WRITTEN + 1; STDIO bytes' },
        { name: 'files', value: sizes.length, unit: 'files', source: 'POSIX and STDIO records' },
      ],
      recommendations: ['container', 'node'],
    });
  },
});
