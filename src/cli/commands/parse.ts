import type { Command } from 'commander';
import type { CommandModule } from './command.js';
import type { ParseOptions } from '../actions/parse.js';

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
      .action(async (file: string, opts: ParseOptions) => {
        (await import('../actions/parse.js')).runParse(file, opts);
      });
  },
};

export default parse;
