import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { REPO_ROOT } from './testing/corpus.js';

/**
 * The dependency rules of docs/architecture.md, checked on every import of every source file (tests excluded):
 * data flows one way, read → facts → checks/views/features → findings → render, with the contract underneath
 * everything and the front-ends (CLI) on top. A layer may import only the layers listed for it.
 */
const LAYERS: Record<string, readonly string[]> = {
  contract: [],
  text: ['contract'],
  util: ['contract', 'text'],
  /** Read: Darshan's codecs and the trace readers with their columnar event model (formats/darshan, formats/trace). */
  formats: ['contract', 'text', 'util'],
  config: ['contract'],
  /** Facts derived once per input (the time model among them), from a log's tables or a trace's events. */
  facts: ['contract', 'util', 'formats'],
  /** Trace views: the cube of a trace's events and its views from every perspective (WisIO's), scored. */
  trace: ['contract', 'text', 'util', 'config', 'formats', 'facts'],
  /** One check engine: the log checks, the trace checks (over the views) and user rules (YAML). */
  checks: ['contract', 'text', 'util', 'config', 'facts', 'formats', 'trace'],
  features: ['contract', 'facts', 'formats'],
  /** Learned models and clustering: pure algorithms over tables and matrices. */
  learn: ['contract', 'util'],
  cluster: ['contract', 'util'],
  /** One report builder: findings, the verdict and the report of a log or of a trace. */
  report: ['contract', 'text', 'config', 'facts', 'checks', 'features', 'formats', 'trace'],
  render: ['contract', 'text'],
  /** One entry per input (logs, traces), the trace's scale-out (threads, shards) and library resources. */
  pipeline: ['contract', 'text', 'util', 'formats', 'trace', 'config', 'facts', 'checks', 'features', 'report', 'render'],
  store: ['contract', 'text', 'util', 'pipeline', 'formats', 'facts', 'features', 'render'],
  /** Clustering runs over the store: feature tables → HDBSCAN* → summaries, local models, explanations → tables. */
  clustering: ['contract', 'text', 'util', 'store', 'cluster', 'learn', 'features'],
  /** `iolens compare`: runs read through the pipeline, their settings from facts, the difference ranked by seconds. */
  compare: ['contract', 'text', 'util', 'facts', 'pipeline', 'learn', 'models', 'store'],
  /** The lab's manifest reader (lab/MANIFEST.json). */
  lab: ['contract'],
  /** Evaluation on labelled logs: re-runs checks under other knob values on facts derived once; blame of learned models. */
  eval: ['contract', 'text', 'util', 'pipeline', 'config', 'formats', 'facts', 'checks', 'lab', 'features', 'learn', 'models', 'compare'],
  api: ['contract', 'text', 'util', 'pipeline', 'formats', 'config', 'checks', 'features', 'render', 'store'],
  /** The web service: HTTP, the decoding pool, the store's pages; never the CLI. */
  serve: ['contract', 'text', 'util', 'pipeline', 'store', 'render', 'learn', 'cluster', 'models', 'clustering', 'compare'],
  /** `iolens mcp`: the same operations as Model Context Protocol tools (read-only), beside the web service. */
  mcp: ['contract', 'text', 'util', 'pipeline', 'store', 'render', 'models', 'compare', 'serve'],
  /** The web pages' script (a browser bundle): the contract, the text helpers and the shared plot model only. */
  web: ['contract', 'text', 'render'],
  /** Slurm job arrays (iolens slurm): plans, scripts, the merge step and the follower, over the store and the trace shards. */
  slurm: ['contract', 'text', 'util', 'pipeline', 'render', 'store'],
  /** Learned models at work: feature tables from the store or from logs, model files, the report's learned section. */
  models: ['contract', 'text', 'util', 'pipeline', 'config', 'checks', 'features', 'learn', 'store'],
  cli: ['*'],
  testing: ['*'],
  /** The fuzz harness (npm run fuzz): a development tool, not shipped. */
  fuzz: ['*'],
};

/** The layer of a source file (path relative to src/, forward slashes). */
function layerOf(file: string): string {
  if (file === 'index.ts') return 'api';
  const [top] = file.split('/');
  if (file.split('/').includes('testing')) return 'testing';
  return top.replace(/\.ts$/, '');
}

/**
 * Edges that break the rules today and are being removed (issue 11). The test fails when one of them is gone, so
 * the list only shrinks; it must end empty.
 */
const KNOWN_VIOLATIONS = new Set<string>([
]);

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) sourceFiles(p, out);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const SRC = join(REPO_ROOT, 'src');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function imports(): { from: string; to: string }[] {
  const edges: { from: string; to: string }[] = [];
  for (const abs of sourceFiles(SRC)) {
    const from = relative(SRC, abs).split('\\').join('/');
    const text = readFileSync(abs, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = (m[1] ?? m[2]).replace(/\.js$/, '.ts');
      const to = relative(SRC, normalize(join(dirname(abs), spec))).split('\\').join('/');
      edges.push({ from, to });
    }
  }
  return edges;
}

test('every source file belongs to a known layer', () => {
  const unknown = sourceFiles(SRC)
    .map((abs) => relative(SRC, abs).split('\\').join('/'))
    .filter((f) => !(layerOf(f) in LAYERS));
  assert.deepEqual(unknown, []);
});

test('imports point one way: each layer imports only the layers below it', () => {
  const bad = new Set<string>();
  for (const { from, to } of imports()) {
    const a = layerOf(from);
    const b = layerOf(to);
    if (a === b) continue;
    const allowed = LAYERS[a] ?? [];
    if (allowed.includes('*') || allowed.includes(b)) continue;
    bad.add(`${from} -> ${to}`);
  }
  const unexpected = [...bad].filter((e) => !KNOWN_VIOLATIONS.has(e)).sort();
  assert.deepEqual(unexpected, [], 'imports against the layer rules');
  const gone = [...KNOWN_VIOLATIONS].filter((e) => !bad.has(e)).sort();
  assert.deepEqual(gone, [], 'fixed violations still listed in KNOWN_VIOLATIONS: remove them');
});

test('the contract imports nothing outside itself, not even packages', () => {
  for (const abs of sourceFiles(join(SRC, 'contract'))) {
    const text = readFileSync(abs, 'utf8');
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/g)) {
      assert.ok(m[1].startsWith('./'), `${relative(SRC, abs)} imports ${m[1]}`);
    }
  }
});

test('the layer rules themselves have no cycle', () => {
  const seen = new Map<string, number>();
  const visit = (l: string, path: string[]): void => {
    if (seen.get(l) === 2) return;
    assert.notEqual(seen.get(l), 1, `cycle: ${[...path, l].join(' -> ')}`);
    seen.set(l, 1);
    for (const d of LAYERS[l]) if (d !== '*') visit(d, [...path, l]);
    seen.set(l, 2);
  };
  for (const l of Object.keys(LAYERS)) visit(l, []);
});

test('no import cycle between source files', () => {
  const graph = new Map<string, string[]>();
  for (const { from, to } of imports()) {
    if (!graph.has(from)) graph.set(from, []);
    graph.get(from)!.push(to);
  }
  const state = new Map<string, number>();
  const cycles: string[] = [];
  const visit = (f: string, stack: string[]): void => {
    const s = state.get(f);
    if (s === 2) return;
    if (s === 1) {
      cycles.push([...stack.slice(stack.indexOf(f)), f].join(' -> '));
      return;
    }
    state.set(f, 1);
    stack.push(f);
    for (const t of graph.get(f) ?? []) visit(t, stack);
    stack.pop();
    state.set(f, 2);
  };
  for (const f of [...graph.keys()].sort()) visit(f, []);
  assert.deepEqual(cycles, []);
});
