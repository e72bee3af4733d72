import { IOLensError } from '../../contract/errors.js';
import { readRegularFile } from '../../util/read-file.js';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { z } from 'zod';
import { LEVELS, PROBLEMS, UsageError } from '../../contract/index.js';
import { defineTraceCheck, reportFlagged } from '../trace/define.js';
import type { AnyCheck } from '../types.js';
import type { ScoredRecord } from '../../trace/score.js';
import { parseView, viewName } from '../../trace/view-catalogue.js';
import { METRIC_COLUMNS, type Metrics } from '../../trace/views.js';
import { compileExpr, ExprError, own, table, truthy, type Env, type Expr, type Value } from './expr.js';
import { formatBytes, formatCount, formatPercent, formatSeconds } from '../../text/format.js';

/**
 * User rules from YAML, compiled to trace checks like the built-in ones (T01…): each rule is a check whose code is
 * its id, whose findings name the flagged view records its conditions accept, with the rule's reasons as detail
 * lines. It runs in the one check engine: what the records it names cost (their calls' seconds) is its cost; a rule
 * says nothing of what the same work would take done well, so its savings are a bound (none to all of the cost) and
 * the level rule keeps it at most WARN; a declared `level:` is the level it proposes (the rule still caps it;
 * `--config` overrides win);
 * `problem:` tags it with a problem of the vocabulary.
 *
 * ```yaml
 * rules:
 *   - id: tiny-writes                      # unique, [a-z0-9-]
 *     title: Tiny writes                   # optional
 *     problem: small-writes                # optional: a problem of the vocabulary
 *     level: WARN                          # optional: the level proposed (default HIGH), capped by the cost
 *     views: [file, proc>file]             # optional: only these views
 *     condition: write_ops >= 100          # optional: rule-level condition
 *     reasons:
 *       - condition: write_size_avg < 4 * KiB
 *         message: "{{ write_ops | int }} writes of {{ write_size_avg | bytes }} on average"
 *     recommendations: [Buffer the writes]  # optional
 * ```
 * Names usable in conditions and `{{ … }}`: every numeric view column, the key columns `file`, `proc`, `app`,
 * `host`, `dir`, `pattern`, `window` (strings / window start), `view`, and the constants KiB, MiB, GiB, small_bytes.
 * Formats after `|`: int, pct, bytes, secs, num.
 */

export class RuleFileError extends UsageError {}

const KEY_NAMES = ['file', 'proc', 'app', 'host', 'dir', 'pattern', 'window', 'view'] as const;
const CONSTANTS = table<number>({ KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 });
/**
 * Output budget of rule messages: a template's text, one rendered message and one record's joined reasons stop at
 * these many characters ("…" marks the cut), so a small rule file cannot amplify into gigabytes of text.
 */
const MAX_TEMPLATE_CHARS = 2000;
const MAX_MESSAGE_CHARS = 1000;
const MAX_RECORD_TEXT_CHARS = 4000;

/** Text cut to `max` characters, "…" marking the cut. */
function capped(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/** Largest rule file read (real ones are a few kB). */
const MAX_RULE_FILE_BYTES = 4 * 1024 ** 2;
export const RULE_NAMES: ReadonlySet<string> = new Set<string>([
  ...METRIC_COLUMNS,
  ...KEY_NAMES,
  ...Object.keys(CONSTANTS),
  'small_bytes',
]);

const ReasonSchema = z
  .object({
    condition: z.string().optional(),
    message: z.string().min(1).max(MAX_TEMPLATE_CHARS, `a message template holds at most ${MAX_TEMPLATE_CHARS} characters`),
  })
  .strict();
const RuleSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'id must be lower-case letters, digits, - or _'),
    title: z.string().optional(),
    description: z.string().optional(),
    problem: z.enum(PROBLEMS).optional(),
    level: z.enum(LEVELS).optional(),
    views: z.array(z.string()).optional(),
    condition: z.string().optional(),
    reasons: z.array(ReasonSchema).min(1),
    recommendations: z.array(z.string().min(1)).optional(),
  })
  .strict();
const FileSchema = z.object({ rules: z.array(RuleSchema) }).strict();

const FORMATS = table<(v: Value) => string>({
  int: (v) => formatCount(Number(v)),
  pct: (v) => formatPercent(Number(v)),
  bytes: (v) => formatBytes(Number(v)),
  secs: (v) => formatSeconds(Number(v)),
  num: (v) => (typeof v === 'number' ? String(Number(v.toPrecision(4))) : String(v)),
});

interface Template {
  render(env: Env): string;
}

/**
 * Compiles a message template: text with `{{ expr | format }}` fields. One left-to-right scan (linear in the
 * message, however many `{{` it holds); a field may not span lines, and a `{{` or `}}` left over is an error.
 */
function compileTemplate(src: string, where: string): Template {
  const parts: (string | { e: Expr; f: (v: Value) => string })[] = [];
  const unbalanced = () => new RuleFileError(`${where}: unbalanced "{{" / "}}" in message`);
  let last = 0;
  for (let open = src.indexOf('{{'); open >= 0; open = src.indexOf('{{', last)) {
    const close = src.indexOf('}}', open + 2);
    if (close < 0) throw unbalanced();
    const body = src.slice(open + 2, close);
    if (body.includes('\n') || body.includes('\r')) throw unbalanced();
    const text = src.slice(last, open);
    if (text.includes('}}')) throw unbalanced();
    parts.push(text);
    const [exprSrc, fmtRaw] = splitFormat(body);
    const fmt = fmtRaw === undefined ? 'num' : fmtRaw;
    const format = own(FORMATS, fmt);
    if (!format) throw new RuleFileError(`${where}: unknown format "${fmt}" (known: ${Object.keys(FORMATS).join(', ')})`);
    try {
      parts.push({ e: compileExpr(exprSrc, RULE_NAMES), f: format });
    } catch (err) {
      if (err instanceof ExprError) throw new RuleFileError(`${where}: in "{{${body}}}": ${err.message} at column ${err.column}`);
      throw err;
    }
    last = close + 2;
  }
  const tail = src.slice(last);
  if (tail.includes('}}')) throw unbalanced();
  parts.push(tail);
  return {
    render: (env) => {
      // stops at the budget: a field's value (a file name) can be long, and a template can repeat it
      let out = '';
      for (const p of parts) {
        out += typeof p === 'string' ? p : p.f(p.e.eval(env));
        if (out.length > MAX_MESSAGE_CHARS) break;
      }
      return capped(out, MAX_MESSAGE_CHARS);
    },
  };
}

function splitFormat(s: string): [string, string | undefined] {
  // the last "|" that is not part of "||"
  for (let i = s.length - 1; i >= 0; i--) {
    if (s[i] === '|' && s[i - 1] !== '|' && s[i + 1] !== '|') return [s.slice(0, i).trim(), s.slice(i + 1).trim()];
  }
  return [s.trim(), undefined];
}

function compileCondition(src: string | undefined, where: string): Expr | undefined {
  if (src === undefined) return undefined;
  try {
    return compileExpr(src, RULE_NAMES);
  } catch (err) {
    if (err instanceof ExprError) throw new RuleFileError(`${where}: ${err.message} at column ${err.column} of "${src}"`);
    throw err;
  }
}

function envFor(m: Metrics, r: ScoredRecord, smallBytes: number): Env {
  return (name) => {
    const constant = own(CONSTANTS, name);
    if (constant !== undefined) return constant;
    if (name === 'small_bytes') return smallBytes;
    if (name === 'view') return r.view;
    if (name === 'window') return r.key.time ?? '';
    if ((KEY_NAMES as readonly string[]).includes(name)) {
      const v = r.key[name as keyof ScoredRecord['key']];
      return v === undefined ? '' : v;
    }
    return own(m as unknown as Record<string, number>, name) ?? 0;
  };
}

/**
 * Compiles parsed YAML (already an object) into trace checks. `origin` names the file in error messages; `reserved`
 * holds ids a rule may not take (the built-in checks' codes and slugs).
 */
export function compileRules(doc: unknown, origin: string, reserved: ReadonlySet<string> = new Set()): AnyCheck[] {
  const parsed = FileSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue.path.length ? issue.path.join('.') : '(top level)';
    throw new RuleFileError(`${origin}: ${path}: ${issue.message}`);
  }
  const seen = new Set<string>();
  return parsed.data.rules.map((r, i) => {
    const where = `${origin}: rule ${i + 1} "${r.id}"`;
    if (seen.has(r.id) || reserved.has(r.id)) throw new RuleFileError(`${where}: duplicate rule id`);
    seen.add(r.id);
    let views: Set<string> | undefined;
    if (r.views) {
      views = new Set();
      for (const v of r.views) {
        try {
          views.add(viewName(parseView(v)));
        } catch (err) {
          throw new RuleFileError(`${where}: views: ${(err as Error).message}`);
        }
      }
    }
    const cond = compileCondition(r.condition, `${where}: condition`);
    const reasons = r.reasons.map((x, j) => ({
      cond: compileCondition(x.condition, `${where}: reason ${j + 1}: condition`),
      msg: compileTemplate(x.message, `${where}: reason ${j + 1}: message`),
    }));
    const title = r.title ?? r.id;
    const recommendations = Object.fromEntries((r.recommendations ?? []).map((text, j) => [`r${j + 1}`, { text }]));
    return defineTraceCheck({
      meta: {
        code: r.id,
        slug: r.id,
        title,
        failureTitle: title,
        description: r.description ?? (r.condition ? `user rule: ${r.condition}` : 'user rule'),
        panel: 'OPERATIONS',
        ...(r.problem ? { problem: r.problem } : {}),
        source: 'user',
        options: { smallBytes: { knob: 'small_bytes' } },
        messages: {
          finding: "{title}: {records} flagged record(s); the records of the {view} view among them hold {share:pct} of the time in traced calls and cost {seconds:seconds}",
          record: '{record}: {text}',
        },
        recommendations,
      },
      docsUrl: origin,
      run(ctx) {
        const texts = new Map<ScoredRecord, string[]>();
        const explain = (m: Metrics, rec: ScoredRecord): string[] => {
          let out = texts.get(rec);
          if (out) return out;
          out = [];
          if (!views || views.has(rec.view)) {
            const env = envFor(m, rec, ctx.options.smallBytes);
            if (!cond || truthy(cond.eval(env))) for (const x of reasons) if (!x.cond || truthy(x.cond.eval(env))) out.push(x.msg.render(env));
          }
          texts.set(rec, out);
          return out;
        };
        reportFlagged(ctx, {
          where: (m, rec) => explain(m, rec).length > 0,
          finding: 'finding',
          detail: 'record',
          detailData: (m, rec) => ({ text: capped(explain(m, rec).join('; '), MAX_RECORD_TEXT_CHARS) }),
          summary: () => ({ title }),
          recommendations: Object.keys(recommendations),
          ...(r.level ? { level: r.level } : {}),
        });
      },
    });
  });
}

/** Reads and compiles a YAML rule file. */
export function loadRuleFile(path: string, reserved: ReadonlySet<string> = new Set()): AnyCheck[] {
  let text: string;
  try {
    text = readRegularFile(path, MAX_RULE_FILE_BYTES, 'a rule file').toString('utf8');
  } catch (err) {
    if (err instanceof IOLensError) throw new RuleFileError(`${path}: ${err.message}`);
    throw new RuleFileError(`${path}: cannot read rule file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    if (err instanceof YAMLParseError) {
      const pos = err.linePos?.[0];
      throw new RuleFileError(`${path}${pos ? `:${pos.line}:${pos.col}` : ''}: invalid YAML (${err.message.split('\n')[0]})`);
    }
    // the parser's other refusals (too many aliases: a billion laughs) name the file as well
    throw new RuleFileError(`${path}: invalid YAML (${(err instanceof Error ? err.message : String(err)).split('\n')[0]})`);
  }
  return compileRules(doc, path, reserved);
}
