import { defineCheck } from '../define-check.js';
import type { DetailInput } from '../types.js';
import { rowOf, subjectName } from '../families/diagnosis-common.js';

/**
 * D05: read-modify-write under a write-only workload. The application only writes a file through MPI-IO (or HDF5 /
 * PnetCDF), yet POSIX reads it, or POSIX writes more bytes than the application: ROMIO's data sieving reads a whole
 * region, patches the holes and writes it back (also HDF5 filling partial chunks).
 */
export default defineCheck({
  meta: {
    code: 'D05',
    slug: 'read-modify-write',
    title: 'Writes reach the file system as written',
    failureTitle: 'Read-modify-write: POSIX reads inside a write-only workload',
    description:
      'Data sieving turns every non-contiguous independent write into read region → modify → write region, under a ' +
      'file lock. It multiplies the bytes moved and serialises ranks that share a region.',
    panel: 'OPERATIONS',
    layer: 'MPI-IO',
    scope: 'file',
    level: 'HIGH',
    problem: 'read-modify-write',
    requires: ['posix.files'],
    modes: ['default'],
    options: {
      share: { knob: 'rmw_read_share', description: "POSIX bytes read, or POSIX bytes written beyond the application's, as a share of the application's bytes written." },
      minBytes: { knob: 'io_bytes_min', description: 'Minimum extra POSIX bytes on a file.' },
    },
    messages: {
      rmw: '{files} file(s) written only by the application are read back by POSIX: {read:bytes} read, {extra:bytes} written beyond the {app:bytes} the application wrote',
      file: '"{file}": {layer} writes {app:bytes}, POSIX reads {read:bytes} and writes {written:bytes}',
    },
    recommendations: {
      collective: { text: 'Use collective writes (MPI_File_write_all with a file view): two-phase I/O writes whole regions without reading them first', advises: 'collective-writes', snippet: 'mpi-io-collective-write.c' },
      sieving: { text: 'If independent writes must stay, disable write data sieving (ROMIO hint romio_ds_write=disable) or make each write cover whole blocks', snippet: 'romio-data-sieving.sh' },
      holes: { text: "The writes are already collective: the reads are two-phase I/O filling the gaps between the ranks' pieces. Make what one collective call writes contiguous (no holes between ranks, e.g. contiguous HDF5 datasets), and align the pieces with the file domains (cb_buffer_size, stripe size)" },
    },
    compat: { differences: [{ id: 'new', description: 'Drishti has no rule for data sieving or read-modify-write.' }] },
  },
  run(ctx) {
    const p = ctx.fact('posix.files');
    const posixRow = rowOf(p.ids);
    const app = new Map<bigint, { layer: string; read: number; written: number }>();
    const mp = ctx.tryFact('mpiio.files');
    if (mp) for (let i = 0; i < mp.ids.length; i++) app.set(mp.ids[i], { layer: 'MPI-IO', read: mp.bytesRead[i], written: mp.bytesWritten[i] });
    const hl = ctx.tryFact('hl.files');
    if (hl) for (let i = 0; i < hl.ids.length; i++) {
      const a = app.get(hl.ids[i]);
      // A file whose datasets are only written: keep the MPI-IO bytes (they include HDF5's metadata writes) when present.
      if (hl.bytesRead[i] > 0) app.set(hl.ids[i], { layer: hl.layers[i], read: hl.bytesRead[i], written: a?.written ?? hl.bytesWritten[i] });
      else if (!a) app.set(hl.ids[i], { layer: hl.layers[i], read: 0, written: hl.bytesWritten[i] });
    }
    const details: DetailInput<'file'>[] = [];
    let read = 0, extra = 0, appW = 0, seconds = 0;
    // Whether every flagged file is already written collectively through MPI-IO (then the reads are two-phase I/O
    // filling holes, and recommending collective writes would recommend what the job already does).
    const mpiioRow = mp ? rowOf(mp.ids) : () => -1;
    let allCollective = true;
    for (const [id, a] of app) {
      const i = posixRow(id);
      if (i < 0 || a.read > 0 || a.written <= 0) continue;
      const r = Math.max(0, p.bytesRead[i]);
      const x = Math.max(0, p.bytesWritten[i] - a.written);
      const s = ctx.options.share;
      if (!((r / a.written > s || x / a.written > s) && r + x >= ctx.options.minBytes)) continue;
      read += r;
      extra += x;
      appW += a.written;
      // The reads the write needed, and the extra part of the writes: POSIX calls beneath the application's writes.
      seconds += Math.max(0, p.readTime[i]) + (p.bytesWritten[i] > 0 ? (Math.max(0, p.writeTime[i]) * x) / p.bytesWritten[i] : 0);
      const m = mpiioRow(id);
      if (m < 0 || !(mp!.collWrites[m] > 0 && mp!.indepWrites[m] === 0)) allCollective = false;
      const subject = ctx.file(id);
      details.push({ messageId: 'file', data: { file: subjectName(subject), layer: a.layer, app: a.written, read: r, written: p.bytesWritten[i] }, subject });
    }
    if (!details.length) return;
    ctx.report({
      cost: { seconds },
      // Done well (whole blocks written, no sieving) the reads and the extra writes do not happen.
      savings: { kind: 'excess', seconds, what: 'no reads before the writes and no bytes written twice' },
      messageId: 'rmw',
      data: { files: details.length, read, extra, app: appW },
      evidence: [
        { name: 'posixBytesRead', value: read, unit: 'bytes', source: 'POSIX_BYTES_READ' },
        { name: 'posixExtraBytesWritten', value: extra, unit: 'bytes', source: 'POSIX_BYTES_WRITTEN − MPIIO_BYTES_WRITTEN (or H5D/PNETCDF_VAR bytes)' },
        { name: 'applicationBytesWritten', value: appW, unit: 'bytes', source: 'MPIIO_BYTES_WRITTEN / H5D_BYTES_WRITTEN / PNETCDF_VAR_BYTES_WRITTEN' },
      ],
      details,
      recommendations: allCollective ? ['holes'] : ['collective', 'sieving'],
    });
  },
});
