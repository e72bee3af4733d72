#!/usr/bin/env node
'use strict';
// The `iolens` command. Plain CommonJS, so that Node starts it without its ES module loader.
//
// `npm run build` (scripts/bundle.mjs) writes one self-contained script per command, dist/bundle/<command>.cjs (and
// iolens.cjs with every command, for help and unknown commands), and beside each a V8 code cache made by running the
// command on sample inputs (<command>.cjs.v8cache). A command then starts by reading one file and its cache: V8
// neither parses nor compiles what the cache holds. The cache is only a shortcut: one that V8 rejects (another Node
// or V8 flags) or that is older than its script is ignored, and the script is compiled as usual. Without bundles, or
// with bundles older than the compiled tree (a developer ran only tsc), the compiled tree dist/cli/main.js runs.
const { readFileSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const BUNDLES = join(__dirname, '..', 'dist', 'bundle');
/** Commands that exit as soon as they return with nothing pending (see start). */
const FAST_EXIT = new Set(['report', 'parse', 'trace', 'list-checks']);

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

/** The bundle that runs these arguments: the named command's own, else the one with every command. */
function bundleName(argv) {
  const name = argv.find((a) => !a.startsWith('-'));
  return name !== undefined && /^[a-z][a-z-]*$/.test(name) && name !== 'iolens' && mtime(join(BUNDLES, `${name}.cjs`)) >= 0 ? name : 'iolens';
}

/**
 * Compiles a bundle (with its code cache when `useCache`) into this process; null when the bundles are missing or
 * older than the compiled tree. `tree` is the compiled tree (dist/; the build's staging folder when it makes caches).
 */
function compile(name, useCache = true, tree = join(__dirname, '..', 'dist')) {
  const bundles = join(tree, 'bundle');
  const file = join(bundles, `${name}.cjs`);
  const built = mtime(file);
  if (built < 0 || built < mtime(join(tree, 'cli', 'main.js'))) return null;
  const vm = require('node:vm');
  const { createRequire } = require('node:module');
  // Bundles are ASCII (scripts/bundle.mjs makes them so): latin1 reads them without decoding UTF-8.
  const source = readFileSync(file, 'latin1');
  const cacheFile = `${file}.v8cache`;
  let cachedData;
  if (useCache && mtime(cacheFile) >= built) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  // The same wrapper as Node's own for CommonJS files; the bundle's require resolves from dist/bundle/.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, createRequire(file), mod, file, bundles);
  const cache = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
  return { script, main: mod.exports.main, cache };
}

async function loadMain(name) {
  const bundle = compile(name);
  if (bundle) return bundle.main;
  return (await import('../dist/cli/main.js')).main;
}

function start() {
  // Benchmarks set IOLENS_STATS_FILE to learn the process's own peak memory and CPU time at exit.
  if (process.env.IOLENS_STATS_FILE) {
    process.on('exit', () => {
      try {
        writeFileSync(process.env.IOLENS_STATS_FILE, JSON.stringify(process.resourceUsage()));
      } catch {
        // a benchmark-only aid: never let it change the exit
      }
    });
  }
  const argv = process.argv.slice(2);
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    // What the program prints for it, without loading the program.
    process.stdout.write(`${JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version}\n`);
    return;
  }
  // A build swaps its tree in as dist/ with two renames (scripts/swap-tree.mjs): wait out the instant between them.
  const tree = join(__dirname, '..', 'dist');
  for (let i = 0; i < 100 && mtime(tree) < 0; i++) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  if (mtime(tree) < 0) {
    process.stderr.write('iolens: not built: run `npm install` (or `npm run build`) in the IOLens folder\n');
    process.exitCode = 70;
    return;
  }
  const name = bundleName(argv);
  loadMain(name)
    .then((main) => main(argv))
    .then(
      (code) => {
        process.exitCode = code;
        // A command users run in loops over logs exits now when nothing is left that keeps the event loop alive (no
        // handle, request or timer: output went to a file, a terminal or /dev/null and every write was synchronous):
        // the same exit Node is about to make, less tearing the heap down (~3 ms of a report on a small log). Anything
        // still pending is waited for as usual. Not the job-store commands: a native library's clean-up (DuckDB
        // closing a database it was not asked to close) runs only in Node's own exit.
        if (FAST_EXIT.has(name) && typeof process.getActiveResourcesInfo === 'function' && process.getActiveResourcesInfo().length === 0) process.exit();
      },
      (err) => {
        // main() never rejects by design; this is the last line of defence.
        process.stderr.write(`iolens: internal error: ${err && err.message ? err.message : String(err)}\n`);
        process.exitCode = 70;
      },
    );
}

module.exports = { start, compile, bundleName };
if (require.main === module) start();
