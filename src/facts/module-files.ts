import { FILE_SIZE_BINS } from '../contract/charts.js';
import { FixedTable } from '../formats/darshan/index.js';
import { defineFact } from './define-fact.js';
import { MODULE_TOTALS, measureColumn } from './module-measures.js';

/** Modules whose files are summarised, with the counters of the highest byte touched (none for MPI-IO). */
const FILE_MODULES = [
  { module: 'POSIX', maxBytes: ['POSIX_MAX_BYTE_READ', 'POSIX_MAX_BYTE_WRITTEN'] },
  { module: 'MPI-IO', maxBytes: [] },
  { module: 'STDIO', maxBytes: ['STDIO_MAX_BYTE_READ', 'STDIO_MAX_BYTE_WRITTEN'] },
] as const;

/** Index of the FILE_SIZE_BINS bin of a size in bytes. */
export function fileSizeBin(bytes: number): number {
  return FILE_SIZE_BINS.findIndex((b) => bytes <= b.max);
}

export default defineFact({
  name: 'modules.files',
  description:
    "Files per module (POSIX, MPI-IO, STDIO), records of one file summed over ranks: read-only, write-only, read-write and no-data files, bytes, and a histogram of file sizes — the highest byte the job touched + 1 (MPI-IO files take their POSIX record's size, else the bytes moved).",
  compute(src) {
    const modules: { module: string; total: number; readOnly: number; writeOnly: number; readWrite: number; noData: number; bytesRead: number; bytesWritten: number; sizes: number[] }[] = [];
    const posixExtent = new Map<bigint, number>();
    for (const fm of FILE_MODULES) {
      if (!src.log.has(fm.module)) continue;
      const t = src.fixed(fm.module);
      if (!(t instanceof FixedTable) || t.length === 0) continue;
      const spec = MODULE_TOTALS.find((m) => m.module === fm.module)!;
      const zero = new Float64Array(t.length);
      const [reads, writes, br, bw] = [spec.reads, spec.writes, spec.bytesRead, spec.bytesWritten].map((c) => measureColumn(t, c) ?? zero);
      const maxCols = fm.maxBytes.filter((c) => t.intCol(c) >= 0).map((c) => t.int(c as never) as Float64Array);
      const files = new Map<bigint, { r: number; w: number; br: number; bw: number; max: number }>();
      for (let i = 0; i < t.length; i++) {
        const id = t.ids[i];
        let f = files.get(id);
        if (!f) files.set(id, (f = { r: 0, w: 0, br: 0, bw: 0, max: -1 }));
        f.r += reads[i];
        f.w += writes[i];
        f.br += br[i];
        f.bw += bw[i];
        for (const c of maxCols) if (c[i] > f.max) f.max = c[i];
      }
      const out = { module: fm.module, total: files.size, readOnly: 0, writeOnly: 0, readWrite: 0, noData: 0, bytesRead: 0, bytesWritten: 0, sizes: FILE_SIZE_BINS.map(() => 0) };
      for (const [id, f] of files) {
        if (f.r > 0 && f.w > 0) out.readWrite++;
        else if (f.r > 0) out.readOnly++;
        else if (f.w > 0) out.writeOnly++;
        else out.noData++;
        out.bytesRead += f.br;
        out.bytesWritten += f.bw;
        let size: number;
        if (maxCols.length) size = f.br + f.bw > 0 ? f.max + 1 : 0;
        else size = posixExtent.get(id) ?? f.br + f.bw;
        if (fm.module === 'POSIX') posixExtent.set(id, size);
        out.sizes[fileSizeBin(size)]++;
      }
      modules.push(out);
    }
    return { modules };
  },
});
