#!/usr/bin/env node
// Bundles the CLI into dist/bundle/, one chunk per command plus shared chunks, so that a command loads a handful of
// files instead of ~150 modules. Pure-JS dependencies are bundled too (loading CommonJS packages from ESM is slow);
// the native DuckDB binding and the Parquet reader stay external. Run after tsc (npm run build).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';

rmSync('dist/bundle', { recursive: true, force: true });
await build({
  entryPoints: ['src/cli/main.ts'],
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['@duckdb/*', 'hyparquet', 'hyparquet-compressors'],
  // CommonJS dependencies inside an ESM bundle need a require().
  banner: { js: "import { createRequire as __iolensRequire } from 'node:module'; const require = __iolensRequire(import.meta.url);" },
  outdir: 'dist/bundle',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});

// The web pages' script (iolens serve): one browser bundle with the shared plot model and ECharts, minified; no CDN,
// nothing fetched at run time. Type-checked separately (src/web/tsconfig.json: DOM types).
rmSync('dist/web', { recursive: true, force: true });
mkdirSync('dist/web', { recursive: true });
await build({
  entryPoints: ['src/web/main.ts'],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'external',
  outfile: 'dist/web/app.js',
  logLevel: 'warning',
});
copyFileSync('src/web/app.css', 'dist/web/app.css');
