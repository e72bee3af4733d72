import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../testing/corpus.js';
import { ALL_KNOB_NAMES, TRACE_KNOB_NAMES } from '../config/knobs.js';
import { FACTS } from '../facts/registry.js';
import { CHECKS } from './registry.js';
import { TRACE_CHECKS } from './trace/registry.js';
import { LEVEL_KNOBS } from './level-policy.js';
import { DRISHTI_CSV_CODES } from '../contract/index.js';
import { SNIPPETS } from './types.js';
import { checkDoc, DOC_HEADINGS } from './docs.js';

const SRC = join(REPO_ROOT, 'src', 'checks');
const FOLDERS = ['diagnosis', 'mpiio', 'posix', 'stdio'];
const checkFiles = FOLDERS.flatMap((d) => readdirSync(join(SRC, d)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).map((f) => `${d}/${f}`));

test('every check file is registered, and every registered check has a file', () => {
  const fromFiles = checkFiles.map((f) => f.split('/')[1].slice(0, 3).toUpperCase()).sort();
  assert.deepEqual(CHECKS.map((c) => c.meta.code).sort(), fromFiles);
});

test('codes are unique and code and slug match the file name', () => {
  assert.equal(new Set(CHECKS.map((c) => c.meta.code)).size, CHECKS.length);
  for (const c of CHECKS) {
    const file = `${c.meta.code.toLowerCase()}-${c.meta.slug}.ts`;
    assert.ok(checkFiles.some((f) => f.endsWith(`/${file}`)), `${c.meta.code} lives in ${file}`);
  }
});

const FAMILIES = join(SRC, 'families');
const familyFiles = readdirSync(FAMILIES).filter((f) => f.endsWith('.ts')).map((f) => `families/${f}`);

/** A check's source with literal concatenations joined (`'a ' +⏎ 'b'` → `'a b'`) and quote escapes dropped, so texts read verbatim. */
function joinedSource(file: string): string {
  return readFileSync(join(SRC, file), 'utf8')
    .replace(/(['"`])\s*\+\s*(['"`])/g, '')
    .replace(/\\(['"`\\])/g, '$1');
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A string literal holding exactly `s`, in any quote style (joined pieces may open with one quote and close with another). */
const literal = (s: string) => `['"\`]${escapeRe(s)}['"\`]`;

/**
 * What a meta literal must contain, derived from its value: each property `key: value` as a pattern over the source.
 * Strings are one literal in any quote style, numbers as written, string lists element by element, empty objects and
 * lists as `{}` and `[]`, the keys of non-empty objects (message ids, option names…) as `key: {`, and list items that
 * are objects (Drishti differences) by their own properties.
 */
function metaPatterns(key: string, value: unknown): { what: string; re: RegExp }[] {
  const k = `\\b${escapeRe(key)}:\\s*`;
  if (typeof value === 'string') return [{ what: `${key}: '${value}'`, re: new RegExp(`${k}(?:${literal(value)})`) }];
  if (typeof value === 'number' || typeof value === 'boolean') return [{ what: `${key}: ${value}`, re: new RegExp(`${k}${value}\\b`) }];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    const items = value.map((v: string) => `\\s*(?:${literal(v)})`).join(',');
    return [{ what: `${key}: [${value.join(', ')}]`, re: new RegExp(`${k}\\[${items}${value.length ? ',?' : ''}\\s*\\]`) }];
  }
  if (Array.isArray(value)) return [{ what: `${key}: [`, re: new RegExp(`${k}\\[`) }, ...value.flatMap((v) => Object.entries(v as object).flatMap(([kk, vv]) => metaPatterns(kk, vv)))];
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (!entries.length) return [{ what: `${key}: {}`, re: new RegExp(`${k}\\{\\s*\\}`) }];
    return [{ what: `${key}: {`, re: new RegExp(`${k}\\{`) }, ...entries.flatMap(([kk, vv]) => metaPatterns(kk, vv))];
  }
  throw new Error(`meta.${key}: unexpected value ${String(value)}`);
}

test('every check file declares its whole meta as a literal (code, texts, message ids, options and knobs, compat)', () => {
  for (const c of CHECKS) {
    const file = checkFiles.find((f) => f.endsWith(`/${c.meta.code.toLowerCase()}-${c.meta.slug}.ts`));
    assert.ok(file, `${c.meta.code} has a file`);
    const src = joinedSource(file);
    assert.match(src, /^export default defineCheck\(\{\n  meta: \{\n/m, `${file}: the default export is defineCheck({ meta: { … } })`);
    assert.equal(src.match(/\bmeta:/g)?.length, 1, `${file} has one meta block`);
    const { docsUrl: _derived, ...meta } = c.meta;
    const patterns = Object.entries(meta).flatMap(([k, v]) => metaPatterns(k, v));
    assert.ok(patterns.some((p) => p.what === `code: '${c.meta.code}'`));
    for (const p of patterns) assert.match(src, p.re, `${file} declares ${p.what}`);
  }
});

test('families/ hold shared run logic only: no meta, no check texts', () => {
  assert.ok(familyFiles.length > 0);
  const texts = CHECKS.flatMap((c) => [
    c.meta.title,
    c.meta.failureTitle,
    ...Object.values(c.meta.messages as Record<string, string>),
    ...Object.values(c.meta.recommendations as Record<string, { text: string }>).map((r) => r.text),
    ...Object.values(c.meta.options as Record<string, { description?: string }>).flatMap((o) => (o.description ? [o.description] : [])),
  ]);
  for (const f of familyFiles) {
    const src = joinedSource(f);
    for (const banned of [/\bmeta\s*:/, /\bcode\s*:/, /\bdefineCheck\b/, /\bknob\s*:/, /\bmessages\s*:/, /\bfailureTitle\s*:/, /\bcompat\s*:/]) {
      assert.doesNotMatch(src, banned, `${f} declares no meta (${banned.source})`);
    }
    for (const t of texts) assert.ok(!src.includes(t), `${f} does not hold the text "${t}"`);
  }
});

test('every check has a table test next to it', () => {
  for (const f of checkFiles) {
    const t = join(SRC, f.replace(/\.ts$/, '.test.ts'));
    assert.ok(existsSync(t), `${t} exists`);
    const text = readFileSync(t, 'utf8');
    assert.match(text, /fires: \[/);
    assert.match(text, /quiet: \[/);
  }
});

test('every check has its docs page, up to date with its meta (IOLENS_UPDATE_DOCS=1 rewrites them)', () => {
  for (const c of [...CHECKS, ...TRACE_CHECKS]) {
    assert.equal(c.meta.docsUrl, `docs/checks/${c.meta.code}.md`);
    const p = join(REPO_ROOT, 'docs', 'checks', `${c.meta.code}.md`);
    const want = checkDoc(c);
    if (process.env.IOLENS_UPDATE_DOCS) writeFileSync(p, want);
    assert.ok(existsSync(p), `${p} exists`);
    const text = readFileSync(p, 'utf8');
    for (const h of DOC_HEADINGS) assert.ok(text.includes(`\n## ${h}\n`), `${c.meta.code}.md has "## ${h}"`);
    assert.equal(text, want, `${c.meta.code}.md matches its meta`);
  }
});

test('every Drishti code is covered by exactly one check', () => {
  const covered = CHECKS.flatMap((c) => (c.meta.compat.drishti ? [c.meta.compat.drishti] : [])).sort();
  assert.deepEqual(covered, [...DRISHTI_CSV_CODES].sort());
});

test('snippets: every referenced snippet exists, every snippet file is declared and used', () => {
  const files = readdirSync(join(REPO_ROOT, 'snippets')).sort();
  assert.deepEqual(Object.keys(SNIPPETS).sort(), files);
  const used = new Set(CHECKS.flatMap((c) => Object.values(c.meta.recommendations as Record<string, { snippet?: string }>).map((r) => r.snippet)).filter(Boolean));
  assert.deepEqual([...used].sort(), files);
});

test('every knob is read by some check or by the level rule (small_bytes and the trace knobs: by the trace checks, src/checks/trace/meta.test.ts)', () => {
  const read = new Set<string>([...CHECKS.flatMap((c) => Object.values(c.meta.options as Record<string, { knob: string }>).map((o) => o.knob)), ...LEVEL_KNOBS]);
  assert.deepEqual(ALL_KNOB_NAMES.filter((k) => !read.has(k) && !TRACE_KNOB_NAMES.includes(k)), ['small_bytes']);
});

test('every fact a check requires exists, and the fact registry matches the fact files', () => {
  for (const c of CHECKS) for (const f of c.meta.requires) assert.ok(f in FACTS, `${c.meta.code} requires ${f}`);
  const framework = new Set(['define-fact.ts', 'fact-context.ts', 'registry.ts', 'types.ts', 'index.ts', 'group.ts', 'source.ts', 'posix-columns.ts', 'module-measures.ts', 'time-model.ts', 'dxt-stream.ts', 'not-storage.ts']);
  const files = readdirSync(join(REPO_ROOT, 'src', 'facts')).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !framework.has(f));
  assert.equal(files.length, Object.keys(FACTS).length);
  for (const def of Object.values(FACTS)) assert.ok(files.length > 0 && def.description.length > 0);
});

test('message templates use only known formats and every check has a message', () => {
  for (const c of CHECKS) {
    const msgs = Object.values(c.meta.messages as Record<string, string>);
    assert.ok(msgs.length > 0);
    for (const t of msgs) for (const m of t.matchAll(/\{\w+(?::(\w+))?\}/g)) if (m[1]) assert.ok(['pct', 'pctRaw', 'bytes', 'fixed2', 'float', 'seconds'].includes(m[1]), `${c.meta.code}: format ${m[1]}`);
  }
});
