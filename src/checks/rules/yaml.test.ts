import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { compileExpr, ExprError } from './expr.js';
import { UsageError } from '../../contract/errors.js';
import { compileRules, loadRuleFile, RuleFileError } from './yaml.js';
import type { Metrics } from '../../trace/views.js';
import { defaultConfig } from '../../config/defaults.js';
import { runChecks } from '../run-checks.js';
import type { ScoredView } from '../../trace/score.js';
import { FactContext } from '../../facts/fact-context.js';
import { TimeModelBuilder } from '../../facts/time-model.js';

const names = new Set(['a', 'b', 'file']);

test('expressions: precedence, comparison, logic, functions', () => {
  const env = (n: string) => ({ a: 3, b: 4, file: '/scratch/x.h5' })[n as 'a']!;
  assert.equal(compileExpr('a + b * 2', names).eval(env), 11);
  assert.equal(compileExpr('(a + b) * 2 >= 14 and not a > b', names).eval(env), true);
  assert.equal(compileExpr('a / 0', names).eval(env), 0);
  assert.equal(compileExpr('max(a, b, 10) - min(a, b)', names).eval(env), 7);
  assert.equal(compileExpr('endswith(file, ".h5") && contains(file, "scratch")', names).eval(env), true);
  assert.equal(compileExpr('-a + 1e3', names).eval(env), 997);
});

test('expressions: errors carry a column and never execute code', () => {
  const bad: [string, RegExp][] = [
    ['a +', /unexpected end/],
    ['a = 1', /"=" is not an operator/],
    ['process.exit(1)', /unexpected character "\."|unknown/],
    ['constructor', /unknown name "constructor"/],
    ['foo(1)', /unknown function "foo"/],
    ['max()', /takes 1 to 16/],
    ['"abc', /unterminated string/],
    ['a > > b', /unexpected ">"/],
  ];
  for (const [src, re] of bad) {
    assert.throws(() => compileExpr(src, names), (e: unknown) => e instanceof ExprError && re.test(e.message) && e.column >= 1, src);
  }
});

const metrics = { write_ops: 200, write_size_avg: 2048, small_write_share: 0.9, time: 1, nprocs: 4, time_share: 0.3 } as unknown as Metrics;

/** One flagged record in a view of one or two dimensions, as the report's scoring makes it. */
function views(view: 'file' | 'proc', m: Metrics = metrics): ScoredView[] {
  const dims = [view] as const;
  const key = view === 'file' ? { file: '/scratch/a.dat' } : { proc: '3' };
  return [{ name: view, dims, parent: null, records: [{ view, dims, key, metrics: m, score: { metric: 'iops_slope', value: 60, badness: 1 / 3 }, level: 'HIGH' }] }];
}
/** A job of one rank whose I/O took 10/3 s in a 4 s run: the record's 1 s is 30 % of it and 25 % of the run. */
function job(): FactContext {
  const b = new TimeModelBuilder();
  b.add(1n, 0, 'POSIX', { write: 10 / 3 });
  return FactContext.fromValues({ 'io.time': b.build({ runTime: 4, processes: 1, source: 'trace' }) });
}
const run = (checks: ReturnType<typeof compileRules>, v: ScoredView[]) =>
  runChecks(checks, job(), { mode: 'default', config: defaultConfig(), env: { nodes: null, applicationHints: null }, views: { views: v, flagged: v.flatMap((x) => x.records.filter((r) => r.level !== 'OK')) } });

test('a YAML rule is a trace check: its reasons are the detail lines of a finding', () => {
  const rules = compileRules(
    parse(`
rules:
  - id: tiny-writes
    title: Tiny writes
    problem: small-writes
    views: [file, "proc > file"]
    condition: write_ops >= 100
    reasons:
      - condition: write_size_avg < 4 * KiB
        message: "{{ write_ops | int }} writes of {{ write_size_avg | bytes }} on {{ file }} ({{ small_write_share | pct }} small)"
      - condition: nprocs > 8
        message: never
      - message: "{{ view }} record, {{ nprocs * 2 }} x"
    recommendations: [Buffer the writes]
`),
    'rules.yaml',
  );
  assert.equal(rules.length, 1);
  assert.deepEqual({ code: rules[0].meta.code, source: rules[0].meta.source, problem: rules[0].meta.problem }, { code: 'tiny-writes', source: 'user', problem: 'small-writes' });
  const r = run(rules, views('file'));
  assert.equal(r.insights.length, 1);
  const f = r.insights[0];
  // A rule states what its records cost, not what fixing them saves: its savings are a bound (none to all of the
  // cost), so that it is at most WARN (docs/trace.md, "User rules").
  assert.deepEqual([f.code, f.level, f.problem], ['tiny-writes', 'WARN', 'small-writes']);
  assert.deepEqual(f.cost, { seconds: 1, semantics: 'cumulative', ioShare: 0.3, runShare: 0.25, basis: 'time' });
  assert.deepEqual([f.savings!.seconds, f.savings!.low, f.savings!.high, f.savings!.basis], [0.5, 0, 1, 'bound']);
  assert.equal(f.message, 'Tiny writes: 1 flagged record(s); the records of the file view among them hold 30.00% of the time in traced calls and cost 1.00 s');
  assert.deepEqual(f.details.map((d) => d.message), ['file=/scratch/a.dat: 200 writes of 2.00 KiB on /scratch/a.dat (90.0% small); file record, 8 x']);
  assert.deepEqual(f.details[0].subject, { kind: 'record', view: 'file', key: { file: '/scratch/a.dat' } });
  assert.deepEqual(f.recommendations, [{ id: 'tiny-writes.r1', text: 'Buffer the writes' }]);
  assert.deepEqual(f.thresholds.map((t) => t.knob), ['small_bytes', 'high_cost_share', 'high_run_share', 'warn_cost_share', 'warn_run_share']);
  assert.equal(f.docs, 'rules.yaml', 'a user rule is documented by its file');
  // other views, and records the condition rejects, are not named
  assert.deepEqual(run(rules, views('proc')).insights, []);
  assert.deepEqual(run(rules, views('file', { ...metrics, write_ops: 5 })).insights, []);
  assert.deepEqual(run(rules, views('proc')).outcomes, [{ code: 'tiny-writes', status: 'quiet' }]);
});

test('a YAML rule may fix its level; unknown problems and levels are refused', () => {
  const [rule] = compileRules(parse('rules: [{id: x, level: INFO, reasons: [{message: "{{ small_bytes | bytes }}"}]}]'), 'r.yaml');
  const f = run([rule], views('proc')).insights[0];
  assert.equal(f.level, 'INFO');
  assert.equal(f.details[0].message, 'proc=3: 1.00 MiB');
  assert.equal(f.problem, undefined);
  assert.throws(() => compileRules(parse('rules: [{id: x, problem: slowness, reasons: [{message: a}]}]'), 'r.yaml'), /rules\.0\.problem: /);
  assert.throws(() => compileRules(parse('rules: [{id: x, level: CRITICAL, reasons: [{message: a}]}]'), 'r.yaml'), /rules\.0\.level: /);
});

test('bad rules give one clear error naming the file, rule and problem', () => {
  const cases: [string, RegExp][] = [
    ['rules: [{id: x, reasons: [{message: hi}], condition: "wrte_ops > 1"}]', /rules\.yaml: rule 1 "x": condition: unknown name "wrte_ops" at column 1/],
    ['rules: [{id: x, reasons: [{message: "{{ write_ops | hex }}"}]}]', /reason 1: message: unknown format "hex"/],
    ['rules: [{id: x, reasons: []}]', /rules\.yaml: rules\.0\.reasons: /],
    ['rules: [{id: x, reasons: [{message: a}]}, {id: x, reasons: [{message: b}]}]', /rule 2 "x": duplicate rule id/],
    ['rules: [{id: x, views: [disk], reasons: [{message: a}]}]', /views: unknown view dimension "disk"/],
    ['rules: [{id: x, reasons: [{message: a}], when: 1}]', /rules\.0: Unrecognized key/],
    ['rules: [{id: x, reasons: [{message: a, condition: "1 +"}]}]', /reason 1: condition: unexpected end of expression/],
  ];
  for (const [src, re] of cases) {
    assert.throws(() => compileRules(parse(src), 'rules.yaml'), (e: unknown) => e instanceof RuleFileError && re.test(e.message), src);
  }
  assert.throws(() => compileRules(parse('rules: [{id: small-reads, reasons: [{message: a}]}]'), 'r.yaml', new Set(['small-reads'])), /duplicate rule id/);
  const dir = mkdtempSync(join(tmpdir(), 'iolens-rules-'));
  const p = join(dir, 'bad.yaml');
  writeFileSync(p, 'rules:\n  - id: x\n    reasons: [\n');
  assert.throws(() => loadRuleFile(p), (e: unknown) => e instanceof RuleFileError && /bad\.yaml:\d+:\d+: invalid YAML/.test(e.message));
  assert.throws(() => loadRuleFile(join(dir, 'missing.yaml')), /cannot read rule file \(ENOENT\)/);
});

test('item 7: prototype names are neither functions nor formats nor names', () => {
  for (const src of ['constructor(1)', 'toString()', 'hasOwnProperty("a")', '__proto__(1)', 'valueOf()']) {
    assert.throws(() => compileExpr(src, names), (e: unknown) => e instanceof ExprError && e instanceof UsageError && /unknown function/.test(e.message), src);
  }
  for (const fmt of ['__proto__', '__defineGetter__', 'constructor', 'toString', 'hasOwnProperty']) {
    const doc = { rules: [{ id: 'x', reasons: [{ message: `{{ write_ops | ${fmt} }}` }] }] };
    assert.throws(() => compileRules(doc, 'r.yaml'), (e: unknown) => e instanceof RuleFileError && e.message.includes(`unknown format "${fmt}"`), fmt);
  }
  for (const name of ['constructor', '__proto__', 'toString']) {
    assert.throws(() => compileRules({ rules: [{ id: 'x', condition: `${name} > 0`, reasons: [{ message: 'm' }] }] }, 'r.yaml'), RuleFileError, name);
  }
});

test('item 7: deep nesting is refused with a clear error, not a stack overflow', () => {
  for (const src of ['('.repeat(1990) + 'a' + ')'.repeat(1990), 'not '.repeat(990) + 'a', '-'.repeat(1990) + 'a', 'max('.repeat(790) + 'a' + ')'.repeat(790)]) {
    assert.throws(() => compileExpr(src, names), (e: unknown) => e instanceof ExprError && /nested more than 100 levels deep/.test(e.message));
  }
  assert.equal(compileExpr('('.repeat(99) + 'a' + ')'.repeat(99), names).eval(() => 7), 7);
  // a long flat expression is fine
  assert.equal(compileExpr(Array(1000).fill('a').join(' + '), names).eval(() => 1), 1000);
});

test('item 7: messages with thousands of unbalanced "{{" are scanned in linear time', { timeout: 60_000 }, () => {
  const doc = (message: string) => ({ rules: [{ id: 'x', reasons: [{ message }] }] });
  // 2 MB of "{{" (the old template regex needed quadratic time on this) is past the template budget; within the
  // budget, a template of unbalanced "{{" is scanned once
  assert.throws(() => compileRules(doc('{{'.repeat(1 << 20)), 'r.yaml'), (e: unknown) => e instanceof RuleFileError && /a message template holds at most 2000 characters/.test(e.message));
  assert.throws(() => compileRules(doc('{{'.repeat(1000)), 'r.yaml'), (e: unknown) => e instanceof RuleFileError && /unbalanced/.test(e.message));
  assert.throws(() => compileRules(doc('a {{ write_ops }} }} b'), 'r.yaml'), (e: unknown) => e instanceof RuleFileError && /unbalanced/.test(e.message));
  assert.throws(() => compileRules(doc('{{ write_ops \n }}'), 'r.yaml'), (e: unknown) => e instanceof RuleFileError && /unbalanced/.test(e.message));
  const [rule] = compileRules(doc('{{write_ops|int}} writes, {{ write_size_avg | bytes }} each'), 'r.yaml');
  assert.deepEqual(run([rule], views('file')).insights[0].details.map((d) => d.message), ['file=/scratch/a.dat: 200 writes, 2.00 KiB each']);
});

test('rule files cannot amplify: billion laughs named with the file, templates and messages within their budget', async () => {
  const { spawnSync } = await import('node:child_process');
  const { REPO_ROOT, SHARED } = await import('../../testing/corpus.js');
  const dir = mkdtempSync(join(tmpdir(), 'iolens-rules-budget-'));
  // a billion laughs: nine levels of ten aliases each
  const lines = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i < 9; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(', ')}]`);
  lines.push('rules: *a8');
  const laughs = join(dir, 'laughs.yaml');
  writeFileSync(laughs, `${lines.join('\n')}\n`);
  assert.throws(() => loadRuleFile(laughs), (e: Error) => e instanceof RuleFileError && e.message.startsWith(`${laughs}: invalid YAML (`) && !e.message.includes('\n'));
  // a template past its budget is refused; one within it renders at most 1,000 characters a message
  const long = join(dir, 'long.yaml');
  writeFileSync(long, `rules:\n  - id: long\n    reasons:\n      - message: "${'{{ file }}'.repeat(201)}"\n`);
  assert.throws(() => loadRuleFile(long), /long\.yaml: rules\.0\.reasons\.0\.message: a message template holds at most 2000 characters/);
  const wide = join(dir, 'wide.yaml');
  writeFileSync(wide, `rules:\n  - id: wide\n    level: WARN\n    reasons:\n${Array.from({ length: 20 }, () => `      - message: "${'{{ file }} '.repeat(150)}"`).join('\n')}\n`);
  const trace = join(SHARED, 'traces', 'recorder', 'flash_sedov3d_hdf5-ranks0-3');
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'trace', trace, '--rules', wide, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr);
  const rep = JSON.parse(r.stdout) as { insights: { code: string; details: { data: { text?: string } }[] }[] };
  const f = rep.insights.find((i) => i.code === 'wide')!;
  assert.ok(f && f.details.length > 0);
  for (const d of f.details) assert.ok(d.data.text!.length <= 4000, `${d.data.text!.length} characters`);
  for (const d of f.details) for (const part of d.data.text!.split('; ')) assert.ok(part.length <= 1000 || part.endsWith('…'));
  // the CLI names the file in one line for the billion laughs too
  const bad = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'trace', trace, '--rules', laughs], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, new RegExp(`^iolens: ${laughs.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: invalid YAML \\(.*\\)\\n$`));
});
