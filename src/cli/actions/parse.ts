import { ByteSink } from '../../util/byte-sink.js';
import { FdSink } from '../../util/output.js';
import { printParserText } from '../../formats/darshan/print/parser-text.js';
import { printPerfText } from '../../formats/darshan/print/perf-text.js';
import { printDxtText } from '../../formats/darshan/print/dxt-text.js';
import { printJsonDump } from '../../formats/darshan/print/json-dump.js';
import { escapeJsonForTerminal, escapeTerminal } from '../../text/escape.js';
import { openLogOrExit, readingLog, readingLogAsync } from '../open-log.js';
import { maxInflateOption } from '../limit-options.js';

export interface ParseOptions {
  perf?: boolean;
  dxt?: boolean;
  json?: boolean;
  /** true: escape control characters; false: never; undefined: escape when stdout is a terminal. */
  escape?: boolean;
  maxInflate?: string;
}

/**
 * `iolens parse`: darshan-parser / darshan-dxt-parser compatible text, or the JSON dump. Names are written byte for
 * byte (as darshan-parser does) to files and pipes; on a terminal, or with --escape, their control characters are
 * shown as escapes so that a crafted log cannot drive the terminal. A damaged region met while printing ends the
 * output where darshan-parser's would end, then fails with one line naming the file.
 */
export async function runParse(file: string, opts: ParseOptions): Promise<void> {
  const maxInflate = maxInflateOption(opts.maxInflate);
  // DXT text streams a large DXT region from the file (the JSON dump and the other texts decode every module)
  const log = openLogOrExit(file, maxInflate === undefined ? {} : { maxInflate }, !!opts.dxt && !opts.json);
  const escape = opts.escape ?? !!process.stdout.isTTY;
  const warn = (line: string) => process.stderr.write((escape ? escapeTerminal(line) : line) + '\n');
  // darshan-parser's data warnings, on stderr for every output form (the text keeps darshan-parser's bytes): modules
  // the runtime flagged incomplete and format versions known to hold bad values.
  for (const s of log.slots()) {
    if (!s.partial) continue;
    const name = s.name ?? `module ${s.id}`;
    warn(`# Warning: the ${name} module contains incomplete data: the Darshan runtime ran out of memory for ${name.startsWith('DXT_') ? 'trace segments (calls after that point are not traced)' : 'records (some files are missing)'}.`);
  }
  if (log.header.versionString === '3.20') warn('# Warning: logs written by Darshan runtime 3.2.0 are known to hold corrupted counter values (COMMON_ACCESS counters of POSIX, MPI-IO and HDF5 at least).');
  if (opts.json) {
    const sink = new FdSink(1, 'utf8', 1 << 20, escape ? escapeJsonForTerminal : undefined);
    readingLog(file, () => printJsonDump(log, sink, { dxt: !!opts.dxt }));
    sink.flush();
    return;
  }
  const out = new ByteSink(1, 1 << 20, escape);
  if (log.job.legacyJobLayout) {
    warn('# Note: this 3.41 log stores its job record in the older layout (a Darshan 3.4 development runtime); read in that layout, where darshan-parser misreads it.');
  }

  try {
    if (opts.dxt) await readingLogAsync(file, () => printDxtText(log, out, warn));
    else {
      readingLog(file, () => {
        if (opts.perf) printPerfText(log, out, warn);
        else printParserText(log, out, warn);
      });
    }
  } finally {
    out.flush(true);
  }
}
