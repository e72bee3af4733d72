import { defineCheck } from '../define-check.js';
import { runRankSpread } from '../families/rank-spread.js';

/** P21: write imbalance between the ranks of individual files (HIGH). */
export default defineCheck({
  meta: {
    code: 'P21',
    slug: 'per-rank-write-imbalance',
    title: 'Ranks write similar amounts of each file',
    failureTitle: 'Write imbalance between ranks of individual files',
    description: 'Some ranks wrote far more of a file than others; the busiest rank sets the pace.',
    panel: 'OPERATIONS',
    layer: 'POSIX',
    scope: 'file',
    level: 'HIGH',
    problem: 'rank-imbalance',
    requires: ['posix.rankSpread'],
    options: {
      ratio: { knob: 'imbalance_size', description: '(max − min) / max of bytes written per rank above which a file is listed.' },
    },
    messages: {
      imbalanced: 'Write imbalance between ranks on {files} file(s) accessed rank by rank',
      file: '{ratio:pct} imbalance (busiest minus least busy rank\'s bytes, over the busiest\'s) on "{file}"',
    },
    recommendations: {
      balance: { text: 'Give every rank a similar share of the data' },
      striping: { text: 'Tune the stripe count and size so the data spreads over enough storage targets', advises: 'striping', snippet: 'lustre-striping.sh' },
      noFill: { text: 'With HDF5 or netCDF, check whether fill values are needed: writing them doubles the work of the ranks that create datasets', snippet: 'no-fill.c' },
      collective: { text: 'When only rank 0 opens and accesses the file, let all ranks take part through collective MPI-IO' },
    },
    compat: {
      drishti: 'P21',
      differences: [{ id: 'aggregators', description: 'The default mode leaves out files the application accessed through MPI-IO: with collective buffering only the aggregator ranks issue POSIX I/O, which is not an imbalance (D14 judges those files by their MPI-IO bytes).' }],
    },
  },
  run(ctx) {
    runRankSpread(ctx, 'write');
  },
});
