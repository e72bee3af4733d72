import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { compileExpr, ExprError } from './expr.js';
import { UsageError } from '../../contract/errors.js';
import { compileRules, loadRuleFile, RuleFileError } from './yaml.js';
import type { Metrics } from '../views.js';

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

const metrics = { write_ops: 200, write_size_avg: 2048, small_write_share: 0.9, time: 1, nprocs: 4 } as unknown as Metrics;
const ctx = { dims: ['file'] as const, key: { file: '/scratch/a.dat' }, smallBytes: 1 << 20 };

test('a YAML rule yields reasons with formatted templates', () => {
  const rules = compileRules(
    parse(`
rules:
  - id: tiny-writes
    title: Tiny writes
    views: [file, "proc > file"]
    condition: write_ops >= 100
    reasons:
      - condition: write_size_avg < 4 * KiB
        message: "{{ write_ops | int }} writes of {{ write_size_avg | bytes }} on {{ file }} ({{ small_write_share | pct }} small)"
      - condition: nprocs > 8
        message: never
      - message: "{{ view }} record, {{ nprocs * 2 }} x"
`),
    'rules.yaml',
  );
  assert.equal(rules.length, 1);
  assert.deepEqual(rules[0].explain(metrics, { ...ctx, dims: ['file'] }), [
    '200 writes of 2.00 KiB on /scratch/a.dat (90.0% small)',
    'file record, 8 x',
  ]);
  assert.deepEqual(rules[0].explain(metrics, { ...ctx, dims: ['proc'] }), []);
  assert.deepEqual(rules[0].explain({ ...metrics, write_ops: 5 }, { ...ctx, dims: ['file'] }), []);
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
  // 2 MB of "{{": the old template regex needed quadratic time on this
  assert.throws(() => compileRules(doc('{{'.repeat(1 << 20)), 'r.yaml'), (e: unknown) => e instanceof RuleFileError && /unbalanced/.test(e.message));
  assert.throws(() => compileRules(doc('a {{ write_ops }} }} b'), 'r.yaml'), (e: unknown) => e instanceof RuleFileError && /unbalanced/.test(e.message));
  assert.throws(() => compileRules(doc('{{ write_ops \n }}'), 'r.yaml'), (e: unknown) => e instanceof RuleFileError && /unbalanced/.test(e.message));
  const [rule] = compileRules(doc('{{write_ops|int}} writes, {{ write_size_avg | bytes }} each'), 'r.yaml');
  assert.deepEqual(rule.explain(metrics, ctx), ['200 writes, 2.00 KiB each']);
});
