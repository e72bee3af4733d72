import { defineTraceCheck, reportFlagged } from './define.js';

/** T10: a flagged record that is not one file (a process, a window, a directory…) touches very many small files. */
export default defineTraceCheck({
  meta: {
    code: 'T10',
    slug: 'many-files',
    title: 'Few files per process and per time window',
    failureTitle: 'Very many small files are accessed',
    description:
      'Each file costs an open, a close and usually a stat on the metadata servers, whatever its size; workloads that ' +
      'read or write one small file per sample or per step are limited by them rather than by bandwidth.',
    panel: 'METADATA',
    problem: 'many-small-files',
    options: {
      files: { knob: 'trace_many_files', description: 'Distinct files a record must exceed.' },
      fileBytes: { knob: 'small_file_bytes', description: 'Mean bytes per file under which the files are small.' },
    },
    messages: {
      finding:
        '{records} flagged record(s) each touch more than {minFiles} files of under {fileBytes:bytes} on average; the records of the {view} view among them hold {share:pct} of the time in traced calls and cost {seconds:seconds}',
      record: '{record}: {files} distinct files, {perFile:bytes} per file on average',
    },
    recommendations: {
      pack: { text: 'Pack the small files into fewer larger ones (HDF5, an archive, a key-value container), or stage them on node-local storage' },
    },
  },
  run(ctx) {
    const o = ctx.options;
    reportFlagged(ctx, {
      where: (m, r) => !r.dims.includes('file') && m.nfiles > o.files && m.bytes / m.nfiles < o.fileBytes,
      finding: 'finding',
      detail: 'record',
      detailData: (m) => ({ files: m.nfiles, perFile: m.bytes / m.nfiles }),
      cost: (s) => ({ seconds: s.time }),
      summary: () => ({ minFiles: o.files, fileBytes: o.fileBytes }),
      recommendations: ['pack'],
    });
  },
});
