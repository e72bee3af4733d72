const which = process.argv[3] ?? '';
if (which === 'core') await import('zod/v4/core');
if (which === 'mini') await import('zod/mini');
if (which === 'full') await import('zod');
if (which === 'schema') { const { z } = await import('zod'); z.object({ a: z.number() }).parse({ a: 1 }); }
if (which === 'gc') { const { z } = await import('zod'); globalThis.gc?.(); }
const { analyzeTrace } = await import('/work/main/dist/trace/analyze.js');
const r = await analyzeTrace([process.argv[2]], { threads: 1 });
console.error('events', r.report.input.events);
