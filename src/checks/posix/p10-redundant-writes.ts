import { defineCheck } from '../define-check.js';
import { runRedundantTraffic } from '../families/redundant-traffic.js';

/** P10: redundant write traffic (WARN). */
export default defineCheck({
  meta: {
    code: 'P10',
    slug: 'redundant-writes',
    title: 'No data written twice',
    failureTitle: 'Redundant write traffic',
    description:
      'The job writes more bytes of a file than the file spans, so some bytes were written more than once. ' +
      'Re-writing the same data costs bandwidth that caching or restructuring the access would save.',
    panel: 'METADATA',
    layer: 'POSIX',
    scope: 'file',
    level: 'WARN',
    problem: 'redundant-write',
    requires: ['posix.totals', 'posix.byFile'],
    options: {},
    messages: {
      drishti: 'Possibly redundant write traffic: the highest offset written in one file exceeds the bytes written in all files',
      redundant: '{files} file(s) had more bytes written than their extent: {excess:bytes} written more than once',
      file: '{bytes:bytes} written in "{file}", which spans {extent:bytes}',
    },
    recommendations: {},
    compat: {
      drishti: 'P10',
      marks: [],
      differences: [
        { id: 'per-file-test', description: "Default mode compares, per file, the bytes written with the file's extent (POSIX_MAX_BYTE_WRITTEN + 1); Drishti compares the largest offset of any file with the bytes of all files, which flags sparse access instead." },
        { id: 'printed-once', description: 'Drishti prints P10 twice (and counts both in its warnings); the default mode emits it once.' },
      ],
    },
  },
  run(ctx) {
    runRedundantTraffic(ctx, 'write');
  },
});
