import { defineCheck } from '../define-check.js';
import { runRedundantTraffic } from '../families/redundant-traffic.js';

/** P09: redundant read traffic (WARN). */
export default defineCheck({
  meta: {
    code: 'P09',
    slug: 'redundant-reads',
    title: 'No data read twice',
    failureTitle: 'Redundant read traffic',
    description:
      'The job reads more bytes of a file than the file spans, so some bytes were read more than once. Re-reading ' +
      'the same data costs bandwidth that caching or restructuring the access would save.',
    panel: 'METADATA',
    layer: 'POSIX',
    scope: 'file',
    level: 'WARN',
    problem: 'redundant-read',
    requires: ['posix.totals', 'posix.byFile'],
    options: {},
    messages: {
      drishti: 'Possibly redundant read traffic: the highest offset read in one file exceeds the bytes read in all files',
      redundant: '{files} file(s) had more bytes read than their extent: {excess:bytes} read more than once',
      file: '{bytes:bytes} read in "{file}", which spans {extent:bytes}',
    },
    recommendations: {},
    compat: {
      drishti: 'P09',
      marks: [],
      differences: [
        { id: 'per-file-test', description: "Default mode compares, per file, the bytes read with the file's extent (POSIX_MAX_BYTE_READ + 1); Drishti compares the largest offset of any file with the bytes of all files, which flags sparse access instead." },
      ],
    },
  },
  run(ctx) {
    runRedundantTraffic(ctx, 'read');
  },
});
