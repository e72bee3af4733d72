import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { DarshanLog } from '../../formats/darshan/index.js';
import { corpusLogs, REPO_ROOT } from '../../testing/corpus.js';
import { defaultKnobValues, KNOB_NAMES, type Knob } from '../../config/knobs.js';
import { FactContext } from '../../facts/fact-context.js';
import { FactSource } from '../../facts/source.js';
import type { FactValues } from '../../facts/types.js';
import type { Finding, Mode } from '../../contract/index.js';
import { CHECKS } from '../registry.js';
import { runChecks } from '../run-checks.js';
import type { AnyCheck } from '../types.js';

/** One row of a check's table test: a corpus log or hand-made facts, and what the check must do. */
export interface CheckCase {
  /** A log of the shared corpus, by file name. */
  readonly log?: string;
  /** Hand-made facts (unit case); facts not given are unavailable. */
  readonly facts?: Partial<FactValues>;
  readonly mode?: Mode;
  readonly knobs?: Partial<Record<Knob, number>>;
  readonly nodes?: number;
  readonly applicationHints?: string;
  /** For `fires` cases: number of insights (default 1), a subset of their data, number of details, first detail's data. */
  readonly expect?: {
    readonly insights?: number;
    readonly data?: Readonly<Record<string, number | string>>;
    readonly details?: number;
    readonly detail?: Readonly<Record<string, number | string>>;
    readonly recommendations?: readonly string[];
  };
}

/** A case on which the check stays quiet, with what the report says instead. */
export interface QuietCase extends CheckCase {
  /**
   * Every insight that all registered checks emit on this case (same mode, knobs, nodes and hints), as `CODE LEVEL`
   * in check order; `[]` when nothing fires. A quiet case thus pins the whole report, not just one absent code.
   */
  readonly fired: readonly string[];
}

export interface CheckTable {
  readonly fires: readonly CheckCase[];
  readonly quiet: readonly QuietCase[];
  readonly notApplicable?: readonly CheckCase[];
}

const paths = new Map<string, string>();
function logPath(name: string): string {
  if (!paths.size) for (const l of corpusLogs()) if (!paths.has(l.name)) paths.set(l.name, l.path);
  const p = paths.get(name);
  assert.ok(p, `fixture log ${name} is in the shared corpus`);
  return p;
}

function facts(c: CheckCase): FactContext {
  if (c.log) return FactContext.forLog(new FactSource(DarshanLog.open(logPath(c.log))));
  return FactContext.fromValues(c.facts ?? {});
}

function run(checks: readonly AnyCheck[], c: CheckCase, f: FactContext = facts(c)) {
  for (const k of Object.keys(c.knobs ?? {})) assert.ok((KNOB_NAMES as string[]).includes(k), `knob ${k} exists`);
  const knobs = { ...defaultKnobValues(), ...(c.knobs ?? {}) };
  return runChecks(checks, f, {
    mode: c.mode ?? 'default',
    config: { knobs, checks: {} },
    env: { nodes: c.nodes ?? null, applicationHints: c.applicationHints ? { raw: c.applicationHints, entries: c.applicationHints.split(';').map((p) => p.split('=') as [string, string]), source: 'application' } : null },
  });
}

function near(actual: unknown, expected: number | string, what: string): void {
  if (typeof expected === 'number' && typeof actual === 'number' && !Number.isInteger(expected)) {
    assert.ok(Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)), `${what}: ${actual} ≈ ${expected}`);
  } else assert.equal(actual, expected, what);
}

function checkInsights(check: AnyCheck, ins: Finding[], c: CheckCase): void {
  const e = c.expect ?? {};
  assert.equal(ins.length, e.insights ?? 1, `number of ${check.meta.code} insights`);
  for (const i of ins) {
    assert.equal(i.code, check.meta.code);
    assert.ok(i.messageId.slice(4) in check.meta.messages, `message id ${i.messageId} is in meta`);
    for (const d of i.details) assert.ok(d.messageId.slice(4) in check.meta.messages);
  }
  for (const [k, v] of Object.entries(e.data ?? {})) near(ins[0].data[k], v, `data.${k}`);
  if (e.details !== undefined) assert.equal(ins[0].details.length, e.details, 'number of details');
  for (const [k, v] of Object.entries(e.detail ?? {})) near(ins[0].details[0]?.data[k], v, `details[0].data.${k}`);
  if (e.recommendations) assert.deepEqual(ins[0].recommendations.map((r) => r.id.slice(4)), e.recommendations);
}

/**
 * The check's table test (ESLint's RuleTester for checks): every `fires` case must emit the expected insights,
 * every `quiet` case none — and all registered checks together exactly its `fired` list, with no check in error —
 * every `notApplicable` case must report not applicable. Also asserts that cases are not duplicated, that a second
 * run gives the same outcome, and that no case errors.
 */
export function runCheckCases(check: AnyCheck, table: CheckTable): void {
  assert.ok(CHECKS.includes(check), `${check.meta.code} is registered`);
  assert.ok(table.fires.length > 0, `${check.meta.code} has at least one firing case`);
  assert.ok(table.quiet.length > 0, `${check.meta.code} has at least one quiet case`);
  const seen = new Set<string>();
  const all = [...table.fires, ...table.quiet, ...(table.notApplicable ?? [])];
  for (const c of all) {
    const key = JSON.stringify({ ...c, expect: undefined, fired: undefined }, (_k, v) => (typeof v === 'bigint' ? v.toString() : v instanceof Float64Array ? [...v] : v));
    assert.ok(!seen.has(key), `duplicate case ${key}`);
    seen.add(key);
  }
  for (const c of table.fires) {
    const r = run([check], c);
    assert.equal(r.outcomes[0].status, 'fired', `${check.meta.code} fires on ${c.log ?? 'facts'} (${c.mode ?? 'default'}): ${r.outcomes[0].reason ?? ''}`);
    checkInsights(check, r.insights, c);
    assert.deepEqual(run([check], c).insights, r.insights, 'a second run gives the same insights');
  }
  for (const c of table.quiet) {
    const f = facts(c);
    const r = run([check], c, f);
    const on = `${c.log ?? 'facts'} (${c.mode ?? 'default'})`;
    assert.equal(r.outcomes[0].status, 'quiet', `${check.meta.code} is quiet on ${on}: ${r.outcomes[0].reason ?? ''}`);
    const every = run(CHECKS, c, f);
    assert.deepEqual(every.outcomes.filter((o) => o.status === 'error'), [], `no check errors on ${on}`);
    const firedNow = every.insights.map((i) => `${i.code} ${i.level}`);
    // IOLENS_UPDATE_PINS=1: rewrite the pinned list in the test file (one case per line), then review the diff.
    if (process.env.IOLENS_UPDATE_PINS === '1' && JSON.stringify(firedNow) !== JSON.stringify(c.fired)) updatePin(check.meta.code, c.log, c.fired, firedNow);
    else assert.deepEqual(firedNow, c.fired, `what all checks report on ${on}`);
  }
  for (const c of table.notApplicable ?? []) {
    const r = run([check], c);
    assert.equal(r.outcomes[0].status, 'notApplicable', `${check.meta.code} is not applicable on ${c.log ?? 'facts'}`);
  }
}

/** Rewrites a quiet case's `fired` list in the check's test source (src/, found from the check code). */
function updatePin(code: string, log: string | undefined, old: readonly string[], now: readonly string[]): void {
  const fmt = (xs: readonly string[]) => `fired: [${xs.map((x) => `'${x}'`).join(', ')}]`;
  for (const dir of ['posix', 'mpiio', 'stdio', 'diagnosis']) {
    const folder = join(REPO_ROOT, 'src', 'checks', dir);
    for (const f of readdirSync(folder).filter((n) => n.startsWith(`${code.toLowerCase()}-`) && n.endsWith('.test.ts'))) {
      const path = join(folder, f);
      const lines = readFileSync(path, 'utf8').split('\n');
      const i = lines.findIndex((l) => l.includes(fmt(old)) && (log === undefined || l.includes(`'${log}'`)));
      if (i < 0) throw new Error(`${path}: no line with ${fmt(old)}${log ? ` for ${log}` : ''}`);
      lines[i] = lines[i].replace(fmt(old), fmt(now));
      writeFileSync(path, lines.join('\n'));
      return;
    }
  }
}
