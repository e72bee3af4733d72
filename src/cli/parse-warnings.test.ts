import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT, SHARED } from '../testing/corpus.js';

const parse = (...args: string[]) => spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'parse', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

test("parse keeps darshan-parser's data warnings: incomplete modules on stderr, in every output form", () => {
  const partial = join(SHARED, 'darshan-logs', 'public', 'imbalanced-io.darshan');
  for (const mode of [[], ['--json'], ['--perf'], ['--dxt']]) {
    const r = parse(...mode, partial);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '# Warning: the POSIX module contains incomplete data: the Darshan runtime ran out of memory for records (some files are missing).\n', mode.join(' '));
  }
  const dxt = parse(join(SHARED, 'darshan-logs', 'public', 'partial_data_dxt.darshan'));
  assert.match(dxt.stderr, /the DXT_POSIX module contains incomplete data: the Darshan runtime ran out of memory for trace segments/);
  const complete = parse(join(REPO_ROOT, 'samples', 'ior-hdf5-indep-small-write-4k.darshan'));
  assert.equal(complete.stderr, '');
});
