#!/usr/bin/env node
// Checks that the lab's parallel file system costs what its links say (lab/pfs/README.md): a round trip to a server (measured),
// a 4 KiB write, an fsync and an open each cost at least one round trip, and 2 MiB sequential writes reach the shaped
// bandwidth (reads are reported). Prints a Markdown table (docs/lab.md keeps the last one) and exits 1 when a check fails.
//
//   node lab/pfs/check.mjs MOUNT RTT_US RATE_MBIT
import { closeSync, fsyncSync, mkdirSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';

const [mount, rttArg, rateArg] = process.argv.slice(2);
if (!mount || !rttArg || !rateArg) {
  console.error('usage: check.mjs MOUNT RTT_US RATE_MBIT');
  process.exit(2);
}
const rttS = Number(rttArg) / 1e6;
const rateMiBs = (Number(rateArg) * 1e6) / 8 / 1048576;

const now = () => Number(process.hrtime.bigint()) / 1e9;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/**
 * Round trips over one established TCP connection to an echo server started in the first server's namespace: 64 bytes
 * out, 64 back, as a small request and its reply cross the link.
 */
async function echoRoundTrips(n) {
  const code = `require('net').createServer((s) => s.on('data', (d) => s.write(d))).listen(7777, '10.77.0.1', () => console.log('up'))`;
  const srv = spawn('ip', ['netns', 'exec', 'iolpfs-s1', process.execPath, '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the echo server did not start')), 10000);
      srv.stdout.once('data', () => (clearTimeout(timer), resolve()));
      srv.once('exit', () => reject(new Error('the echo server exited')));
    });
    const sock = connect({ host: '10.77.0.1', port: 7777 });
    sock.setNoDelay(true);
    await new Promise((resolve, reject) => (sock.once('connect', resolve), sock.once('error', reject)));
    const out = [];
    const msg = Buffer.alloc(64, 1);
    for (let i = 0; i < n; i++) {
      const t = now();
      await new Promise((resolve) => {
        let got = 0;
        const on = (d) => {
          got += d.length;
          if (got >= msg.length) (sock.off('data', on), resolve());
        };
        sock.on('data', on);
        sock.write(msg);
      });
      out.push(now() - t);
    }
    sock.destroy();
    return out;
  } finally {
    srv.kill();
  }
}

const dir = join(mount, `.iolens-check-${process.pid}`);
mkdirSync(dir, { recursive: true });
const rows = [];
const row = (what, measured, need, ok) => rows.push({ what, measured, need, ok });
const ms = (s) => `${(s * 1e3).toFixed(3)} ms`;
try {
  const rtts = await echoRoundTrips(200);
  const rtt = median(rtts);
  row('round trip: 64 B to server 1 and back on an open connection (median of 200)', ms(rtt), `≥ ${ms(rttS)} (held by linkdelay)`, rtt >= rttS);

  const small = Buffer.alloc(4096, 7);
  let fd = openSync(join(dir, 'small'), 'w');
  const wt = [];
  for (let i = 0; i < 400; i++) {
    const t = now();
    writeSync(fd, small, 0, small.length, i * 4096);
    wt.push(now() - t);
  }
  const w4 = median(wt);
  row('4 KiB write (median of 400)', ms(w4), `≥ ${ms(rtt)} (one round trip)`, w4 >= rtt);

  const st = [];
  for (let i = 0; i < 100; i++) {
    writeSync(fd, small, 0, small.length, i * 4096);
    const t = now();
    fsyncSync(fd);
    st.push(now() - t);
  }
  closeSync(fd);
  const fs1 = median(st);
  row('fsync after a 4 KiB write (median of 100)', ms(fs1), `≥ ${ms(rtt)} (one round trip)`, fs1 >= rtt);

  const ot = [];
  for (let i = 0; i < 100; i++) {
    const t = now();
    closeSync(openSync(join(dir, 'small'), 'r'));
    ot.push(now() - t);
  }
  const oc = median(ot);
  row('open + close of an existing file (median of 100)', ms(oc), `≥ ${ms(rtt)} (one round trip)`, oc >= rtt);

  const big = Buffer.alloc(2 << 20, 3);
  const total = 128 << 20;
  fd = openSync(join(dir, 'big'), 'w');
  let t = now();
  for (let off = 0; off < total; off += big.length) writeSync(fd, big, 0, big.length, off);
  const wbw = total / 1048576 / (now() - t);
  closeSync(fd);
  row('2 MiB sequential writes, 128 MiB to one server', `${wbw.toFixed(1)} MiB/s`, `≈ ${rateMiBs.toFixed(1)} MiB/s (shaped; 75–105 %)`, wbw >= rateMiBs * 0.75 && wbw <= rateMiBs * 1.05);
  fd = openSync(join(dir, 'big'), 'r');
  t = now();
  for (let off = 0; off < total; off += big.length) readSync(fd, big, 0, big.length, off);
  const rbw = total / 1048576 / (now() - t);
  closeSync(fd);
  // Not a requirement: FUSE splits a read into 128 KiB requests sent one after the other, each waiting a round trip.
  row('2 MiB sequential reads, 128 MiB from one server', `${rbw.toFixed(1)} MiB/s`, `≤ ${rateMiBs.toFixed(1)} MiB/s (shaped; reported only)`, rbw <= rateMiBs * 1.05);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log('| measured | value | requirement | holds |');
console.log('|---|---|---|---|');
for (const r of rows) console.log(`| ${r.what} | ${r.measured} | ${r.need} | ${r.ok ? 'yes' : '**no**'} |`);
if (rows.some((r) => !r.ok)) process.exit(1);
