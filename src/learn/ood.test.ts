import assert from 'node:assert/strict';
import { test } from 'node:test';
import { zScores } from './knn.js';
import { calibrateOod, numericRanges, scoreOod } from './ood.js';
import { encode, fitPreprocessor, type FeatureSpec } from './preprocess.js';
import { Rng } from './rng.js';
import { makeTable, type Table } from './table.js';

function jobs(n: number, seed: number, system: { fs: string; scale: number; path: (i: number) => string }): Table {
  const rng = new Rng(seed);
  return makeTable({
    bytes: Float64Array.from({ length: n }, () => system.scale * 10 ** (6 + rng.next() * 3)),
    procs: Float64Array.from({ length: n }, () => 2 ** rng.int(8)),
    rate: Float64Array.from({ length: n }, () => system.scale * (1 + rng.next())),
    fs: Array.from({ length: n }, () => system.fs),
    path: Array.from({ length: n }, (_, i) => system.path(i)),
  });
}

const FEATURES: FeatureSpec[] = [
  { name: 'bytes', kind: 'numeric' },
  { name: 'procs', kind: 'numeric' },
  { name: 'rate', kind: 'numeric' },
  { name: 'fs', kind: 'categorical' },
  { name: 'path', kind: 'categorical' },
];

test('OOD: rows like the training rows pass; another system (new category, other ranges) is flagged with reasons', () => {
  // `path` holds a job id: every job has a new value, so a new value there is normal and never flagged.
  const home = { fs: 'lustre', scale: 1, path: (i: number) => `/scratch/job${i}` };
  const fit = jobs(800, 1, home);
  const valid = jobs(200, 2, { ...home, path: (i) => `/scratch/job${1000 + i}` });
  const pre = fitPreprocessor(fit, FEATURES);
  const z = zScores(encode(pre, fit).matrix, pre.stats.map((s) => s.mean), pre.stats.map((s) => s.std));
  const ref = { rows: Float32Array.from(z), n: fit.nRows };
  const cal = calibrateOod(pre, ref, encode(pre, valid));
  assert.deepEqual(
    cal.novelty.map((n) => [n.feature, n.flagged]),
    [
      ['fs', true],
      ['path', false],
    ],
  );
  const model = { ranges: numericRanges(pre), ...cal };
  const later = scoreOod(model, pre, encode(pre, jobs(500, 3, { ...home, path: (i) => `/scratch/job${5000 + i}` })), ref);
  const rate = later.ood.filter(Boolean).length / 500;
  assert.ok(rate <= 0.1, `in-distribution rows flagged: ${rate}`);
  const other = scoreOod(model, pre, encode(pre, jobs(300, 4, { fs: 'gpfs', scale: 1000, path: (i) => `/gpfs/job${i}` })), ref);
  assert.ok(other.ood.every(Boolean));
  assert.ok(other.reasons.every((r) => r.includes('unseen category in fs')));
  assert.ok(other.reasons.every((r) => r.some((s) => /^\d+ features? outside the training range \((bytes, )?rate\)$/.test(s))));
  assert.ok(other.reasons.every((r) => r.some((s) => s.startsWith('far from every training row'))));
  assert.ok(other.distance.every((d) => d > model.distanceThreshold));
});
