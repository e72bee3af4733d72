import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FEATURE_SETS } from '../features/registry.js';
import { MODULE_TOTALS } from '../facts/module-measures.js';
import { featureName, featureValueText, MODULE_NAMES } from './feature-names.js';

test('the name table names every feature-set column, with the registry\'s storage and unit', () => {
  for (const set of FEATURE_SETS) {
    for (const c of set.columns) {
      const col = `${set.columnPrefix}${c.name}`;
      const f = featureName(col);
      assert.equal(f.source, 'table', col);
      assert.notEqual(f.name, col, `${col} has words`);
      assert.doesNotMatch(f.name, /_/, `${col}: words, not a column name`);
      assert.equal(f.log10, c.unit === 'log10', `${col} log10`);
      if (c.unit === 'ratio' || c.unit === 'bytes' || c.unit === 'seconds') assert.equal(f.unit, c.unit, `${col} unit`);
    }
  }
  for (const m of MODULE_TOTALS) assert.equal(MODULE_NAMES[m.key].replace(' file', '_FILE').replace(' variable', '_VAR').toUpperCase(), m.module, m.key);
});

test('names and values in their units', () => {
  assert.equal(featureName('gauge_size_write_0_100_perc').name, 'share of accesses that are writes of 0–100 B');
  assert.equal(featureName('aiio_posix_size_write_1k_10k').name, 'writes of 1–10 KiB');
  assert.equal(featureName('aiio_posix_size_write_1k_10k').counter, 'POSIX_SIZE_WRITE_1K_10K');
  assert.equal(featureValueText('aiio_posix_size_write_1k_10k', Math.log10(52000 + 1)), '52,000');
  assert.equal(featureValueText('gauge_log10_total_bytes', Math.log10(4096 + 1)), '4.00 KiB');
  assert.equal(featureValueText('gauge_log10_read_time', Math.log10(2.5 + 1)), '2.50 s');
  assert.equal(featureValueText('gauge_bytes_read_perc', 0.25), '25.0%');
  assert.equal(featureName('mpiio_writes').name, 'MPI-IO write operations');
  assert.equal(featureName('io_time').name, 'I/O time (slowest rank)');
  // Imported tables keep their column names; the unit comes from the name.
  assert.deepEqual([featureName('darshan_tot_bytes_read_posix').name, featureName('darshan_tot_bytes_read_posix').unit], ['darshan_tot_bytes_read_posix', 'bytes']);
});
