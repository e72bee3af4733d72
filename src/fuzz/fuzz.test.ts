import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fuzz, mutate, mutationArb } from './harness.js';
import { loadSeeds } from './seeds.js';
import { TARGET_NAMES } from './targets.js';
import fc from 'fast-check';

// A short fixed-seed run of the fuzzer (`npm run fuzz -- --minutes N` runs it for longer, with a fresh seed).

test('item 10: a fixed-seed fuzz run over every reader finds no untyped error, hang or memory overrun', { timeout: 300_000 }, async () => {
  const seeds = await loadSeeds();
  for (const t of ['darshan', 'dxt', 'dftracer', 'recorder', 'tar', 'rules'] as const) assert.ok(seeds[t].length > 0, `${t} has seeds without ../shared`);
  const res = await fuzz({ seeds, targets: TARGET_NAMES, seed: 20240611, inputsPerTarget: 100, outDir: null });
  assert.deepEqual(res.findings, []);
  for (const [t, s] of Object.entries(res.stats)) {
    assert.equal(s.inputs, 100, t);
    assert.equal(s.ok + s.typedErrors, 100, t);
  }
  // the mutations reach past the first checks: some inputs of every target still read
  for (const [t, s] of Object.entries(res.stats)) if (t !== 'rules') assert.ok(s.ok > 0, `${t}: no mutated input read`);
});

test('item 10: mutations are reproducible from their seed', () => {
  const seeds = [{ 'a.bin': Uint8Array.from({ length: 64 }, (_, i) => i) }];
  const [m1] = fc.sample(mutationArb, { seed: 5, numRuns: 1 });
  const [m2] = fc.sample(mutationArb, { seed: 5, numRuns: 1 });
  assert.deepEqual(mutate(seeds, m1), mutate(seeds, m2));
  assert.deepEqual(seeds[0]['a.bin'], Uint8Array.from({ length: 64 }, (_, i) => i));
});
