import type { Command } from 'commander';
import { basename } from 'node:path';
import type { CommandModule } from './command.js';
import type { ModelBundle } from '../../models/bundle.js';
import { UserError } from '../errors.js';
import { readConfigFile } from '../config-file.js';
import { maxInflateOption, withMaxInflate } from '../limit-options.js';
import { writeAllSync } from '../../util/output.js';
import { escapeTerminal } from '../../text/escape.js';
import { safeJson } from '../../render/json.js';
import { compareInputs, compareWithHistory, resolveRuns } from '../../compare/run.js';
import { toolVersion } from '../../pipeline/resources.js';
import { renderCompareHtml, renderCompareMarkdown, renderCompareText } from '../../render/compare.js';
import { textWidth, WIDTH_FLAG } from '../width-option.js';

interface CompareFlags {
  json?: boolean;
  markdown?: boolean;
  html?: boolean;
  config?: string;
  maxInflate?: string;
  model?: string;
  db?: string;
  app?: string;
  width?: string;
}

const cmd: CommandModule = {
  name: 'compare',
  register(program: Command) {
    withMaxInflate(
      program
        .command('compare')
        .description('why one run was slower than another: where the time went in each, side by side, and the differences ranked by the seconds they cost (docs/compare.md)')
        .argument('<runs...>', 'the base run, then the others: Darshan logs or traces (file or folder), or job hashes of the store with --db; with --db and one run, that run against its application\'s history')
        .option('--json', 'print the comparison as JSON (docs/compare.md)')
        .option('--markdown', 'print Markdown')
        .option('--html', 'print a standalone HTML page with the time model side by side')
        .option(...WIDTH_FLAG)
        .option('--config <file>', 'thresholds and check settings for every run (as iolens report --config)')
        .option('--db <file>', 'a job store: runs may be job hashes; one run alone is compared with its application\'s history (docs/compare.md)')
        .option('--app <name>', 'with --db and one run: the application whose history to use (default: the run\'s)')
        .option('--model <file>', 'a model file of iolens train: attribute the predicted difference to features, with the base run as the reference (Darshan logs)'),
    ).action(async (runs: string[], flags: CompareFlags) => {
      if (!flags.db && runs.length < 2) throw new UserError('compare needs a base run and at least one other (or one run and --db, to compare it with its application\'s history)');
      if (flags.app !== undefined && !(flags.db && runs.length === 1)) throw new UserError('--app goes with --db and one run');
      const formats = (['json', 'markdown', 'html'] as const).filter((f) => flags[f]);
      if (formats.length > 1) throw new UserError(`choose one of --${formats.join(', --')}`);
      const config = await readConfigFile(flags.config);
      const maxInflate = maxInflateOption(flags.maxInflate);
      let model: { bundle: ModelBundle; name: string } | undefined;
      if (flags.model !== undefined) {
        const { checkJobsModel, loadBundle } = await import('../../models/bundle.js');
        const bundle = loadBundle(flags.model);
        checkJobsModel(bundle);
        model = { bundle, name: basename(flags.model) };
      }
      const opts = {
        toolVersion: toolVersion(),
        ...(model ? { model } : {}),
        diagnose: { ...(config ? { config } : {}), ...(maxInflate !== undefined ? { maxInflate } : {}) },
      };
      const c =
        flags.db && runs.length === 1
          ? await compareWithHistory(runs[0], { ...opts, db: flags.db, ...(flags.app !== undefined ? { app: flags.app } : {}) })
          : await compareInputs(await resolveRuns(runs, flags.db), opts);
      for (const f of c.failed) process.stderr.write(`iolens: ${escapeTerminal(f.error)} (not compared)\n`);
      const text = flags.json ? safeJson(c, 2) : flags.markdown ? renderCompareMarkdown(c) : flags.html ? renderCompareHtml(c) : renderCompareText(c, textWidth(flags.width));
      writeAllSync(1, Buffer.from(text, 'utf8'));
      // the comparison stands, but an input the user named was left out
      if (c.failed.length) process.exitCode = 2;
    });
  },
};

export default cmd;
