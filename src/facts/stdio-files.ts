import { defineFact } from './define-fact.js';
import { groupById, sumByGroup } from './group.js';

/** Darshan's pseudo-files for the standard streams (`<STDOUT>`, `<STDERR>`, `<STDIN>`): console, not file I/O. */
export function isStdStream(name: string | null): boolean {
  return name !== null && /^<STD(IN|OUT|ERR)>$/.test(name);
}

export default defineFact({
  name: 'stdio.files',
  description: 'STDIO counters per file, standard streams (<STDOUT>, <STDERR>, <STDIN>) left out.',
  fieldCounters: {
    opens: ['STDIO_OPENS'],
    reads: ['STDIO_READS'],
    writes: ['STDIO_WRITES'],
    bytesRead: ['STDIO_BYTES_READ'],
    bytesWritten: ['STDIO_BYTES_WRITTEN'],
    readTime: ['STDIO_F_READ_TIME'],
    writeTime: ['STDIO_F_WRITE_TIME'],
    metaTime: ['STDIO_F_META_TIME'],
  },
  compute(src) {
    const t = src.fixed('STDIO');
    if (!t) return null;
    const std = new Map<bigint, boolean>();
    for (const id of t.ids) if (!std.has(id)) std.set(id, isStdStream(src.log.names.get(id)));
    const g = groupById(t.ids, (r) => !std.get(t.ids[r]));
    const sum = (name: string) => sumByGroup(g, t.int(name as never));
    const fsum = (name: string) => sumByGroup(g, t.float(name as never));
    return {
      ids: g.keys,
      opens: sum('STDIO_OPENS'),
      reads: sum('STDIO_READS'),
      writes: sum('STDIO_WRITES'),
      bytesRead: sum('STDIO_BYTES_READ'),
      bytesWritten: sum('STDIO_BYTES_WRITTEN'),
      readTime: fsum('STDIO_F_READ_TIME'),
      writeTime: fsum('STDIO_F_WRITE_TIME'),
      metaTime: fsum('STDIO_F_META_TIME'),
    };
  },
});
