import { cCtimeUtc, cF6, cFixed } from '../../../util/cfmt.js';
import type { DarshanLog } from '../log.js';
import type { RecordSink } from '../module-types.js';
import { MODULES, type ModuleRow } from '../modules/registry.js';
import { printAsBytes, type TextOut } from './text-out.js';
import { ByteSink, putFixedPad, putIntPad } from '../../../util/byte-sink.js';

const STARS = '# *******************************************************\n';
const RULE = '# -------------------------------------------------------\n';

/** The job header, region table and mount table shared by every darshan-parser style output. */
export function printJobHeader(log: DarshanLog, out: TextOut): void {
  const h = log.header;
  const j = log.job;
  if (h.versionString === '3.20') {
    out.write('# WARNING: logs written by Darshan runtime 3.2.0 are known to hold corrupted counter values\n');
    out.write('#          (COMMON_ACCESS counters of POSIX, MPI-IO and HDF5 at least); treat all values with care.\n');
  }
  out.write(`# darshan log version: ${h.versionString}\n`);
  out.write(`# compression method: ${log.compressionName}\n`);
  out.write(`# exe: ${j.exe}\n`);
  out.write(`# uid: ${j.uid}\n`);
  out.write(`# jobid: ${j.jobid}\n`);
  out.write(`# start_time: ${j.startTimeSec}\n`);
  out.write(`# start_time_asci: ${cCtimeUtc(j.startTimeSec)}`);
  out.write(`# end_time: ${j.endTimeSec}\n`);
  out.write(`# end_time_asci: ${cCtimeUtc(j.endTimeSec)}`);
  out.write(`# nprocs: ${j.nprocs}\n`);
  out.write(`# run time: ${cFixed(j.runTimeSeconds, 4)}\n`);
  for (const [k, v] of j.metadata) out.write(`# metadata: ${k} = ${v}\n`);
  out.write('\n# log file regions\n' + RULE);
  out.write('# header: 1328 bytes (uncompressed)\n');
  out.write(`# job data: ${h.jobRegion.len} bytes (compressed)\n`);
  out.write(`# record table: ${h.nameRegion.len} bytes (compressed)\n`);
  for (const s of log.slots()) {
    if (s.id < MODULES.length) out.write(`# ${s.name} module: ${s.region.len} bytes (compressed), ver=${s.version}\n`);
  }
  for (const s of log.slots()) {
    if (s.id >= MODULES.length) out.write(`# <UNKNOWN> module (id ${s.id}): ${s.region.len} bytes (compressed), ver=${s.version}\n`);
  }
  out.write('\n# mounted file systems (mount point and fs type)\n' + RULE);
  for (const m of log.job.mounts) out.write(`# mount entry:\t${m.path}\t${m.fsType}\n`);
}

/** Incomplete-data notice printed under a module banner when the runtime dropped records. */
export function incompleteNotice(name: string): string {
  return (
    `\n# *WARNING*: The ${name} module contains incomplete data!\n` +
    '#            The Darshan runtime ran out of memory for this module,\n' +
    '#            so records of some files are missing.\n' +
    '\n# To avoid this, see the darshan-runtime documentation on excluding\n' +
    '# files that need not be instrumented (NAME_EXCLUDE settings).\n'
  );
}

/** Banner that opens a module section. */
export function moduleBanner(name: string): string {
  return `\n${STARS}# ${name} module data\n${STARS}`;
}

/**
 * darshan-parser's counter lines (`module rank id counter value file mount fs`) written straight into bytes: no
 * per-line strings. Consecutive lines of a record share one copy of "suffix of this line + prefix of the next".
 */
class ByteLineSink implements RecordSink {
  // The current record's "suffix of a line + prefix of the next", stashed in the sink: the suffix first, then the
  // prefix. A record's first line starts with the prefix alone. Counter names are stashed once per module.
  private glue = 0;
  private sufLen = 0;
  private preLen = 0;
  private mark: number;
  private open = false;
  private first = true;
  constructor(private readonly out: ByteSink) {
    this.mark = out.stashMark();
  }
  record(module: string, rank: string, id: string, file: string, mount: string, fs: string): void {
    this.end();
    const suf = `\t${file}\t${mount}\t${fs}\n`;
    const pre = `${module}\t${rank}\t${id}\t`;
    this.out.stashReset(this.mark);
    this.glue = this.out.stash(suf + pre);
    this.sufLen = suf.length;
    this.preLen = pre.length;
    this.open = true;
    this.first = true;
  }
  /** Writes what goes before a counter name: the prefix on a record's first line, else suffix + prefix. */
  private lead(): void {
    if (this.first) this.out.putStash(this.glue + this.sufLen, this.preLen);
    else this.out.putStash(this.glue, this.sufLen + this.preLen);
    this.first = false;
  }
  counter(name: string, value: string): void {
    this.lead();
    this.out.write(name);
    this.out.write('\t');
    this.out.write(value);
  }
  prepare(names: readonly string[]): readonly unknown[] {
    this.out.stashReset(this.mark);
    const handles = names.map((n) => [this.out.stash(n + '\t'), n.length + 1]);
    this.mark = this.out.stashMark();
    return handles;
  }
  counterIntPrepared(name: unknown, value: number): void {
    this.lead();
    const [h, len] = name as [number, number];
    this.out.putStash(h, len);
    this.out.intPad(value, 0);
  }
  counterPrepared(name: unknown, value: string): void {
    this.lead();
    const [h, len] = name as [number, number];
    this.out.putStash(h, len);
    this.out.write(value);
  }
  rawCounters(intKeys: readonly unknown[], unsignedCols: readonly boolean[], i32: Int32Array, u32: Uint32Array, intWord: number, floatKeys: readonly unknown[], f64: Float64Array, floatWord: number): void {
    const out = this.out;
    const full = this.sufLen + this.preLen;
    let from = this.first ? this.sufLen : 0;
    for (let c = 0, w = intWord; c < intKeys.length; c++, w += 2) {
      const hi = i32[w + 1];
      const lo = u32[w];
      const [h, len] = intKeys[c] as [number, number];
      if (hi <= 2097151 && hi >= (unsignedCols[c] ? 0 : -2097152)) {
        const buf = out.reserve(full + len + 24);
        let p = out.stashTo(out.at, this.glue + from, full - from);
        p = out.stashTo(p, h, len);
        out.advance(putIntPad(buf, p, hi * 4294967296 + lo, 0));
      } else {
        out.putStash(this.glue + from, full - from);
        out.putStash(h, len);
        const big = (BigInt(hi) << 32n) | BigInt(lo);
        out.write((unsignedCols[c] ? BigInt.asUintN(64, big) : big).toString());
      }
      from = 0;
    }
    for (let c = 0, w = floatWord; c < floatKeys.length; c++, w++) {
      const [h, len] = floatKeys[c] as [number, number];
      const x = f64[w];
      const buf = out.reserve(full + len + 32);
      let p = out.stashTo(out.at, this.glue + from, full - from);
      p = out.stashTo(p, h, len);
      const q = putFixedPad(buf, p, x, 0, 6);
      if (q >= 0) out.advance(q);
      else {
        out.advance(p);
        out.write(cF6(x));
      }
      from = 0;
    }
    if (intKeys.length + floatKeys.length > 0) this.first = false;
  }
  end(): void {
    if (this.open && !this.first) this.out.putStash(this.glue, this.sufLen);
    this.open = false;
  }
}

/** A short description of a module's counters, printed under its banner. */
function describe(name: string): string {
  return (
    `\n# ${name} counters: one line per counter of each record; rank -1 is a record shared by all ranks,\n` +
    '# aggregated over them. A value of -1 means Darshan could not measure that counter.\n'
  );
}

/**
 * darshan-parser's base output (with `--show-incomplete`): job header, regions, mounts, then every module's
 * records. Warnings and per-module errors go to `warn` (one line each). Our own wording replaces
 * darshan-parser's explanatory comments; every data line matches it exactly.
 */
export function printParserText(log: DarshanLog, out: TextOut | ByteSink, warn: (line: string) => void): void {
  printAsBytes(out, (sink) => printParserBytes(log, sink, warn));
}

function printParserBytes(log: DarshanLog, out: ByteSink, warn: (line: string) => void): void {
  printJobHeader(log, out);
  out.write(
    '\n# columns: <module> <rank> <record id> <counter> <value> <file name> <mount point> <fs type>\n' +
      '#   rank -1: a file shared by all processes (counters aggregated over them)\n' +
      '#   record id: 64-bit hash of the file name; value -1: not measured\n',
  );
  const names = log.parserNames();
  const sink = new ByteLineSink(out);
  const allEmpty = visitModuleSections(log, warn, ({ id, row, name, regionLen, partial }) => {
    out.write(moduleBanner(name));
    if (partial) out.write(incompleteNotice(name));
    if (regionLen === 0 || !row?.codec?.print) return;
    out.write(describe(name));
    out.write('\n#<module>\t<rank>\t<record id>\t<counter>\t<value>\t<file name>\t<mount pt>\t<fs type>\n');
    const res = log.decode(id);
    if (!res) return;
    row.codec.print(res.table, sink, names);
    sink.end();
    if (res.error) warn(`Error: failed to parse ${name} module record. (${res.error})`);
  });
  if (allEmpty) out.write('\n# no module data available.\n');
}

/** A module slot that gets a section (banner) in darshan-parser's output. */
export interface ModuleSection {
  readonly id: number;
  /** Registry row; undefined for ids darshan-util does not know (printed as `<UNKNOWN>`). */
  readonly row: ModuleRow | undefined;
  readonly name: string;
  readonly regionLen: number;
  readonly partial: boolean;
}

/**
 * darshan-parser's module loop: visits, in id order, every slot that gets a section — slots with data that have a
 * printer, and empty slots flagged incomplete — and warns (one line each) about slots with data it cannot print:
 * unknown ids, and modules without handlers (DXT is skipped silently: darshan-dxt-parser prints it). Returns true
 * when every slot is empty, for the final "no module data" line.
 */
export function visitModuleSections(log: DarshanLog, warn: (line: string) => void, visit: (m: ModuleSection) => void): boolean {
  let empty = 0;
  for (let i = 0; i < 64; i++) {
    const regionLen = log.header.moduleRegions[i].len;
    const partial = log.isPartial(i);
    const row = MODULES[i];
    if (regionLen === 0) {
      empty++;
      if (!partial) continue;
    } else if (!row) {
      warn(`# Warning: module id ${i} is unknown. You may need a newer version of IOLens to parse it.`);
      continue;
    } else if (!row.codec || !row.codec.print) {
      if (row.name !== 'DXT_POSIX' && row.name !== 'DXT_MPIIO') warn(`# Warning: no log utility handlers defined for module ${row.name}, SKIPPING.`);
      continue;
    }
    visit({ id: i, row, name: row ? row.name : '<UNKNOWN>', regionLen, partial });
  }
  return empty === 64;
}
