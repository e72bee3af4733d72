import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../testing/corpus.js';
import { ensureSampleStore } from '../serve/sample.js';

// A model that does not predict better than the training median on its own validation rows gives no causes: the
// learned section says why (issue 42, "honest about accuracy").

const BIN = join(REPO_ROOT, 'bin', 'iolens.js');
const SAMPLE = join(REPO_ROOT, 'samples', 'ior-hdf5-indep-small-write-4k.darshan');

test('the learned diagnosis of a model below its median baseline: no causes, and report --model and explain say why', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-gate-'));
  try {
    const s = await ensureSampleStore(join(dir, 'sample'), () => undefined, 30);
    const report = (model: string) => {
      const r = spawnSync(process.execPath, [BIN, 'report', '--json', '--model', model, SAMPLE], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return (JSON.parse(r.stdout) as { learned: Record<string, any> }).learned;
    };
    // the sample's model beats its baseline: causes are given, and the bar is stated
    const doc = JSON.parse(readFileSync(s.model, 'utf8'));
    const v = doc.ensemble.validation, bar = doc.card.baseline;
    assert.ok(v.rmse < bar.rmse);
    const good = report(s.model);
    assert.equal(good.notUsed, undefined);
    assert.ok(good.contributors.length > 0);
    assert.deepEqual(good.model.baselineValidation, { rmse: bar.rmse, r2: bar.r2, medianErrorFactor: bar.medianErrorFactor });
    // the same file with the median predicting better on validation than the ensemble did
    doc.card.baseline = { ...bar, rmse: v.rmse * 0.9, medianErrorFactor: v.medianErrorFactor * 0.9 };
    const poor = join(dir, 'poor.json');
    writeFileSync(poor, JSON.stringify(doc));
    const p = report(poor);
    assert.match(p.notUsed, /^the model does not predict better than the median of its training jobs on its validation rows \(error ×[\d.]+ against ×[\d.]+, RMSE [\d.]+ against [\d.]+ in log10 space\): no learned diagnosis$/);
    assert.deepEqual([p.contributors, p.corroborated, p.modelOnly, p.findingsOnly], [[], [], [], []]);
    assert.match(p.summary, / No causes: the model does not predict better than the median/);
    // the prediction itself is the same model's
    assert.equal(p.predicted, good.predicted);
    // its findings: L01 alone, INFO, saying why (no L02 causes from a model that cannot tell)
    const poorReport = JSON.parse(spawnSync(process.execPath, [BIN, 'report', '--json', '--model', poor, SAMPLE], { encoding: 'utf8' }).stdout) as { insights: { code: string; level: string; source?: string; message: string }[] };
    const model = poorReport.insights.filter((i) => i.source === 'model');
    assert.deepEqual(model.map((i) => [i.code, i.level]), [['L01', 'INFO']]);
    assert.match(model[0].message, /No causes: the model does not predict better than the median/);
    // the terminal report says it too
    const text = spawnSync(process.execPath, [BIN, 'report', '--model', poor, SAMPLE], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', COLUMNS: '200' } });
    assert.match(text.stdout.replace(/\s*│\s*/g, ' ').replace(/\s+/g, ' '), /No causes: the model does not predict better than the median of its training jobs/);
    // explain applies the same gate: the numbers stay (they add up), no line names a cause
    const explain = (model: string, ...more: string[]) => spawnSync(process.execPath, [BIN, 'explain', '--model', model, SAMPLE, ...more], { encoding: 'utf8' });
    const goodJson = JSON.parse(explain(s.model, '--json').stdout) as Record<string, any>;
    assert.equal(goodJson.notUsed, undefined);
    assert.ok(goodJson.lines.length > 0);
    const poorRun = explain(poor, '--json');
    assert.equal(poorRun.status, 0, poorRun.stderr);
    const poorJson = JSON.parse(poorRun.stdout) as Record<string, any>;
    assert.deepEqual(poorJson.lines, []);
    assert.equal(poorJson.notUsed, p.notUsed);
    assert.deepEqual(poorJson.contributions, goodJson.contributions);
    const poorText = explain(poor).stdout;
    assert.match(poorText, /^No causes: the model does not predict better than the median of its training jobs on its validation rows \(error ×[\d.]+ against ×[\d.]+, RMSE [\d.]+ against [\d.]+ in log10 space\)\.$/m);
    assert.doesNotMatch(poorText, /Largest (costs|gains)/);
    assert.match(explain(s.model).stdout, /^Largest costs:$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
