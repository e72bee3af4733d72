import { defineFact } from './define-fact.js';
import { groupById, maxByGroup, sumByGroup } from './group.js';
import { storageRow } from './not-storage.js';

/** Darshan's pseudo-files for the standard streams (`<STDOUT>`, `<STDERR>`, `<STDIN>`): console, not file I/O. */
export function isStdStream(name: string | null): boolean {
  return name !== null && /^<STD(IN|OUT|ERR)>$/.test(name);
}

export default defineFact({
  name: 'stdio.files',
  description: 'STDIO counters per file; standard streams (<STDOUT>, <STDERR>, <STDIN>) and other files that are not storage left out.',
  fieldCounters: {
    opens: ['STDIO_OPENS'],
    reads: ['STDIO_READS'],
    writes: ['STDIO_WRITES'],
    seeks: ['STDIO_SEEKS'],
    flushes: ['STDIO_FLUSHES'],
    bytesRead: ['STDIO_BYTES_READ'],
    bytesWritten: ['STDIO_BYTES_WRITTEN'],
    extent: ['STDIO_MAX_BYTE_READ', 'STDIO_MAX_BYTE_WRITTEN', 'STDIO_BYTES_READ', 'STDIO_BYTES_WRITTEN'],
    readTime: ['STDIO_F_READ_TIME'],
    writeTime: ['STDIO_F_WRITE_TIME'],
    metaTime: ['STDIO_F_META_TIME'],
  },
  compute(src) {
    const t = src.fixed('STDIO');
    if (!t) return null;
    // The standard streams and every other file that is not storage (src/facts/not-storage.ts) are left out.
    const g = groupById(t.ids, storageRow(src, t.ids));
    const sum = (name: string) => sumByGroup(g, t.int(name as never));
    const fsum = (name: string) => sumByGroup(g, t.float(name as never));
    const mbr = maxByGroup(g, t.int('STDIO_MAX_BYTE_READ' as never));
    const mbw = maxByGroup(g, t.int('STDIO_MAX_BYTE_WRITTEN' as never));
    const bytesRead = sum('STDIO_BYTES_READ');
    const bytesWritten = sum('STDIO_BYTES_WRITTEN');
    // The maxima are offsets of the last byte (0 also when nothing moved): the extent counts bytes.
    const extent = new Float64Array(g.keys.length);
    for (let i = 0; i < extent.length; i++) extent[i] = bytesRead[i] + bytesWritten[i] > 0 ? Math.max(0, mbr[i] + 1, mbw[i] + 1) : 0;
    return {
      ids: g.keys,
      opens: sum('STDIO_OPENS'),
      reads: sum('STDIO_READS'),
      writes: sum('STDIO_WRITES'),
      seeks: sum('STDIO_SEEKS'),
      flushes: sum('STDIO_FLUSHES'),
      bytesRead,
      bytesWritten,
      extent,
      readTime: fsum('STDIO_F_READ_TIME'),
      writeTime: fsum('STDIO_F_WRITE_TIME'),
      metaTime: fsum('STDIO_F_META_TIME'),
    };
  },
});
