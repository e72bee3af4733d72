import { defineCheck } from '../define-check.js';
import { runMissingCollectives } from '../families/collective.js';

/** M03: MPI-IO writes never collective (HIGH). */
export default defineCheck({
  meta: {
    code: 'M03',
    slug: 'no-collective-writes',
    title: 'MPI-IO writes use collective calls',
    failureTitle: 'MPI-IO writes are all independent',
    description:
      'The job writes through MPI-IO but never collectively. Independent calls leave every rank to talk to the file ' +
      'system on its own; collective calls let MPI-IO merge requests through aggregators (two-phase I/O).',
    panel: 'OPERATIONS',
    layer: 'MPI-IO',
    scope: 'file',
    level: 'HIGH',
    problem: 'no-collective',
    requires: ['mpiio.totals', 'mpiio.records'],
    options: {
      ratio: { knob: 'collective_operations', description: 'Share of independent operations above which a file is listed.' },
      absolute: { knob: 'collective_operations_absolute', description: 'Minimum number of MPI-IO writes (and of independent operations for a listed file).' },
    },
    messages: {
      independent: 'No collective MPI-IO writes: all {count} ({ratio:pct}) are independent calls',
      record: '{count} ({percent:pctRaw}) independent writes to "{file}"',
      file: '{count} ({ratio:pct}) independent writes to "{file}"',
    },
    recommendations: {
      collective: { text: 'Use collective writes (MPI_File_write_all or MPI_File_write_at_all) and set one aggregator per compute node (cb_nodes)', advises: 'collective-writes', snippet: 'mpi-io-collective-write.c' },
    },
    compat: {
      drishti: 'M03',
      marks: ['collective_operations_absolute'],
      differences: [
        { id: 'details-per-file', description: 'Drishti lists one detail per MPI-IO record (a file can appear once per rank) with a raw float percentage; the default mode sums ranks per file.' },
      ],
    },
  },
  run(ctx) {
    runMissingCollectives(ctx, 'write');
  },
});
