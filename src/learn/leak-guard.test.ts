import assert from 'node:assert/strict';
import { test } from 'node:test';
import { leakGuard } from './leak-guard.js';
import { Rng } from './rng.js';
import { makeTable } from './table.js';

test('leak guard: drops near-functions of the target or run time and rate × window products, keeps the rest', () => {
  const rng = new Rng(1);
  const n = 500;
  const runtime = Float64Array.from({ length: n }, () => 10 ** (1 + rng.next() * 3));
  const nodes = Float64Array.from({ length: n }, () => 2 ** rng.int(10));
  const rate = Float64Array.from({ length: n }, () => 10 ** (6 + rng.next() * 3));
  const bytes = Float64Array.from({ length: n }, () => 10 ** (6 + rng.next() * 5));
  const tput = Float64Array.from(bytes, (b, i) => b / runtime[i] / 2 ** 20);
  const table = makeTable({
    runtime,
    throughput: tput,
    nodes,
    rate,
    bytes,
    nodehrs: Float64Array.from(nodes, (v, i) => (v * runtime[i]) / 3600),
    server_bytes: Float64Array.from(rate, (v, i) => v * runtime[i] * (1 + 0.002 * rng.normal())),
    tput_copy: Float64Array.from(tput, (v) => v * 1.01),
    elapsed_ms: Float64Array.from(runtime, (v) => v * 1000 + 5),
    label: Array.from({ length: n }, () => 'x'),
  });
  const cands = ['nodes', 'rate', 'bytes', 'nodehrs', 'server_bytes', 'tput_copy', 'elapsed_ms', 'label'];
  const r = leakGuard(table, cands, 'throughput', 'runtime');
  assert.deepEqual(
    r.dropped.map((d) => d.feature),
    ['tput_copy', 'elapsed_ms', 'nodehrs', 'server_bytes'],
  );
  assert.match(r.dropped[0].reason, /near-exact function of the target throughput/);
  assert.match(r.dropped[1].reason, /near-exact function of the run time runtime/);
  assert.match(r.dropped[2].reason, /nodehrs ≈ nodes × run time runtime/);
  assert.match(r.dropped[3].reason, /server_bytes ≈ rate × run time runtime/);
  // Without a run-time column only the target rule can fire.
  assert.deepEqual(
    leakGuard(table, cands, 'throughput').dropped.map((d) => d.feature),
    ['tput_copy'],
  );
});
