import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../testing/corpus.js';
import { ALL_KNOB_NAMES } from '../config/knobs.js';
import { FACTS } from '../facts/registry.js';
import { CHECKS } from './registry.js';
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
  for (const c of CHECKS) {
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

test('every knob is read by some check (small_bytes is for trace inputs only)', () => {
  const read = new Set(CHECKS.flatMap((c) => Object.values(c.meta.options as Record<string, { knob: string }>).map((o) => o.knob)));
  assert.deepEqual(ALL_KNOB_NAMES.filter((k) => !read.has(k)), ['small_bytes']);
});

test('every fact a check requires exists, and the fact registry matches the fact files', () => {
  for (const c of CHECKS) for (const f of c.meta.requires) assert.ok(f in FACTS, `${c.meta.code} requires ${f}`);
  const framework = new Set(['define-fact.ts', 'fact-context.ts', 'registry.ts', 'types.ts', 'index.ts', 'group.ts', 'source.ts', 'posix-columns.ts', 'module-measures.ts']);
  const files = readdirSync(join(REPO_ROOT, 'src', 'facts')).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !framework.has(f));
  assert.equal(files.length, Object.keys(FACTS).length);
  for (const def of Object.values(FACTS)) assert.ok(files.length > 0 && def.description.length > 0);
});

test('message templates use only known formats and every check has a message', () => {
  for (const c of CHECKS) {
    const msgs = Object.values(c.meta.messages as Record<string, string>);
    assert.ok(msgs.length > 0);
    for (const t of msgs) for (const m of t.matchAll(/\{\w+(?::(\w+))?\}/g)) if (m[1]) assert.ok(['pct', 'pctRaw', 'bytes', 'fixed2', 'float'].includes(m[1]), `${c.meta.code}: format ${m[1]}`);
  }
});
