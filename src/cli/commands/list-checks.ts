import type { Command } from 'commander';
import type { CommandModule } from './command.js';
import { UserError } from '../errors.js';
import { safeJson } from '../../render/json.js';

const listChecks: CommandModule = {
  name: 'list-checks',
  register(program: Command) {
    program
      .command('list-checks')
      .description('print the catalogue of checks — report and trace (code, level, problem tag, where they run, options with defaults) — or the page of each CODE given')
      .argument('[codes...]', 'check codes (D10, P05, T07 …): print their documentation pages')
      .option('--json', 'print it as JSON')
      .action(async (codes: string[], opts: { json?: boolean }) => {
        const { CHECKS, CHECKS_BY_CODE } = await import('../../checks/registry.js');
        const { TRACE_CHECKS, TRACE_CHECKS_BY_CODE } = await import('../../checks/trace/registry.js');
        if (codes.length > 0) {
          const { checkDoc } = await import('../../checks/docs.js');
          const pages: string[] = [];
          for (const code of codes) {
            const check = CHECKS_BY_CODE.get(code.toUpperCase()) ?? TRACE_CHECKS_BY_CODE.get(code.toUpperCase());
            if (!check) throw new UserError(`no check '${code}' (iolens list-checks lists them)`);
            pages.push(checkDoc(check));
          }
          process.stdout.write(pages.join('\n'));
          return;
        }
        const { defaultKnobValues } = await import('../../config/knobs.js');
        const knobs = defaultKnobValues();
        type Meta = (typeof CHECKS)[number]['meta'] & { modes?: readonly string[]; supersedes?: readonly string[] };
        const metas = CHECKS.map((c) => c.meta as Meta);
        const traceMetas = TRACE_CHECKS.map((c) => c.meta as Meta);
        const allModes = ['default', 'drishti'];
        const runsIn = (m: Meta, mode: string) => !m.modes || m.modes.includes(mode);
        // A check runs in a mode unless a check of that mode supersedes it there.
        const supersededIn = (code: string, mode: string) => metas.find((o) => runsIn(o, mode) && o.supersedes?.includes(code))?.code;
        // Where a check runs: the report's modes, and `trace` for the trace checks and the log checks traces run too.
        const rows = [...metas, ...traceMetas].map((m) => {
          const trace = m.layer === 'trace';
          return {
            code: m.code,
            slug: m.slug,
            level: m.level,
            problem: m.problem ?? null,
            modes: trace ? ['trace'] : [...allModes.filter((mode) => runsIn(m, mode) && !supersededIn(m.code, mode)), ...(m.traces ? ['trace'] : [])],
            supersededBy: trace ? null : (supersededIn(m.code, 'default') ?? null),
            panel: m.panel,
            layer: m.layer,
            title: m.failureTitle,
            options: Object.fromEntries(Object.entries(m.options).map(([k, o]) => [k, { knob: o.knob, default: knobs[o.knob] }])),
            docs: m.docsUrl,
          };
        });
        if (opts.json) {
          process.stdout.write(safeJson(rows, 2));
          return;
        }
        const w = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
        const lines = [`${w('CODE', 5)} ${w('LEVEL', 5)} ${w('PROBLEM', 22)} ${w('MODES', 16)} TITLE`];
        for (const r of rows) lines.push(`${w(r.code, 5)} ${w(r.level, 5)} ${w(r.problem ?? '-', 22)} ${w(r.modes.join(','), 16)} ${r.title}`);
        process.stdout.write(lines.join('\n') + `\n\n${rows.length} checks; one check's page: iolens list-checks CODE (docs/checks/<CODE>.md); all options: iolens list-checks --json\n`);
      });
  },
};

export default listChecks;
