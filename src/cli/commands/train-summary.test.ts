import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../../testing/corpus.js';
import { loadBundle } from '../../models/index.js';
import { trainSummary, UNUSABLE_FACTOR } from './train.js';

const BIN = join(REPO_ROOT, 'bin', 'iolens.js');
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

test('train names a model whose validation error is absurd unusable instead of printing its numbers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-train-'));
  try {
    // A small table whose throughput follows its request size: every family fits it.
    const lines = ['job,xfer,procs,mibs'];
    for (let i = 0; i < 80; i++) lines.push(`j${i},${2 ** (10 + (i % 12))},${1 + (i % 7)},${(2 ** (i % 12)) * (1 + (i % 5) / 10)}`);
    writeFileSync(join(dir, 't.csv'), `${lines.join('\n')}\n`);
    writeFileSync(join(dir, 'f.txt'), 'xfer\nprocs\n');
    const db = join(dir, 's.duckdb');
    assert.equal(cli('import-features', join(dir, 't.csv'), '--db', db, '--table', 't', '--key', 'job', '-q').status, 0);
    const out = join(dir, 'm.json');
    const t = cli('train', '--db', db, '--table', 't', '--target', 'mibs', '--features', join(dir, 'f.txt'), '--models', 'gbdt,ridge', '--out', out, '-q');
    assert.equal(t.status, 0, t.stderr);
    assert.doesNotMatch(t.stdout, /unusable/i);
    // The same model, its ridge as the issue saw one on a real table: median factor ×17176833450.867, R² −663.
    const b = loadBundle(out);
    const ridge = b.model.members.find((m) => m.model.type === 'ridge')!;
    const broken = { ...b, model: { ...b.model, members: b.model.members.map((m) => (m === ridge ? { ...m, validation: { ...m.validation, medianErrorFactor: 17176833450.867, r2: -663, rmse: 10.2 } } : m)) } };
    const text = trainSummary(broken, out, statSync(out).size);
    const row = text.split('\n').find((l) => l.startsWith('ridge '))!;
    assert.match(row, /–\s+–\s+unusable$/);
    assert.doesNotMatch(text, /17176833450|-663/);
    assert.match(text, new RegExp(`Unusable on the validation rows: ridge \\(median error more than ×${UNUSABLE_FACTOR}`));
    // The usable family keeps its numbers.
    assert.match(text.split('\n').find((l) => l.startsWith('gbdt '))!, /×\d+\.\d{3}$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
