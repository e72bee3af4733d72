import { padStart } from '../../../util/cfmt.js';
import { ByteSink, putIntPad } from '../../../util/byte-sink.js';
import type { DarshanLog } from '../log.js';
import type { DxtTable } from '../modules/dxt.js';
import type { LustreTable } from '../modules/lustre.js';
import { MODULES } from '../modules/registry.js';
import { printJobHeader } from './parser-text.js';
import { printAsBytesAsync, type TextOut } from './text-out.js';
import { dxtTables, type DxtBatchOptions } from '../dxt-batches.js';
import type { NameResolver } from '../module-types.js';

const TWO_SPACES = Buffer.from('  ', 'latin1');
const NO_THREAD = Buffer.from(' N/A\n', 'latin1');
const STARS = '# ***************************************************\n';

/** Lustre layout of one file, as darshan-dxt-parser uses it to name the OSTs a segment touches. */
interface Layout {
  comps: { size: number; count: number; extStart: number; extEnd: number }[];
  osts: string[];
}

function lustreLayouts(log: DarshanLog): Map<bigint, Layout> {
  const out = new Map<bigint, Layout>();
  const res = log.decode<LustreTable>('LUSTRE');
  if (!res) return out;
  const t = res.table;
  for (let r = 0; r < t.length; r++) {
    const comps: Layout['comps'] = [];
    for (let c = 0; c < t.numComponents.get(0, r); c++) {
      const row = t.componentStart[r] + c;
      comps.push({ size: t.components.get(0, row), count: t.components.get(1, row), extStart: t.components.get(4, row), extEnd: t.components.get(5, row) });
    }
    const osts: string[] = [];
    for (let j = 0; j < t.ostCount[r]; j++) osts.push(t.osts.text(t.ostStart[r] + j));
    out.set(t.ids[r], { comps, osts }); // a later record with the same id wins, as in darshan-dxt-parser's hash
  }
  return out;
}

function ostsTouched(L: Layout, offset: number, length: number): string {
  let s = '';
  let cur = offset;
  let ostBase = 0;
  let printed = 0;
  for (const c of L.comps) {
    if (c.count === 0) continue; // data-on-metadata component
    const inComp = (x: number) => x < c.extEnd || c.extEnd === -1;
    if (cur >= c.extStart && inComp(cur)) {
      let compOff = cur - c.extStart;
      let idx = Math.floor(compOff / c.size) % c.count;
      while (cur < offset + length && inComp(cur)) {
        s += ` [${L.osts[ostBase + idx] ?? '0'}]`;
        idx = idx === c.count - 1 ? 0 : idx + 1;
        compOff = (Math.floor(compOff / c.size) + 1) * c.size;
        cur = c.extStart + compOff;
        if (++printed >= c.count) {
          cur = c.extEnd === -1 ? offset + length : c.extEnd;
          break;
        }
      }
    }
    ostBase += c.count;
  }
  return L.comps.length ? s + '  ' : s;
}

function threadCount(t: DxtTable, r: number): number {
  const n = t.writeCount[r] + t.readCount[r];
  if (!t.threadIds || n === 0) return 1;
  const seen = new Set<number>();
  const col = t.threadIds.col(0);
  for (let s = t.segStart[r]; s < t.segStart[r] + n; s++) seen.add(col[s]);
  return seen.size;
}

/** Incomplete-data notice of darshan-dxt-parser (our wording). */
function incompleteNotice(name: string): string {
  return (
    `\n# *WARNING*: The ${name} module contains incomplete data!\n` +
    '#            The Darshan runtime ran out of memory for this module,\n' +
    '#            so some trace segments are missing.\n'
  );
}

/**
 * darshan-dxt-parser's output (with `--show-incomplete`): the job header, then every DXT_POSIX and DXT_MPIIO
 * record with its segments, the Lustre OSTs each POSIX segment touched when the log has the file's layout.
 * Segment lines are written as bytes (numbers digit by digit); any other `TextOut` gets the same bytes as text. A
 * large DXT region is printed batch by batch as it is inflated (`dxtTables`; `opts` forces it for tests), so the
 * output starts at once and memory holds one batch of records, not the region and its decoded columns.
 */
export async function printDxtText(log: DarshanLog, out: TextOut | ByteSink, warn: (line: string) => void, opts: DxtBatchOptions = {}): Promise<void> {
  await printAsBytesAsync(out, (sink) => printDxtBytes(log, sink, warn, opts));
}

async function printDxtBytes(log: DarshanLog, out: ByteSink, warn: (line: string) => void, opts: DxtBatchOptions): Promise<void> {
  printJobHeader(log, out);
  const h = log.header;
  if (h.moduleRegions[10].len === 0 && h.moduleRegions[11].len === 0) {
    out.write('\n# no DXT module data available for this Darshan log.\n');
    return;
  }
  const names = log.parserNames();
  let layouts: Map<bigint, Layout> | null = null;
  for (let i = 0; i < 64; i++) {
    if (h.moduleRegions[i].len === 0) continue;
    const row = MODULES[i];
    if (!row) {
      warn(`# Warning: module id ${i} is unknown. You may need a newer version of IOLens to parse it.`);
      continue;
    }
    if (!row.codec) {
      warn(`Warning: no log utility handlers defined for module ${row.name}, SKIPPING.`);
      continue;
    }
    const isDxt = row.name === 'DXT_POSIX' || row.name === 'DXT_MPIIO';
    if (isDxt) out.write(`\n${STARS}# ${row.name} module data\n${STARS}`);
    else if (row.name !== 'LUSTRE') continue;
    if (log.isPartial(i)) out.write(incompleteNotice(row.name));
    if (row.name === 'LUSTRE') {
      layouts = lustreLayouts(log);
      const err = log.decode('LUSTRE')?.error;
      if (err) {
        warn(`Error: failed to parse LUSTRE module record. (${err})`);
        return;
      }
      continue;
    }
    const posix = row.name === 'DXT_POSIX';
    for await (const res of dxtTables(log, i, opts)) {
      printRecords(res.table, out, names, posix && layouts ? layouts : null);
      if (res.error) {
        warn(`Error: failed to parse ${row.name} module record. (${res.error})`);
        return;
      }
    }
  }
}

/** The records of one decoded DXT table (a module's, or a batch of it) with their segment lines. */
function printRecords(t: DxtTable, out: ByteSink, names: NameResolver, layouts: Map<bigint, Layout> | null): void {
  const posix = t.module === 'DXT_POSIX';
  const tag = posix ? ' X_POSIX' : ' X_MPIIO';
  const ol = t.offsetLength;
  const olData = ol.data;
  const olRows = ol.rows;
  for (let r = 0; r < t.length; r++) {
    const id = t.ids[r];
    const name = names.name(id);
    const m = names.mount(name);
    const rank = t.ranks.text(0, r);
    const L = layouts ? layouts.get(id) : undefined;
    let head =
      `\n# DXT, file_id: ${id}, file_name: ${name ?? '(null)'}\n` +
      `# DXT, rank: ${rank}, hostname: ${t.hostnames[r]}\n` +
      `# DXT, number of threads: ${threadCount(t, r)}\n` +
      `# DXT, write_count: ${t.writeCount[r]}, read_count: ${t.readCount[r]}\n` +
      `# DXT, mnt_pt: ${m ? m.path : 'UNKNOWN'}, fs_type: ${m ? m.fsType : 'UNKNOWN'}\n`;
    if (L) {
      head += '# DXT, Lustre stripe components:\n';
      let k = 0;
      L.comps.forEach((c, ci) => {
        let osts = '';
        for (let j = 0; j < c.count; j++, k++) osts += ` ${L.osts[k] ?? '0'}`;
        head += `#\t[Component ${ci + 1}] stripe_ext: ${c.extStart} - ${c.extEnd === -1 ? 'EOF' : c.extEnd}, stripe_size: ${c.size}, stripe_count: ${c.count}, OSTs:${osts}\n`;
      });
    }
    head += `# Module    Rank  Wt/Rd  Segment          Offset          Length    Start(s)      End(s)${L ? '   [OST]' : ''}   Pthread-ID\n`;
    out.write(head);
    const preWrite = Buffer.from(`${tag}${padStart(rank, 8)}  write`, 'latin1');
    const preRead = Buffer.from(`${tag}${padStart(rank, 8)}   read`, 'latin1');
    const w = t.writeCount[r];
    const n = w + t.readCount[r];
    const s0 = t.segStart[r];
    const exact = !ol.hasOverflow;
    const tids = t.threadIds;
    const tidExact = tids !== null && !tids.hasOverflow;
    const tidCol = tids ? tids.col(0) : null;
    const start = t.start;
    const end = t.end;
    for (let k = 0; k < n; k++) {
      const s = s0 + k;
      const isWrite = k < w;
      const offset = olData[s];
      const length = olData[olRows + s];
      const pre = isWrite ? preWrite : preRead;
      // One line: 15 + 9 + 16 + 16 + 12 + 12 + 2 bytes before the OSTs and the thread id.
      const buf = out.reserve(160);
      let p = out.at;
      buf.set(pre, p);
      p = putIntPad(buf, p + pre.length, isWrite ? k : k - w, 9);
      if (exact) {
        p = putIntPad(buf, p, offset, 16);
        p = putIntPad(buf, p, length, 16);
        out.advance(p);
      } else {
        out.advance(p);
        out.textPad(ol.text(0, s), 16);
        out.textPad(ol.text(1, s), 16);
      }
      out.fixedPad(start[s], 12, 4);
      out.fixedPad(end[s], 12, 4);
      if (L) out.write('  ' + ostsTouched(L, offset, length));
      else out.bytes(TWO_SPACES);
      if (tidCol === null) out.bytes(NO_THREAD);
      else {
        const v = tidCol[s];
        if (tidExact && v >= 0 && v < 1e15) {
          const b = out.reserve(24);
          let q = out.at;
          b[q++] = 32;
          q = putIntPad(b, q, v, 4);
          b[q++] = 10;
          out.advance(q);
        } else out.write(` ${padStart(tids!.unsignedText(0, s), 4)}\n`);
      }
    }
  }
}
