import { defineCheck } from '../define-check.js';
import type { DetailInput } from '../types.js';
import { DATA_OPS, modelOf, rowsIn, secondsOf, subjectName } from '../families/diagnosis-common.js';

/**
 * D15: independent MPI-IO on files where collective I/O is possible (a shared record: several ranks opened the
 * file). HDF5 and PnetCDF files are judged by their own independent/collective choice (H5D_USE_MPIIO_COLLECTIVE,
 * PNETCDF_VAR_INDEP/COLL_*), since HDF5 writes its metadata independently even in a collective run. Level by what the
 * independent requests look like: HIGH when they are small or strided (where collective buffering pays), WARN when
 * they are large and contiguous (mild).
 */
export default defineCheck({
  meta: {
    code: 'D15',
    slug: 'independent-mpiio',
    title: 'Shared files use collective MPI-IO',
    failureTitle: 'Independent MPI-IO on shared files where collective I/O is possible',
    description:
      'Collective calls let MPI-IO merge the ranks\' pieces into large, aligned requests issued by a few aggregators ' +
      '(two-phase I/O). Independent calls send every piece to the file system on its own.',
    panel: 'OPERATIONS',
    layer: 'MPI-IO',
    scope: 'file',
    level: 'HIGH',
    problem: 'no-collective',
    requires: ['mpiio.files'],
    modes: ['default'],
    supersedes: ['M02', 'M03'],
    options: {
      share: { knob: 'collective_operations', description: 'Share of independent requests on a file.' },
      min: { knob: 'independent_min', description: 'Minimum independent requests on a file.' },
      small: { knob: 'small_share', description: 'Share of small (or strided) requests above which the finding is HIGH rather than WARN.' },
    },
    messages: {
      independent: '{count} independent {layer} requests ({ratio:pct}) on {files} shared file(s){how}',
      file: '"{file}": {count} independent of {total} {layer} requests',
    },
    recommendations: {
      collective: { text: 'Use the collective variants (MPI_File_write_all / read_all, or H5FD_MPIO_COLLECTIVE transfers in HDF5, ncmpi_put_vara_all in PnetCDF)', advises: 'collective-io', snippet: 'mpi-io-collective-write.c' },
      hints: { text: 'Tune collective buffering (cb_nodes, cb_buffer_size) to the number of nodes and the stripe layout', snippet: 'mpi-io-hints.sh' },
    },
    compat: { differences: [{ id: 'layer-and-floor', description: 'Drishti (M02/M03) needs more than 1000 MPI-IO requests and counts HDF5\'s own independent metadata writes; this check judges HDF5/PnetCDF files by their dataset calls, has a small floor, and grades by request size.' }] },
  },
  run(ctx) {
    const mp = ctx.fact('mpiio.files');
    const hl = ctx.tryFact('hl.files');
    const toLib = hl ? rowsIn(mp.ids, hl.ids) : null;
    const px = ctx.tryFact('posix.files');
    const toPosix = px ? rowsIn(mp.ids, px.ids) : null;
    const details: DetailInput<'file'>[] = [];
    const model = modelOf(ctx);
    let count = 0, total = 0, small = 0, layer = 'MPI-IO', costly = false, seconds = 0, readBytes = 0, writeBytes = 0;
    for (let i = 0; i < mp.ids.length; i++) {
      if (!mp.shared[i]) continue;
      const h = toLib ? toLib[i] : -1;
      let indep: number, all: number, l: string, smallOps: number;
      if (h >= 0) {
        indep = hl!.independentOps[h];
        all = indep + hl!.collectiveOps[h];
        l = hl!.layers[h];
        smallOps = hl!.smallReads[h] + hl!.smallWrites[h];
      } else {
        indep = mp.indepReads[i] + mp.indepWrites[i] + mp.nbReads[i] + mp.nbWrites[i];
        all = indep + mp.collReads[i] + mp.collWrites[i] + mp.splitReads[i] + mp.splitWrites[i];
        l = 'MPI-IO';
        smallOps = mp.smallReads[i] + mp.smallWrites[i];
      }
      if (!(indep >= ctx.options.min && all > 0 && indep / all > ctx.options.share)) continue;
      const p = toPosix ? toPosix[i] : -1;
      const posixOps = p >= 0 ? px!.reads[p] + px!.writes[p] : 0;
      const strided = p >= 0 && posixOps ? px!.stridedOps[p] / posixOps : 0;
      if (smallOps / all > ctx.options.small || strided > ctx.options.small) costly = true;
      count += indep;
      total += all;
      small += smallOps;
      // The independent requests' time: the file's reads and writes at the layer called, in proportion.
      seconds += (secondsOf(model, mp.ids[i], DATA_OPS.both) * indep) / all;
      readBytes += (Math.max(0, mp.bytesRead[i]) * indep) / all;
      writeBytes += (Math.max(0, mp.bytesWritten[i]) * indep) / all;
      layer = l;
      const subject = ctx.file(mp.ids[i]);
      details.push({ messageId: 'file', data: { file: subjectName(subject), count: indep, total: all, layer: l }, subject });
    }
    if (!details.length) return;
    ctx.report({
      level: costly ? 'HIGH' : 'WARN',
      cost: { seconds },
      // Done well (collective buffering: large contiguous requests) the same bytes move at the job's large-request bandwidth.
      savings: { kind: 'data', seconds, readBytes, writeBytes },
      messageId: 'independent',
      data: { count, ratio: count / total, files: details.length, layer, how: costly ? ', small or strided: collective buffering would merge them' : ', large and contiguous: a mild cost' },
      evidence: [
        { name: 'independent', value: count, unit: 'count', source: 'MPIIO_INDEP_*/MPIIO_NB_* (H5D_USE_MPIIO_COLLECTIVE, PNETCDF_VAR_INDEP_* for HDF5/PnetCDF files)' },
        { name: 'requests', value: total, unit: 'count', source: 'MPI-IO (or HDF5/PnetCDF) requests' },
        { name: 'smallRequests', value: small, unit: 'count', source: 'request sizes below 1 MiB at that layer' },
      ],
      details,
      recommendations: ['collective', 'hints'],
    });
  },
});
