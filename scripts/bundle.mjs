#!/usr/bin/env node
// Bundles the CLI into dist/bundle/ and makes a V8 code cache for each bundle; run after tsc (npm run build).
//
// One self-contained CommonJS script per command (dist/bundle/<command>.cjs, holding only what that command
// imports) and iolens.cjs with every command (help, unknown commands). CommonJS, because Node starts a CommonJS
// program without its ES module loader and because V8 code caches apply to scripts; pure-JS dependencies are
// bundled too. The native DuckDB binding stays external (a real require from dist/bundle/).
//
// Then each bundle runs its command on inputs from the repository (samples/, or a log that `iolens synth` writes)
// in a child process, and V8's code cache of everything that ran is written beside it (<bundle>.v8cache):
// bin/iolens.cjs hands it to V8, which then neither parses nor compiles those functions again.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
// The tree being built (scripts/build.mjs builds into a staging folder and swaps it in as dist/).
const distDir = join(root, process.env.IOLENS_DIST ?? 'dist');
const out = join(distDir, 'bundle');
const commandFiles = readdirSync(join(root, 'src', 'cli', 'commands'))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'index.ts' && f !== 'command.ts')
  .map((f) => basename(f, '.ts'));

// Libraries that only some runs of a command use (zod: --config files and YAML rules; hyparquet: Parquet traces;
// yaml: rule files) are bundles of their own in dist/bundle/vendor/, required on first use: a command's bundle stays
// small, and so does what every start reads. They hold no state that IOLens shares across bundles.
const VENDOR = ['zod', 'hyparquet', 'hyparquet-compressors', 'yaml'];
const vendor = {
  name: 'iolens-vendor',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${VENDOR.join('|')})$`) }, (a) => ({ path: `./vendor/${a.path}.cjs`, external: true }));
  },
};

// A one-command entry: the program with only this command registered (bin/iolens.cjs picks it by the command name).
const oneCommand = {
  name: 'iolens-one-command',
  setup(b) {
    b.onResolve({ filter: /^iolens-command:/ }, (a) => ({ path: a.path.slice('iolens-command:'.length), namespace: 'iolens-command' }));
    b.onLoad({ filter: /.*/, namespace: 'iolens-command' }, (a) => ({
      resolveDir: root,
      loader: 'ts',
      contents: [
        `import { runProgram } from './src/cli/program.ts';`,
        `import command from './src/cli/commands/${a.path}.ts';`,
        `const table = { ${JSON.stringify(a.path)}: async () => ({ default: command }) };`,
        `export function main(argv: readonly string[]): Promise<number> { return runProgram(table, argv); }`,
      ].join('\n'),
    }));
  },
};

// commander requires node:child_process (for git-style executable subcommands, which IOLens has none of) at load;
// loading that built-in costs every start about 3 ms, so the bundle loads it on first use instead.
const lazyChildProcess = {
  name: 'iolens-lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /commander[\\/]lib[\\/]command\.js$/ }, async (a) => {
      const { readFile } = await import('node:fs/promises');
      const text = await readFile(a.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!text.includes(eager)) throw new Error(`${a.path}: commander changed; update the lazy child_process plugin`);
      return { contents: text.replace(eager, "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };"), loader: 'js' };
    });
  },
};

rmSync(out, { recursive: true, force: true });
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // import() of a library becomes a require (bundles run as scripts, where import() has no module loader).
  supported: { 'dynamic-import': false },
  logLevel: 'warning',
};
await build({
  ...common,
  entryPoints: Object.fromEntries(VENDOR.map((v) => [v, v])),
  outdir: join(out, 'vendor'),
  outExtension: { '.js': '.cjs' },
});
await build({
  entryPoints: { iolens: join(root, 'src', 'cli', 'main.ts'), ...Object.fromEntries(commandFiles.map((c) => [c, `iolens-command:${c}`])) },
  ...common,
  external: ['@duckdb/*'],
  // import.meta.url in a CommonJS bundle: the bundle file's own URL (package-root.ts walks up from it).
  define: { 'import.meta.url': '__iolensBundleUrl' },
  banner: { js: "const __iolensBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [vendor, oneCommand, lazyChildProcess],
  outdir: out,
  outExtension: { '.js': '.cjs' },
});

// Every bundle as pure ASCII: bin/iolens.cjs reads a bundle as latin1, which for 1 MB is a plain copy (UTF-8 decoding
// it took ~2.5 ms of every start), and V8 then holds and scans the source as one byte per character. esbuild escapes
// non-ASCII in strings but keeps it in comments and regular expressions; a \u escape means the same there (each UTF-16
// unit on its own: a pair stands for its code point in a /u pattern too).
for (const dir of [out, join(out, 'vendor')]) {
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.cjs'))) {
    const path = join(dir, f);
    const text = readFileSync(path, 'utf8');
    const ascii = text.replace(/[^\x00-\x7f]/g, (c, at) => {
      // after a backslash the escape would change meaning (`\é` in a pattern): such a source must spell it \u itself
      if (text[at - 1] === '\\') throw new Error(`${f}: a non-ASCII character follows a backslash at offset ${at}; write it as a \\u escape in the source`);
      return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    });
    if (ascii !== text) writeFileSync(path, ascii);
  }
}

// The web pages' script (iolens serve): one browser bundle with the shared plot model and ECharts, minified; no CDN,
// nothing fetched at run time. Type-checked separately (src/web/tsconfig.json: DOM types).
const web = join(distDir, 'web');
rmSync(web, { recursive: true, force: true });
mkdirSync(web, { recursive: true });
await build({
  entryPoints: [join(root, 'src', 'web', 'main.ts')],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'external',
  outfile: join(web, 'app.js'),
  logLevel: 'warning',
});
copyFileSync(join(root, 'src', 'web', 'app.css'), join(web, 'app.css'));

// Warm-up runs per bundle: the command's usual paths on small inputs. Output goes nowhere; a failure fails the build.
const work = mkdtempSync(join(tmpdir(), 'iolens-cache-'));
try {
  const sample = join(root, 'samples', 'ior-hdf5-indep-small-write-4k.darshan');
  const dxt = join(work, 'dxt.darshan');
  const synth = ['synth', '--posix-files', '16', '--nprocs', '4', '--dxt-segments', '4000', '--mpiio', dxt];
  const warmups = {
    iolens: [['--help'], ['--version']],
    synth: [synth],
    report: [['report', sample], ['report', '--json', sample], ['report', '--drishti', sample], ['report', dxt]],
    parse: [['parse', sample], ['parse', '--perf', sample], ['parse', '--dxt', dxt], ['parse', '--json', sample]],
    trace: [['trace', dxt], ['trace', '--json', dxt]],
  };
  // synth first: the other warm-ups read its log.
  for (const name of ['synth', 'iolens', ...commandFiles.filter((c) => c !== 'synth')]) {
    const runs = warmups[name] ?? [[name, '--help']];
    const r = spawnSync(process.execPath, [join(root, 'scripts', 'code-cache.cjs'), name, JSON.stringify(runs)], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`code cache for ${name}: ${r.stderr || `exit ${r.status}`}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
