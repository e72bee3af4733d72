import type { Command } from 'commander';
import type { CommandModule } from './index.js';
import { ByteSink } from '../../util/byte-sink.js';
import { printParserText } from '../../formats/darshan/print/parser-text.js';
import { printPerfText } from '../../formats/darshan/print/perf-text.js';
import { printDxtText } from '../../formats/darshan/print/dxt-text.js';
import { printJsonDump } from '../../formats/darshan/print/json-dump.js';
import { FdSink } from '../../util/output.js';
import { openLogOrExit } from '../open-log.js';

const parse: CommandModule = {
  name: 'parse',
  register(program: Command) {
    program
      .command('parse')
      .description("print a Darshan log's contents (like darshan-parser --show-incomplete)")
      .argument('<log>', 'Darshan log file (.darshan)')
      .option('--perf', "print each module's performance estimates (like darshan-parser --perf)")
      .option('--dxt', 'print the DXT trace segments (like darshan-dxt-parser --show-incomplete)')
      .option('--json', 'print the log as one JSON document (with --dxt: including DXT segments; see docs/parse-json.md)')
      .action((file: string, opts: { perf?: boolean; dxt?: boolean; json?: boolean }) => {
        const log = openLogOrExit(file);
        if (opts.json) {
          const sink = new FdSink(1, 'utf8');
          printJsonDump(log, sink, { dxt: !!opts.dxt });
          sink.flush();
          return;
        }
        const out = new ByteSink(1);
        const warn = (line: string) => process.stderr.write(line + '\n');
        if (opts.dxt) printDxtText(log, out, warn);
        else if (opts.perf) printPerfText(log, out, warn);
        else printParserText(log, out, warn);
        out.flush();
      });
  },
};

export default parse;
