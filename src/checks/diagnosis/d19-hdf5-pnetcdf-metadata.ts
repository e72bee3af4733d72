import { defineCheck } from '../define-check.js';
import type { DetailInput } from '../types.js';
import { modelOf, rowsIn, secondsOf, subjectName } from '../families/diagnosis-common.js';

/**
 * D19: HDF5 and PnetCDF metadata patterns: a file reopened many times per process (open/close around every step) or
 * many small datasets/variables. Each HDF5/PnetCDF open reads the file's metadata (superblock, headers, or the netCDF
 * header broadcast) and each close flushes it; tiny datasets are all header. WARN: the cost depends on the metadata
 * servers, which the counters do not show, and HDF5's own metadata time dominates short healthy runs too. The metadata
 * a file carries shows in the bytes it writes below the library beyond its datasets' bytes (MPI-IO, else POSIX):
 * object headers, attributes, chunk indexes. A plain dataset header is one to four KiB; more than `hl_metadata_bytes`
 * per dataset means attributes or indexes outweigh it.
 */
export default defineCheck({
  meta: {
    code: 'D19',
    slug: 'hdf5-pnetcdf-metadata',
    title: 'HDF5/PnetCDF files are opened once and hold few, large datasets',
    failureTitle: 'HDF5/PnetCDF files reopened many times, or many tiny datasets',
    description:
      'Opening an HDF5 or PnetCDF file reads and checks its metadata on every rank, closing flushes it; datasets of a ' +
      'few kilobytes carry as much header as data. Both turn data output into metadata traffic.',
    panel: 'METADATA',
    layer: 'HDF5',
    scope: 'file',
    level: 'WARN',
    problem: 'metadata-heavy',
    requires: ['job'],
    modes: ['default'],
    options: {
      opens: { knob: 'hl_opens_per_process', description: 'Opens of one file per process.' },
      datasets: { knob: 'hl_datasets_min', description: 'Minimum number of small datasets/variables.' },
      bytes: { knob: 'small_file_bytes', description: 'Dataset/variable size below which it is small.' },
      metaBytes: { knob: 'hl_metadata_bytes', description: 'Metadata bytes written per dataset/variable (bytes below the library beyond the data) above which the file carries heavy metadata.' },
    },
    messages: {
      reopen: '{files} HDF5/PnetCDF file(s) opened {perProcess:fixed2} times per process on average ({seconds:fixed2} s of library metadata time)',
      small: '{count} datasets/variables hold less than {limit:bytes} each',
      metadata: '{files} HDF5/PnetCDF file(s) write {bytes:bytes} of library metadata (headers, attributes, indexes) for {datasets} dataset(s)/variable(s), {perDataset:bytes} each',
      file: '"{file}" ({layer}): {opens} opens',
    },
    recommendations: {
      keepOpen: { text: 'Open the file once and keep it open across steps (flush with H5Fflush / ncmpi_sync if needed)', advises: 'open-once' },
      bigger: { text: 'Store many small arrays as slices of one larger dataset/variable (add a dimension for the step or the item)' },
      collectiveMeta: { text: 'With HDF5, make metadata reads and writes collective so one rank talks to the file system', snippet: 'hdf5-collective-metadata.c' },
    },
    compat: { differences: [{ id: 'new', description: 'Drishti has no HDF5 or PnetCDF rule of its own.' }] },
  },
  run(ctx) {
    const nprocs = Math.max(1, ctx.fact('job').processes);
    const model = modelOf(ctx);
    const o = ctx.tryFact('hl.opens');
    if (o) {
      const details: DetailInput<'file'>[] = [];
      let opens = 0, seconds = 0, cost = 0;
      for (let i = 0; i < o.ids.length; i++) {
        if (!(o.opens[i] / nprocs > ctx.options.opens)) continue;
        opens += o.opens[i];
        seconds += Math.max(0, o.metaSeconds[i]);
        // The file's opens, closes and flushes at the layer called (the MPI-IO and POSIX ones beneath included).
        cost += secondsOf(model, o.ids[i], ['metadata']);
        const subject = ctx.file(o.ids[i]);
        details.push({ messageId: 'file', data: { file: subjectName(subject), layer: o.layers[i], opens: o.opens[i] }, subject });
      }
      if (details.length) {
        ctx.report({
          cost: { seconds: cost },
          messageId: 'reopen',
          data: { files: details.length, perProcess: opens / nprocs / details.length, seconds },
          evidence: [
            { name: 'opens', value: opens, unit: 'count', source: 'H5F_OPENS / PNETCDF_FILE_OPENS + PNETCDF_FILE_CREATES' },
            { name: 'metadataSeconds', value: seconds, unit: 'seconds', source: 'H5F_F_META_TIME / PNETCDF_FILE_F_META_TIME' },
          ],
          details,
          recommendations: ['keepOpen', 'collectiveMeta'],
        });
      }
    }
    const hl = ctx.tryFact('hl.files');
    const mp = ctx.tryFact('mpiio.files');
    const px = ctx.tryFact('posix.files');
    if (hl) {
      const toMpiio = mp ? rowsIn(hl.ids, mp.ids) : null;
      const toPosix = px ? rowsIn(hl.ids, px.ids) : null;
      let files = 0, bytes = 0, datasets = 0, seconds = 0;
      for (let i = 0; i < hl.ids.length; i++) {
        const m = toMpiio ? toMpiio[i] : -1, p = toPosix ? toPosix[i] : -1;
        const below = m >= 0 ? mp!.bytesWritten[m] : p >= 0 ? px!.bytesWritten[p] : NaN;
        const meta = below - Math.max(0, hl.bytesWritten[i]);
        if (!(hl.datasets[i] > 0 && meta / hl.datasets[i] > ctx.options.metaBytes)) continue;
        files++;
        bytes += meta;
        datasets += hl.datasets[i];
        // The part of the file's writes that carried metadata, by bytes (an upper bound on what the metadata cost).
        if (below > 0) seconds += (secondsOf(model, hl.ids[i], ['write']) * meta) / below;
      }
      if (files) {
        ctx.report({
          cost: { seconds, basis: 'bound' },
          messageId: 'metadata',
          data: { files, bytes, datasets, perDataset: bytes / datasets },
          evidence: [
            { name: 'metadataBytes', value: bytes, unit: 'bytes', source: 'MPIIO_BYTES_WRITTEN (else POSIX_BYTES_WRITTEN) − H5D_/PNETCDF_VAR_BYTES_WRITTEN' },
            { name: 'datasets', value: datasets, unit: 'count', source: 'H5D / PNETCDF_VAR records' },
          ],
          recommendations: ['collectiveMeta'],
        });
      }
      // Datasets of files whose mean dataset size is below the limit.
      let count = 0, smallSeconds = 0;
      for (let i = 0; i < hl.ids.length; i++) {
        const d = hl.datasets[i];
        if (d > 0 && (hl.bytesRead[i] + hl.bytesWritten[i]) / d < ctx.options.bytes) {
          count += d;
          smallSeconds += secondsOf(model, hl.ids[i]);
        }
      }
      if (count >= ctx.options.datasets) {
        ctx.report({
          // Every call on the files of small datasets: what their per-dataset overhead costs is a part of it.
          cost: { seconds: smallSeconds, basis: 'bound' },
          messageId: 'small',
          data: { count, limit: ctx.options.bytes },
          evidence: [{ name: 'smallDatasets', value: count, unit: 'count', source: 'H5D / PNETCDF_VAR records per file and their bytes' }],
          recommendations: ['bigger', 'collectiveMeta'],
        });
      }
    }
  },
});
