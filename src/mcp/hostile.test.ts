import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../testing/corpus.js';
import { MAX_MESSAGE_BYTES } from './stdio.js';

// `iolens mcp` spoken to line by line, as a hostile client would: oversized, malformed and batched messages get
// JSON-RPC errors and the server goes on; no tool error quotes a file's content (issue 54).

const BIN = join(REPO_ROOT, 'bin', 'iolens.js');

interface Reply {
  id: string | number | null;
  result?: { content?: { text: string }[]; isError?: boolean; tools?: unknown[] };
  error?: { code: number; message: string };
}

test('iolens mcp answers oversized, malformed and batched messages with JSON-RPC errors and keeps serving; errors quote no file content', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-mcp-hostile-'));
  const child = spawn(process.execPath, [BIN, 'mcp'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const replies: Reply[] = [];
  const waiting: (() => void)[] = [];
  let out = '';
  child.stdout.on('data', (b: Buffer) => {
    out += b.toString();
    for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
      replies.push(JSON.parse(out.slice(0, nl)) as Reply);
      out = out.slice(nl + 1);
      for (const w of waiting.splice(0)) w();
    }
  });
  const exited = new Promise<number | null>((done) => child.on('exit', done));
  /** Sends one line and waits for the next reply (the server answers in order of the lines here). */
  const ask = async (line: string | Buffer): Promise<Reply> => {
    const n = replies.length;
    const got = new Promise<void>((done) => waiting.push(done));
    child.stdin.write(line);
    child.stdin.write('\n');
    while (replies.length <= n) await Promise.race([got, exited.then(() => assert.fail(`iolens mcp stopped: ${stderr}`))]);
    return replies[n];
  };
  const call = (id: number, name: string, args: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
  try {
    const init = await ask(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }));
    assert.equal(init.id, 1);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);

    const garbage = await ask('this is not json');
    assert.deepEqual([garbage.id, garbage.error?.code], [null, -32700]);
    const batch = await ask(JSON.stringify([{ jsonrpc: '2.0', id: 2, method: 'tools/list' }]));
    assert.deepEqual([batch.id, batch.error?.code], [null, -32600]);
    const notRpc = await ask(JSON.stringify({ id: 3, hello: 'world' }));
    assert.deepEqual([notRpc.id, notRpc.error?.code], [3, -32600]);

    // 10,000 paths of 1.2 kB (12 MB, past the SDK's 10 MiB read buffer): refused by the schema, answered to its id
    const many = await ask(call(4, 'trace_summary', { paths: Array.from({ length: 10_000 }, (_, i) => `/${'p'.repeat(1200)}/${i}`) }));
    assert.equal(many.id, 4);
    assert.ok(many.error !== undefined || many.result?.isError === true, JSON.stringify(many).slice(0, 300));

    // a message past the limit: dropped as it arrives, answered -32600 to its id (at the end, as the SDK's client writes it)
    const huge = Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"report","arguments":{"path":"`), Buffer.alloc(MAX_MESSAGE_BYTES, 0x61), Buffer.from('"}},"id":5}')]);
    const big = await ask(huge);
    assert.deepEqual([big.id, big.error?.code], [5, -32600]);
    assert.match(String(big.error?.message), /more than the 33554432 this server reads/);

    // a readable file that is not a log: the tool fails in one line that quotes none of its bytes
    const secret = join(dir, 'secret.darshan');
    writeFileSync(secret, 'root:*:20000:0:99999:7:::\n');
    const r = await ask(call(6, 'report', { path: secret }));
    assert.equal(r.id, 6);
    assert.equal(r.result?.isError, true);
    const text = String(r.result?.content?.[0]?.text);
    assert.match(text, /not a Darshan log/);
    assert.ok(!/root|2000/.test(text), text);
    const pfw = join(dir, 'secret.pfw');
    writeFileSync(pfw, 'root:*:20000:0:99999:7:::\n');
    const trace = await ask(call(7, 'trace_summary', { paths: [pfw] }));
    assert.equal(trace.id, 7);
    assert.ok(!/root|2000/.test(JSON.stringify(trace)), JSON.stringify(trace));

    // and the server still answers
    const list = await ask(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/list' }));
    assert.equal(list.id, 8);
    assert.ok((list.result?.tools ?? []).length >= 3);
    child.stdin.end();
    assert.equal(await exited, 0);
    assert.equal(stderr, '');
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
