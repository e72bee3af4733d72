import { cCtimeUtc, cFixed } from '../../../util/cfmt.js';
import type { DarshanLog } from '../log.js';
import type { RecordSink } from '../module-types.js';
import { MODULES, type ModuleRow } from '../modules/registry.js';
import type { TextOut } from './text-out.js';
import { ByteSink } from '../../../util/byte-sink.js';

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

class LineSink implements RecordSink {
  private pre = '';
  private suf = '';
  constructor(private readonly out: TextOut) {}
  record(module: string, rank: string, id: string, file: string, mount: string, fs: string): void {
    this.pre = `${module}\t${rank}\t${id}\t`;
    this.suf = `\t${file}\t${mount}\t${fs}\n`;
  }
  counter(name: string, value: string): void {
    this.out.write(this.pre + name + '\t' + value + this.suf);
  }
  end(): void {}
  prepare(names: readonly string[]): readonly unknown[] {
    return names;
  }
  counterIntPrepared(name: unknown, value: number): void {
    this.counter(name as string, String(value));
  }
  counterPrepared(name: unknown, value: string): void {
    this.counter(name as string, value);
  }
}

/**
 * The same lines written straight into bytes (the CLI path: no per-line strings). Consecutive lines of a record
 * share one copy of "suffix of this line + prefix of the next".
 */
class ByteLineSink implements RecordSink {
  private pre: Uint8Array = new Uint8Array(0);
  private suf: Uint8Array = new Uint8Array(0);
  private glue: Uint8Array = new Uint8Array(0);
  private open = false;
  private first = true;
  private readonly nameTab = new Map<string, Uint8Array>();
  constructor(private readonly out: ByteSink) {}
  record(module: string, rank: string, id: string, file: string, mount: string, fs: string): void {
    this.end();
    const pre = `${module}\t${rank}\t${id}\t`;
    const suf = `\t${file}\t${mount}\t${fs}\n`;
    this.pre = Buffer.from(pre, 'latin1');
    this.suf = Buffer.from(suf, 'latin1');
    this.glue = Buffer.from(suf + pre, 'latin1');
    this.open = true;
    this.first = true;
  }
  private head(name: string): void {
    const o = this.out;
    o.bytes(this.first ? this.pre : this.glue);
    this.first = false;
    let nb = this.nameTab.get(name);
    if (nb === undefined) {
      nb = Buffer.from(name + '\t', 'latin1');
      this.nameTab.set(name, nb);
    }
    o.bytes(nb);
  }
  counter(name: string, value: string): void {
    this.head(name);
    this.out.write(value);
  }
  prepare(names: readonly string[]): readonly unknown[] {
    return names.map((n) => Buffer.from(n + '\t', 'latin1'));
  }
  counterIntPrepared(name: unknown, value: number): void {
    this.out.headNameInt(this.first ? this.pre : this.glue, name as Uint8Array, value);
    this.first = false;
  }
  counterPrepared(name: unknown, value: string): void {
    this.out.headNameText(this.first ? this.pre : this.glue, name as Uint8Array, value);
    this.first = false;
  }
  end(): void {
    if (this.open && !this.first) this.out.bytes(this.suf);
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
  printJobHeader(log, out);
  out.write(
    '\n# columns: <module> <rank> <record id> <counter> <value> <file name> <mount point> <fs type>\n' +
      '#   rank -1: a file shared by all processes (counters aggregated over them)\n' +
      '#   record id: 64-bit hash of the file name; value -1: not measured\n',
  );
  const names = log.parserNames();
  const sink: RecordSink = out instanceof ByteSink ? new ByteLineSink(out) : new LineSink(out);
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
