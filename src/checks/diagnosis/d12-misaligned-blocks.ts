import { defineCheck } from '../define-check.js';
import type { DetailInput } from '../types.js';
import { DATA_OPS, modelOf, secondsOf, subjectName } from '../families/diagnosis-common.js';

/**
 * D12: block-sized requests at misaligned offsets. Darshan's POSIX_FILE_NOT_ALIGNED counts requests whose offset is
 * not a multiple of the file alignment (block or stripe size), whatever their size; a request smaller than a block
 * cannot be aligned in any useful sense (that is the small-request problem, D10/D11). So only requests of at least
 * one block are judged: misaligned large ≥ not-aligned − requests smaller than the alignment (a lower bound).
 * With DXT the count is exact, against the Lustre stripe size when the LUSTRE module has the file's layout.
 * A file counts when more than `misaligned_share` of its block-size requests are misaligned; the job needs
 * `misaligned_min` such requests on those files together.
 */
export default defineCheck({
  meta: {
    code: 'D12',
    slug: 'misaligned-blocks',
    title: 'Large requests are block-aligned',
    failureTitle: 'Large requests straddle file-system blocks',
    description:
      'A request of one block or more that starts mid-block touches one more block than needed at each end; writes ' +
      'then read-modify-write the partial blocks, and on Lustre/GPFS neighbouring ranks contend for the shared block or stripe lock.',
    panel: 'OPERATIONS',
    layer: 'POSIX',
    scope: 'file',
    level: 'HIGH',
    problem: 'misaligned-file',
    requires: ['posix.files'],
    modes: ['default'],
    supersedes: ['P08'],
    options: {
      share: { knob: 'misaligned_share', description: 'Share of block-size-or-larger requests that are misaligned.' },
      min: { knob: 'misaligned_min', description: 'Minimum misaligned block-size requests on the misaligned files, together.' },
    },
    messages: {
      misaligned: '{count} of {large} requests of at least one block ({ratio:pct}) start off a {alignment:bytes} boundary on {files} file(s)',
      file: '{count} misaligned block-size requests on "{file}" (alignment {alignment:bytes})',
    },
    recommendations: {
      sizes: { text: 'Make transfer sizes and file offsets multiples of the block or stripe size (pad records or headers)', advises: 'align-requests' },
      hdf5: { text: 'With HDF5, align datasets to the block or stripe size (H5Pset_alignment)', snippet: 'hdf5-alignment.c' },
      stripe: { text: 'On Lustre, choose a stripe size that divides the transfer size', advises: 'striping', snippet: 'lustre-striping.sh' },
    },
    compat: { differences: [{ id: 'large-only', description: 'Drishti (P08) counts every misaligned request, so small (sub-block) requests always look misaligned; this check judges only requests of at least one block.' }] },
  },
  run(ctx) {
    const p = ctx.fact('posix.files');
    const dxt = ctx.tryFact('dxt.posixRanks');
    const traced = new Map<bigint, { large: number; bad: number; alignment: number }>();
    if (dxt) for (let r = 0; r < dxt.ids.length; r++) {
      if (!(dxt.alignment[r] > 0) || !dxt.ops[r]) continue;
      const e = traced.get(dxt.ids[r]) ?? { large: 0, bad: 0, alignment: dxt.alignment[r] };
      e.large += dxt.largeOps[r];
      e.bad += dxt.misalignedLargeOps[r];
      traced.set(dxt.ids[r], e);
    }
    // A log of many files may name tens of thousands: details are built up to the report's limit, all counted.
    const details: DetailInput<'file'>[] = [];
    const model = modelOf(ctx);
    let count = 0, large = 0, alignment = 0, exact = false, files = 0, seconds = 0;
    for (let i = 0; i < p.ids.length; i++) {
      const d = traced.size ? traced.get(p.ids[i]) : undefined;
      const ops = p.reads[i] + p.writes[i];
      const big = d ? d.large : Math.max(0, ops - p.subBlockOps[i]);
      const bad = d ? d.bad : Math.max(0, p.notAligned[i] - p.subBlockOps[i]);
      const a = d ? d.alignment : p.alignment[i];
      if (!(big > 0 && bad > 0 && bad / big > ctx.options.share)) continue;
      if (d) exact = true;
      count += bad;
      large += big;
      seconds += (secondsOf(model, p.ids[i], DATA_OPS.both) * Math.min(big, bad)) / Math.max(1, ops);
      alignment = Math.max(alignment, a);
      if (files++ >= ctx.detailLimit) continue;
      const subject = ctx.file(p.ids[i]);
      details.push({ messageId: 'file', data: { count: bad, alignment: a, file: subjectName(subject) }, subject });
    }
    if (!files || count < ctx.options.min) return;
    const h = ctx.tryFact('hdf5');
    ctx.report({
      // The misaligned requests' time: the part of it the misalignment costs is not separable (an upper bound).
      cost: { seconds, basis: 'bound' },
      messageId: 'misaligned',
      data: { count, large, ratio: count / large, alignment, files },
      evidence: [
        { name: 'misalignedLarge', value: count, unit: 'count', source: exact ? 'DXT_POSIX offsets and lengths vs the stripe size (LUSTRE) or POSIX_FILE_ALIGNMENT' : 'POSIX_FILE_NOT_ALIGNED − requests below POSIX_FILE_ALIGNMENT (lower bound)' },
        { name: 'largeRequests', value: large, unit: 'count', source: 'POSIX_READS + POSIX_WRITES − requests below POSIX_FILE_ALIGNMENT' },
        { name: 'alignment', value: alignment, unit: 'bytes', source: 'POSIX_FILE_ALIGNMENT' },
      ],
      details,
      detailCount: files,
      recommendations: h && (h.h5f || h.h5d || h.mpiioHdf5Name) ? ['sizes', 'hdf5'] : ctx.hasModule('LUSTRE') ? ['sizes', 'stripe'] : ['sizes'],
    });
  },
});
