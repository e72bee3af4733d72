import { ByteSink } from '../../util/byte-sink.js';
import { FdSink } from '../../util/output.js';
import { printParserText } from '../../formats/darshan/print/parser-text.js';
import { printPerfText } from '../../formats/darshan/print/perf-text.js';
import { printDxtText } from '../../formats/darshan/print/dxt-text.js';
import { printJsonDump } from '../../formats/darshan/print/json-dump.js';
import { openLogOrExit } from '../open-log.js';

export interface ParseOptions {
  perf?: boolean;
  dxt?: boolean;
  json?: boolean;
}

/** `iolens parse`: darshan-parser / darshan-dxt-parser compatible text, or the JSON dump. */
export function runParse(file: string, opts: ParseOptions): void {
  const log = openLogOrExit(file);
  if (opts.json) {
    const sink = new FdSink(1, 'utf8');
    printJsonDump(log, sink, { dxt: !!opts.dxt });
    sink.flush();
    return;
  }
  const out = new ByteSink(1);
  const warn = (line: string) => process.stderr.write(line + '\n');
  if (log.job.legacyJobLayout) {
    warn('# Note: this 3.41 log stores its job record in the older layout (a Darshan 3.4 development runtime); read in that layout, where darshan-parser misreads it.');
  }
  if (opts.dxt) printDxtText(log, out, warn);
  else if (opts.perf) printPerfText(log, out, warn);
  else printParserText(log, out, warn);
  out.flush();
}
