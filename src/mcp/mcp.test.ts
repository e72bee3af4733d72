import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO_ROOT, SHARED } from '../testing/corpus.js';
import { ensureSampleStore } from '../serve/sample.js';

// `iolens mcp` driven by the official SDK's client over stdio, as an assistant would: the tools' numbers are the
// CLI's numbers.

const BIN = join(REPO_ROOT, 'bin', 'iolens.js');
const SAMPLE = join(REPO_ROOT, 'samples', 'ior-hdf5-indep-small-write-4k.darshan');
const GEN = join(SHARED, 'darshan-logs', 'generated');
const cliJson = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, any>;
};

test('iolens mcp: the SDK client lists the tools and gets the report, trace, compare, jobs and explain numbers the CLI prints', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-mcp-'));
  const client = new Client({ name: 'iolens-test', version: '1' });
  try {
    const s = await ensureSampleStore(join(dir, 'sample'), () => undefined, 30);
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--db', s.db, '--model', s.model], stderr: 'pipe' });
    await client.connect(transport);
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    assert.deepEqual(tools, ['compare', 'explain', 'job', 'jobs', 'report', 'trace_summary']);
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = (await client.callTool({ name, arguments: args })) as { content: { type: string; text: string }[]; isError?: boolean };
      return { error: !!r.isError, text: r.content[0].text };
    };
    const json = async (name: string, args: Record<string, unknown>) => {
      const r = await call(name, args);
      assert.equal(r.error, false, r.text);
      return JSON.parse(r.text) as Record<string, any>;
    };

    // report: the time model and the raised findings of `iolens report --json`
    const rep = await json('report', { path: SAMPLE });
    const cli = cliJson('report', '--json', SAMPLE);
    assert.equal(rep.io.ioTimeSlowestRankSeconds, cli.io.ioTime);
    assert.equal(rep.io.ioTimeSummedOverRanksSeconds, cli.io.cumulativeIoTime);
    const raised = (cli.insights as { code: string; level: string; cost?: { seconds: number } }[]).filter((f) => f.level === 'HIGH' || f.level === 'WARN');
    assert.deepEqual(rep.findings.map((f: { code: string; cost: { seconds: number } | null }) => [f.code, f.cost?.seconds]), raised.map((f) => [f.code, f.cost?.seconds]));
    assert.ok(rep.findings.every((f: { cost: { semantics: string } | null }) => f.cost === null || ['slowest', 'cumulative'].includes(f.cost.semantics)));

    // a file that is not there: the tool's error, one line naming it; the server goes on
    const missing = await call('report', { path: join(dir, 'nope.darshan') });
    assert.equal(missing.error, true);
    assert.match(missing.text, /nope\.darshan: no such file/);
    assert.ok(!missing.text.includes('\n'));

    // trace: the Recorder trace's time model, as `iolens trace --json`
    const recorder = join(SHARED, 'traces', 'recorder', 'flash_sedov3d_hdf5-ranks0-3');
    const tr = await json('trace_summary', { paths: [recorder] });
    const trCli = cliJson('trace', '--json', recorder);
    assert.equal(tr.io.ioTimeSlowestRankSeconds, trCli.io.ioTime);
    assert.deepEqual(tr.findings.map((f: { code: string }) => f.code), (trCli.insights as { code: string; level: string }[]).filter((f) => f.level === 'HIGH' || f.level === 'WARN').map((f) => f.code));

    // compare: the deltas and causes of `iolens compare --json`
    const other = join(GEN, 'ior-random-write-1k-fsync.darshan');
    const base = join(GEN, 'ior-seq-write-1m.darshan');
    const cmp = await json('compare', { base, others: [other] });
    const cmpCli = cliJson('compare', '--json', base, other);
    assert.equal(cmp.others[0].runTimeDeltaSeconds, cmpCli.others[0].timeDelta);
    assert.deepEqual(cmp.others[0].causes.map((c: { code: string; seconds: number | null }) => [c.code, c.seconds]), cmpCli.others[0].causes.slice(0, 10).map((c: { code: string; seconds: number | null }) => [c.code, c.seconds]));
    assert.match(cmp.others[0].verdict, /ior-random-write-1k-fsync\.darshan ran .* longer/);

    // jobs and job: the store's rows (read-only), the same as `iolens query`
    const jobs = await json('jobs', { sort: 'io_time', order: 'desc', limit: 5 });
    const q = cliJson('query', '--db', s.db, '--json', 'SELECT hash, io_time FROM jobs ORDER BY io_time DESC NULLS LAST, hash LIMIT 5') as unknown as { hash: string; io_time: number }[];
    assert.equal(jobs.total, 31);
    assert.deepEqual(jobs.jobs.map((j: { io_time: number }) => j.io_time), q.map((r) => r.io_time));
    const one = await json('job', { hash: q[0].hash });
    assert.equal(one.row.hash, q[0].hash);
    const badHash = await call('job', { hash: 'f'.repeat(64) });
    assert.equal(badHash.error, true);
    // the arguments are checked against the tool's schema
    assert.equal((await call('jobs', { limit: 1000 })).error, true);

    // explain: the learned section of the log, as the report's --model adds it
    const ex = await json('explain', { path: SAMPLE });
    const exCli = cliJson('report', '--json', '--model', s.model, SAMPLE);
    assert.equal(typeof ex.predicted, 'number');
    assert.deepEqual([ex.predicted, ex.low, ex.high, ex.output], [exCli.learned.predicted, exCli.learned.low, exCli.learned.high, exCli.learned.output]);
    assert.deepEqual(ex.contributors, exCli.learned.contributors);
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('iolens mcp: a store or model that cannot be read is one error line and exit 2, before the protocol starts', () => {
  for (const args of [['--db', '/nonexistent/s.duckdb'], ['--model', '/nonexistent/m.json']]) {
    const r = spawnSync(process.execPath, [BIN, 'mcp', ...args], { encoding: 'utf8', input: '' });
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});
