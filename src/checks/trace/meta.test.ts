import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KNOBS, TRACE_KNOB_NAMES } from '../../config/knobs.js';
import { PANELS, PROBLEMS } from '../../contract/index.js';
import { REPO_ROOT } from '../../testing/corpus.js';
import { templatePlaceholders } from '../../text/template.js';
import { TRACE_CHECKS } from './registry.js';
import { LEVEL_KNOBS } from '../level-policy.js';
import { traceChecksTable, TRACE_CHECKS_BEGIN, TRACE_CHECKS_END } from './docs.js';

const DIR = join(REPO_ROOT, 'src', 'checks', 'trace');
const files = readdirSync(DIR).filter((f) => /^t\d\d-.*\.ts$/.test(f) && !f.endsWith('.test.ts')).sort();

test('every trace check file is registered, in code order, and named after its code and slug', () => {
  assert.deepEqual(TRACE_CHECKS.map((c) => `${c.meta.code.toLowerCase()}-${c.meta.slug}.ts`), files);
  assert.deepEqual(TRACE_CHECKS.map((c) => c.meta.code), files.map((_, i) => `T${String(i + 1).padStart(2, '0')}`));
});

test('every check file holds its own meta literal (code, slug, problem, options, messages, recommendations)', () => {
  for (const c of TRACE_CHECKS) {
    const text = readFileSync(join(DIR, `${c.meta.code.toLowerCase()}-${c.meta.slug}.ts`), 'utf8');
    for (const field of ['code', 'slug', 'title', 'failureTitle', 'description', 'panel', 'problem', 'options', 'messages', 'recommendations']) {
      assert.match(text, new RegExp(`\\n    ${field}:[ \\n]`), `${c.meta.code}: ${field} in its file`);
    }
    assert.ok(text.includes(`code: '${c.meta.code}'`));
    assert.equal(c.meta.source ?? 'builtin', 'builtin');
    // One engine: trace checks are checks, judged on the views, proposing HIGH capped by the one level rule.
    assert.equal(c.meta.layer, 'trace');
    assert.equal(c.meta.views, true);
    assert.deepEqual(c.meta.modes, ['default']);
  }
});

test('problems come from the vocabulary, panels are known, every check has recommendations', () => {
  for (const c of TRACE_CHECKS) {
    assert.ok(c.meta.problem && (PROBLEMS as readonly string[]).includes(c.meta.problem), c.meta.code);
    assert.ok((PANELS as readonly string[]).includes(c.meta.panel));
    assert.ok(Object.keys(c.meta.recommendations).length > 0, c.meta.code);
    assert.ok(c.meta.description.length > 40, c.meta.code);
  }
  // the trace-only problems are each named by a check
  for (const p of ['random-access', 'shared-file-contention', 'slow-calls']) assert.ok(TRACE_CHECKS.some((c) => c.meta.problem === p), p);
});

test('options read existing knobs; every trace knob is read by a check or by the level rule', () => {
  const read = new Set<string>([...LEVEL_KNOBS, 'trace_min_time_share']);
  for (const c of TRACE_CHECKS) {
    for (const o of Object.values(c.meta.options as Record<string, { knob: string }>)) {
      assert.ok(o.knob in KNOBS, `${c.meta.code}: ${o.knob}`);
      read.add(o.knob);
    }
  }
  assert.deepEqual(TRACE_KNOB_NAMES.filter((k) => !read.has(k)), []);
  assert.ok(read.has('small_bytes'), 'small requests use the one small_bytes knob');
});

test('messages: a finding and a record template each, known formats, the record named first, the cost in seconds', () => {
  // T07 judges the job's ranks on the time model, not flagged records.
  const fromRanks = new Set(['T07']);
  for (const c of TRACE_CHECKS) {
    const m = c.meta.messages as Record<string, string>;
    assert.deepEqual(Object.keys(m).sort(), ['finding', 'record'], c.meta.code);
    assert.ok(m.record.startsWith('{record}: '), c.meta.code);
    assert.ok(templatePlaceholders(m.finding).includes('seconds'), `${c.meta.code}: the finding says what it costs in seconds`);
    if (!fromRanks.has(c.meta.code)) {
      for (const key of ['records', 'view', 'share']) assert.ok(templatePlaceholders(m.finding).includes(key), `${c.meta.code}: {${key}} in the finding`);
      assert.match(m.finding, /\{share:pct\} of the time in traced calls/, `${c.meta.code}: the share says what it is a share of`);
    }
    for (const t of Object.values(m)) for (const x of t.matchAll(/\{\w+(?::(\w+))?\}/g)) if (x[1]) assert.ok(['pct', 'bytes', 'fixed2', 'seconds'].includes(x[1]), `${c.meta.code}: format ${x[1]}`);
  }
});

test('docs/trace.md lists the checks as their meta says (IOLENS_UPDATE_DOCS=1 rewrites the table)', () => {
  const path = join(REPO_ROOT, 'docs', 'trace.md');
  let doc = readFileSync(path, 'utf8');
  const a = doc.indexOf(TRACE_CHECKS_BEGIN);
  const b = doc.indexOf(TRACE_CHECKS_END);
  assert.ok(a >= 0 && b > a, 'docs/trace.md has the check table markers');
  const want = `${TRACE_CHECKS_BEGIN}\n${traceChecksTable()}${TRACE_CHECKS_END}`;
  if (process.env.IOLENS_UPDATE_DOCS) {
    doc = doc.slice(0, a) + want + doc.slice(b + TRACE_CHECKS_END.length);
    writeFileSync(path, doc);
  }
  assert.equal(doc.slice(a, b + TRACE_CHECKS_END.length), want);
});
