import type { Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CommandModule } from './command.js';
import { UserError } from '../errors.js';
import { FdSink } from '../../util/output.js';
import { ConfigError, parseConfig } from '../../config/load.js';
import { evaluateDirectory, formatEvaluation } from '../../eval/evaluate.js';

interface EvalFlags {
  json?: boolean;
  config?: string;
  strict?: boolean;
}

const evalCommand: CommandModule = {
  name: 'eval',
  register(program: Command) {
    program
      .command('eval')
      .description("measure the default-mode diagnosis on labelled logs: each log's HIGH/WARN problem tags vs the EXPECTED labels of the directory's MANIFEST.md")
      .argument('[dir]', 'directory with the logs and MANIFEST.md', join('..', 'shared', 'darshan-logs', 'generated'))
      .option('--json', 'print the evaluation as JSON')
      .option('--config <file>', 'thresholds and check settings (as for iolens report)')
      .option('--strict', 'exit with status 3 when a label is missed or a HIGH false alarm is raised')
      .action((dir: string, flags: EvalFlags) => {
        const d = resolve(dir);
        if (!existsSync(join(d, 'MANIFEST.md'))) throw new UserError(`${dir}: no MANIFEST.md there`);
        let config;
        if (flags.config) {
          try {
            config = parseConfig(readFileSync(flags.config, 'utf8'), flags.config);
          } catch (err) {
            if (err instanceof ConfigError) throw new UserError(err.message);
            throw new UserError(`--config ${flags.config}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
          }
        }
        const e = evaluateDirectory(d, config);
        const out = new FdSink(1);
        out.write(flags.json ? `${JSON.stringify({ logs: e.logs, labels: e.labels, totals: e.totals, missingLogs: e.missingLogs }, null, 2)}\n` : formatEvaluation(e));
        out.flush();
        if (flags.strict && (e.totals.misses > 0 || e.totals.falseAlarms > 0)) process.exitCode = 3;
      });
  },
};

export default evalCommand;
