import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { corpusLogs } from '../testing/corpus.js';
import { diagnoseLog } from '../pipeline/diagnose.js';
import { CHECKS } from '../checks/registry.js';
import { TRACE_RUN_CHECKS } from '../checks/trace/registry.js';
import type { Advice, Report } from '../contract/index.js';

/**
 * Advice that agrees with the report (src/checks/advice.ts), checked against evidence the test reads for itself:
 * the report's own M04/M05 observations (share of collective MPI-IO calls) and the file-system types darshan-parser
 * prints beside each log. The advice kinds a recommendation names come from the checks' meta, and every
 * recommendation whose words ask for collective calls or striping must name its kind (derived, not a hand list).
 */

const ASKS: readonly [Advice, RegExp][] = [
  ['collective-writes', /collective writes|MPI_File_write_all\b/i],
  ['collective-reads', /collective reads|MPI_File_read_all\b/i],
  ['striping', /\blfs setstripe\b|stripe count|On Lustre/i],
];

test('every recommendation that asks for collective calls or striping names what it asks (its advice kind)', () => {
  for (const c of [...CHECKS, ...TRACE_RUN_CHECKS]) {
    for (const [id, r] of Object.entries(c.meta.recommendations as Record<string, { text: string; advises?: Advice }>)) {
      // Texts that observe the calls are collective already ("The writes are already collective: …") ask nothing.
      if (/already collective/.test(r.text)) continue;
      const asks = ASKS.filter(([, re]) => re.test(r.text)).map(([a]) => a);
      if (asks.length) assert.ok(r.advises !== undefined, `${c.meta.code}.${id} asks for ${asks.join(', ')} but names no advice kind: "${r.text}"`);
    }
  }
});

/** File-system types of the log's files, from darshan-parser's output beside it (its last column). */
function fsTypes(base: string): Set<string> | null {
  const p = `${base}.parser.txt.gz`;
  if (!existsSync(p)) return null;
  const out = new Set<string>();
  for (const line of gunzipSync(readFileSync(p)).toString('utf8').split('\n')) {
    if (line.startsWith('#')) continue;
    const f = line.split('\t');
    if (f.length >= 8 && f[7] !== 'UNKNOWN' && f[7] !== 'N/A' && f[7] !== '') out.add(f[7]);
  }
  return out;
}

function collectiveShare(r: Report, code: 'M04' | 'M05'): number | null {
  const f = r.insights.find((i) => i.code === code);
  return f && typeof f.data.ratio === 'number' ? f.data.ratio : null;
}

test('no recommendation on any shared log asks for what the same report shows the job does already', () => {
  const bad: string[] = [];
  let logs = 0, withheld = 0;
  for (const log of corpusLogs()) {
    let r: Report;
    try {
      r = diagnoseLog(log.path);
    } catch {
      continue; // logs IOLens refuses are other tests' business
    }
    logs++;
    const w = collectiveShare(r, 'M05');
    const rd = collectiveShare(r, 'M04');
    const fs = fsTypes(log.base);
    const noStripes = fs !== null && fs.size > 0 && ![...fs].some((t) => /lustre|beegfs|pvfs2|orangefs|ceph/i.test(t));
    for (const f of r.insights) {
      for (const rec of f.recommendations) {
        const a = rec.advises;
        const contradicted =
          ((a === 'collective-writes' || a === 'collective-io') && w !== null && w >= 0.95 && (a === 'collective-writes' || rd === null || rd >= 0.95)) ||
          (a === 'collective-reads' && rd !== null && rd >= 0.95) ||
          (a === 'striping' && noStripes);
        if (contradicted) bad.push(`${log.set}/${log.name}: ${rec.id} (${a}) with M05 ${w}, M04 ${rd}, file systems ${[...(fs ?? [])].join(',')}`);
      }
    }
    if ((w !== null && w >= 0.95) || noStripes) withheld++;
  }
  assert.deepEqual(bad, []);
  assert.ok(logs >= 150, `logs diagnosed: ${logs}`);
  // The evidence exists on enough logs for the check to mean something.
  assert.ok(withheld >= 20, `logs where some advice is contradicted: ${withheld}`);
});
