import { defineCheck } from '../define-check.js';
import { runAppLayerSmallRequests } from '../families/app-layer-small-requests.js';

/** D10: small writes judged at the layer the application calls (default mode; supersedes P06 and P16). */
export default defineCheck({
  meta: {
    code: 'D10',
    slug: 'small-writes-by-layer',
    title: "The application's writes are large",
    failureTitle: 'Small writes at the layer the application calls',
    description:
      'Every write request costs a call, and on a parallel file system at least one round trip to a server. Requests ' +
      'under 1 MiB spend more time in latency than in moving data. The sizes are taken where the application issues ' +
      'them (HDF5/PnetCDF, MPI-IO, else POSIX), so collective buffering that merges requests is not mistaken for the ' +
      "application's pattern.",
    panel: 'OPERATIONS',
    layer: 'job',
    scope: 'file',
    level: 'HIGH',
    problem: 'small-writes',
    requires: ['job'],
    modes: ['default'],
    supersedes: ['P06', 'P16'],
    options: {
      high: { knob: 'small_share', description: "Share of small writes among the application's writes above which the finding is HIGH." },
      warn: { knob: 'small_requests', description: 'Share above which the finding is WARN.' },
      min: { knob: 'small_min', description: 'Minimum number of small writes.' },
      time: { knob: 'small_time_share', description: 'Share of the job\'s I/O time on files with small writes (their write time weighted by their small share) needed for HIGH.' },
      bytes: { knob: 'small_bytes_share', description: 'Share of an HDF5/PnetCDF file\'s write bytes that MPI-IO (else POSIX) moves in requests under 1 MiB above which those requests are judged (the library split large requests).' },
      minBytes: { knob: 'io_bytes_min', description: 'Bytes the STDIO streams with small records must move together before those records count.' },
    },
    messages: {
      many: '{count} of {total} writes ({ratio:pct}) are smaller than 1 MiB at the layer the application calls',
      file: `{count} small write requests ({ratio:pct} of the file's, {layer} layer) on "{file}"`,
    },
    recommendations: {
      coalesce: { text: 'Buffer data in memory and issue fewer, larger writes (≥ 1 MiB, ideally a multiple of the stripe size)' },
      collective: { text: "Use collective writes (MPI_File_write_all, or H5Pset_dxpl_mpio(…, H5FD_MPIO_COLLECTIVE)) so aggregators merge the ranks' small pieces into large requests", advises: 'collective-writes', snippet: 'mpi-io-collective-write.c' },
      hdf5Chunk: { text: 'For HDF5 datasets, select larger hyperslabs per call and make the chunk size a multiple of the request size', snippet: 'hdf5-alignment.c' },
    },
    compat: {
      differences: [
        { id: 'layer', description: 'Drishti counts POSIX requests only, including 1 MiB ones, and needs more than 1000 of them; this check judges the application layer, excludes exact 1 MiB requests, and has a lower floor.' },
      ],
    },
  },
  run(ctx) {
    runAppLayerSmallRequests(ctx, 'write');
  },
});
