import { defineCheck } from '../define-check.js';

/** P07: many POSIX requests whose memory buffer is not aligned (POSIX_MEM_NOT_ALIGNED / all requests). */
export default defineCheck({
  meta: {
    code: 'P07',
    slug: 'misaligned-memory',
    title: 'Memory buffers are aligned',
    failureTitle: 'Many requests from misaligned memory buffers',
    description:
      'Darshan counts requests whose buffer address is not a multiple of the memory alignment it detected. ' +
      'Misaligned buffers can force extra copies (notably with direct I/O).',
    panel: 'METADATA',
    layer: 'POSIX',
    scope: 'job',
    level: 'HIGH',
    problem: 'misaligned-memory',
    requires: ['posix.totals'],
    options: { ratio: { knob: 'misaligned_requests', description: 'Share of requests with misaligned memory above which this fires.' } },
    messages: { misaligned: '{ratio:pct} of the POSIX requests use misaligned memory buffers' },
    recommendations: {},
    compat: {
      drishti: 'P07',
      differences: [{ id: 'warn', description: 'Drishti says HIGH; the default mode says WARN: buffered I/O copies through the page cache whatever the alignment, so misaligned buffers cost little except with direct I/O.' }],
    },
  },
  run(ctx) {
    const t = ctx.fact('posix.totals');
    const ops = t.reads + t.writes;
    if (!(ops && t.memNotAligned / ops > ctx.options.ratio)) return;
    // The POSIX reads and writes in proportion to the misaligned buffers: what the extra copy costs is part of it.
    const p = ctx.mode === 'default' ? ctx.tryFact('posix.files') : null;
    let data = 0;
    if (p) for (let i = 0; i < p.ids.length; i++) data += Math.max(0, p.readTime[i]) + Math.max(0, p.writeTime[i]);
    ctx.report({
      ...(ctx.mode === 'default' ? { level: 'WARN' as const, cost: { seconds: (data * t.memNotAligned) / ops, basis: 'bound' as const } } : {}),
      messageId: 'misaligned',
      data: { ratio: t.memNotAligned / ops },
      evidence: [
        { name: 'memNotAligned', value: t.memNotAligned, unit: 'count', source: 'POSIX_MEM_NOT_ALIGNED' },
        { name: 'operations', value: ops, unit: 'count', source: 'POSIX_READS + POSIX_WRITES' },
      ],
    });
  },
});
