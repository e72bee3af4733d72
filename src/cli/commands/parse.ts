import type { Command } from 'commander';
import type { CommandModule } from './command.js';
import type { ParseOptions } from '../actions/parse.js';
import { withMaxInflate } from '../limit-options.js';

const parse: CommandModule = {
  name: 'parse',
  register(program: Command) {
    const cmd = program
      .command('parse')
      .description("print a Darshan log's contents (like darshan-parser --show-incomplete)")
      .argument('<log>', 'Darshan log file (.darshan)')
      .option('--perf', "print each module's performance estimates (like darshan-parser --perf)")
      .option('--dxt', 'print the DXT trace segments (like darshan-dxt-parser --show-incomplete)')
      .option('--json', 'print the log as one JSON document (with --dxt: including DXT segments; see docs/parse-json.md)')
      .option('--escape', 'show control characters of names as \\xNN escapes (the default when printing to a terminal)')
      .option('--no-escape', "write names byte for byte even to a terminal (the default for files and pipes, as darshan-parser)");
    withMaxInflate(cmd).action(async (file: string, opts: ParseOptions) => {
      await (await import('../actions/parse.js')).runParse(file, opts);
    });
  },
};

export default parse;
