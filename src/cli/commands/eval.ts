import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CommandModule } from './command.js';
import { UserError } from '../errors.js';
import { FdSink, writeAllSync } from '../../util/output.js';
import { readConfigFile } from '../config-file.js';
import { evaluateDirectory, formatEvaluation } from '../../eval/evaluate.js';
import { evaluateLab, formatLabEvaluation, isLabDirectory } from '../../eval/lab.js';
import { safeJson } from '../../render/json.js';

interface EvalFlags {
  json?: boolean;
  config?: string;
  strict?: boolean;
  heldOut?: boolean;
  allRuns?: boolean;
  twins?: boolean;
  costs?: boolean;
  savings?: boolean;
  blame?: boolean;
}

/** The directories evaluated when none is named: the shared generated logs and the lab, those present. */
const DEFAULT_DIRS = [join('..', 'shared', 'darshan-logs', 'generated'), 'lab'];

/**
 * One evaluation of each lab (`--costs`, `--savings`), printed as JSON (one document, or a list for several labs) or
 * text; a lab that cannot be evaluated is one error line naming it.
 */
function printLabEvaluation<E>(flag: string, what: string, labs: readonly string[], flags: EvalFlags, evaluate: (dir: string) => E, json: (e: E) => unknown, text: (e: E, o: { all: boolean }) => string): void {
  if (!labs.length) throw new UserError(`${flag} needs a lab (a directory with MANIFEST.json): ${what} come from its manifest`);
  const all = labs.map((d) => {
    try {
      return evaluate(d);
    } catch (err) {
      throw new UserError(`${d}: ${(err as Error).message}`);
    }
  });
  if (flags.json) {
    const doc = all.map(json);
    writeAllSync(1, Buffer.from(safeJson(doc.length === 1 ? doc[0] : doc, 2), 'utf8'));
  } else writeAllSync(1, Buffer.from(all.map((e) => text(e, { all: !!flags.allRuns })).join('\n'), 'utf8'));
}

const evalCommand: CommandModule = {
  name: 'eval',
  register(program: Command) {
    program
      .command('eval')
      .description(
        'measure the default-mode diagnosis on labelled logs: a directory with MANIFEST.md (EXPECTED labels of the shared generated logs) or a lab with MANIFEST.json ' +
          '(labels and side effects per run, scored per family, per label and per check, and leave-one-family-out: thresholds tuned on the other families, each family scored held out)',
      )
      .argument('[dirs...]', `directories with labelled logs (default: ${DEFAULT_DIRS.join(' and ')}, those present)`)
      .option('--json', 'print the evaluation as JSON')
      .option('--config <file>', 'thresholds and check settings (as for iolens report); a lab is tuned starting from them')
      .option('--no-held-out', 'lab: skip the leave-one-family-out tuning (shipped thresholds only)')
      .option('--all-runs', 'lab: list every run, not only those with a miss or a false alarm')
      .option('--strict', 'exit with status 3 when a label is missed or a HIGH false alarm is raised')
      .option('--twins', 'compare every problem run with its healthy twin (iolens compare HEALTHY PROBLEM): how often the first-ranked cause is the injected problem (docs/compare.md)')
      .option('--costs', 'lab: pair every problem run with its healthy twin and check the cost the report states for the injected problem against the measured difference in run time (docs/eval.md, "Costs"); --json prints the counts {pairs, slower, estimated, within2x, firstIsCause}, per label and family, and every pair (details)')
      .option('--savings', 'lab: check the savings the reports state for the injected problem on problem/twin pairs (same-work repeated pairs where the manifest has them; else twins of the same ranks, layer and operation) against the measured saving and against blind guesses (docs/eval.md, "Savings"); --json prints {pairs, within2x, baselines: {all, half, cost}, notSlower, overclaimed}, held out, per label, and every pair (details)')
      .option('--blame', 'lab: train a throughput model on the other families and check that the cause it ranks first names the injected problem of each run the problem made slower (docs/eval.md, "Blame on the lab"); --json prints {runs, blamed} and every run')
      .action(async (dirs: string[], flags: EvalFlags) => {
        const named = dirs.length > 0;
        const chosen = named ? dirs : DEFAULT_DIRS.filter((d) => existsSync(join(d, 'MANIFEST.md')) || isLabDirectory(d));
        if (!chosen.length) throw new UserError(`no labelled logs here: name a directory with MANIFEST.md or MANIFEST.json (default: ${DEFAULT_DIRS.join(', ')})`);
        for (const d of chosen) if (!existsSync(join(d, 'MANIFEST.md')) && !isLabDirectory(d)) throw new UserError(`${d}: no MANIFEST.md or MANIFEST.json there`);
        if ([flags.costs, flags.blame, flags.savings].filter(Boolean).length > 1) throw new UserError('--costs, --savings and --blame: one at a time');
        const labs = chosen.filter((d) => isLabDirectory(resolve(d)));
        if (flags.blame) {
          if (!labs.length) throw new UserError('--blame needs a lab (a directory with MANIFEST.json): the labels, twins and throughputs come from its manifest');
          const { evaluateBlame, formatBlame } = await import('../../eval/blame.js');
          const all = [];
          for (const d of labs) {
            try {
              all.push(await evaluateBlame(d));
            } catch (err) {
              throw new UserError(`${d}: ${(err as Error).message}`);
            }
          }
          const text = flags.json ? safeJson(all.length === 1 ? all[0] : all, 2) : all.map((e) => formatBlame(e, { all: !!flags.allRuns })).join('\n');
          writeAllSync(1, Buffer.from(text, 'utf8'));
          return;
        }
        if (flags.costs) {
          const { evaluateCosts, formatCosts } = await import('../../eval/costs.js');
          const json = (e: ReturnType<typeof evaluateCosts>) => ({ dir: e.dir, fs: e.fs, ...e.totals, labels: e.labels, families: e.families, details: e.pairs, failed: e.failed });
          printLabEvaluation('--costs', 'the twins and run times', labs, flags, evaluateCosts, json, formatCosts);
          return;
        }
        if (flags.savings) {
          const { evaluateSavings, formatSavings, savingsCounts } = await import('../../eval/savings.js');
          printLabEvaluation('--savings', 'the pairs and run times', labs, flags, evaluateSavings, savingsCounts, formatSavings);
          return;
        }
        if (flags.twins) {
          const { evaluateTwins, formatTwins } = await import('../../eval/twins.js');
          const lab = chosen.find((d) => isLabDirectory(resolve(d)));
          const shared = chosen.find((d) => !isLabDirectory(resolve(d)));
          const e = await evaluateTwins({ ...(lab ? { lab: resolve(lab) } : {}), ...(shared ? { shared: resolve(shared) } : {}) });
          writeAllSync(1, Buffer.from(flags.json ? safeJson(e, 2) : formatTwins(e, { all: !!flags.allRuns }), 'utf8'));
          return;
        }
        const config = flags.config ? await readConfigFile(flags.config) : undefined;
        const out = new FdSink(1);
        const json: unknown[] = [];
        let failed = false;
        for (const [n, dir] of chosen.entries()) {
          const d = resolve(dir);
          if (isLabDirectory(d)) {
            let e;
            try {
              e = evaluateLab(d, { heldOut: flags.heldOut !== false, ...(config ? { knobs: config.knobs } : {}) });
            } catch (err) {
              throw new UserError(`${dir}: ${(err as Error).message}`);
            }
            failed ||= e.totals.misses > 0 || e.totals.falseAlarms > 0;
            if (flags.json) json.push({ dir, kind: 'lab', runs: e.runs, families: e.families, labels: e.labels, checks: e.checks, totals: e.totals, ...(e.heldOut ? { heldOut: e.heldOut } : {}), missingLogs: e.missingLogs });
            else out.write(`${n ? '\n' : ''}${formatLabEvaluation(e, dir, { runs: flags.allRuns ? 'all' : 'problems' })}`);
          } else {
            const e = evaluateDirectory(d, config);
            failed ||= e.totals.misses > 0 || e.totals.falseAlarms > 0;
            if (flags.json) json.push({ dir, kind: 'manifest', logs: e.logs, labels: e.labels, totals: e.totals, missingLogs: e.missingLogs });
            else out.write(`${n ? '\n' : ''}${formatEvaluation(e, dir)}`);
          }
        }
        // One directory named: its object alone (as before); several: a list.
        if (flags.json) out.write(safeJson(named && json.length === 1 ? json[0] : json, 2));
        out.flush();
        if (flags.strict && failed) process.exitCode = 3;
      });
  },
};

export default evalCommand;
