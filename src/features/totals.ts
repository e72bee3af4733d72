import { MEASURE_COLUMN, MEASURE_DOC, MODULE_TOTALS, TOTAL_MEASURES } from '../facts/module-measures.js';
import { col, defineFeatureSet } from './define.js';

const MEASURE_UNIT = { opens: 'count', reads: 'count', writes: 'count', bytesRead: 'bytes', bytesWritten: 'bytes', readTime: 'seconds', writeTime: 'seconds', metaTime: 'seconds' } as const;

/**
 * Job totals per module (the `modules.totals` fact) and the bytes moved at the lowest layer. A module absent from the
 * log gives nulls (not zeros): "not instrumented" is not "did nothing". The job's I/O time is no feature: the store
 * takes it from the time model (src/pipeline/extract.ts, `io_time`).
 */
export default defineFeatureSet({
  id: 'totals',
  version: 2,
  description: "Per-module job totals (records, files, opens, operations, bytes, cumulative times; Darshan's −1 as 0) and the job's bytes at the lowest layer.",
  columnPrefix: '',
  columns: [
    col('total_bytes', 'double', 'bytes', 'bytes moved at the lowest layer: POSIX + STDIO bytes read and written'),
    ...MODULE_TOTALS.flatMap((m) => [
      col(`${m.key}_records`, 'bigint', 'count', `${m.module} records (file × rank)`),
      col(`${m.key}_files`, 'bigint', 'count', `${m.module} distinct record ids`),
      ...TOTAL_MEASURES.map((x) => col(`${m.key}_${MEASURE_COLUMN[x]}`, 'double', MEASURE_UNIT[x], `${m.module} ${MEASURE_DOC[x]}`)),
    ]),
  ],
  compute(facts) {
    const byKey = new Map(facts.get('modules.totals').modules.map((m) => [m.key, m]));
    const p = byKey.get('posix');
    const s = byKey.get('stdio');
    const bytes = (p ? p.bytesRead + p.bytesWritten : 0) + (s ? s.bytesRead + s.bytesWritten : 0);
    const out: (number | null)[] = [bytes];
    for (const spec of MODULE_TOTALS) {
      const m = byKey.get(spec.key);
      out.push(m ? m.records : null, m ? m.files : null, ...TOTAL_MEASURES.map((x) => (m ? m[x] : null)));
    }
    return out;
  },
});
