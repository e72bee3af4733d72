#!/usr/bin/env node
// `npm run build`: compiles IOLens into a staging folder of its own (dist.next-<pid>/) and only then swaps it in as
// dist/, so that a build never leaves dist/ half written or missing under a command that is running: the Quick start's
// `npx iolens report …` and `npm test` (which builds first) can run side by side, and two builds at once each swap in
// a whole tree. Files of deleted sources never linger: each build starts from an empty folder.
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { swapIn } from './swap-tree.mjs';

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const next = `dist.next-${process.pid}`;
const stage = join(root, next);

/** Staging and retired folders of builds whose process is gone (killed part-way). */
function sweep() {
  for (const name of readdirSync(root)) {
    const m = /^dist\.(?:next|old)-(\d+)$/.exec(name);
    if (!m) continue;
    let alive = Number(m[1]) !== process.pid;
    try {
      if (alive) process.kill(Number(m[1]), 0);
    } catch {
      alive = false;
    }
    if (!alive || Number(m[1]) === process.pid) rmSync(join(root, name), { recursive: true, force: true });
  }
}

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) {
    rmSync(stage, { recursive: true, force: true });
    process.exit(r.status ?? 1);
  }
}

sweep();
const tsc = join(root, 'node_modules', '.bin', 'tsc');
run(process.execPath, [join(root, 'scripts', 'wasm.mjs')]);
run(tsc, ['-p', 'tsconfig.json', '--outDir', next]);
run(tsc, ['-p', join('src', 'web', 'tsconfig.json')]);
run(process.execPath, [join(root, 'scripts', 'bundle.mjs')], { IOLENS_DIST: next });

swapIn(root, stage, process.pid);
