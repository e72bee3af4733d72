import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | null = null;

/**
 * The IOLens package folder (holding package.json, dist/, snippets/), found by walking up from this module. Works
 * from the compiled tree (dist/…) and from the bundle (dist/bundle/…) alike.
 */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pj = join(dir, 'package.json');
    if (existsSync(pj)) {
      try {
        if ((JSON.parse(readFileSync(pj, 'utf8')) as { name?: string }).name === 'iolens') return (cached = dir);
      } catch {
        // not ours; keep walking
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('IOLens package folder not found');
    dir = up;
  }
}

/** IOLens's version, from its package.json. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * A compiled module of IOLens by its path under dist/ (for worker threads, which need a file): in the tree this module
 * runs from, two folders up from it in the compiled tree (dist/util/) and in a bundle (dist/bundle/) alike — the build's
 * staging folder while `npm run build` warms the code caches (scripts/build.mjs).
 */
export function distFile(relative: string): URL {
  const tree = dirname(dirname(fileURLToPath(import.meta.url)));
  return new URL(`file://${join(tree, relative)}`);
}
