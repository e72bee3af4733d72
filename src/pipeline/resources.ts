import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SNIPPETS } from '../checks/types.js';
import { packageRoot, packageVersion } from '../util/package-root.js';

/**
 * Files IOLens ships besides its code (snippets, its version), loaded once per process by the library, so that a
 * library call and the CLI produce the same report.
 */

let version: string | null = null;
let snippets: Record<string, { language: string; text: string }> | null = null;

/** IOLens's version (package.json), or '0.0.0' when the package folder cannot be found. */
export function toolVersion(): string {
  if (version === null) {
    try {
      version = packageVersion();
    } catch {
      version = '0.0.0';
    }
  }
  return version;
}

/** Every example snippet shipped under `snippets/`, by id (read on first use). */
export function snippetTexts(): Readonly<Record<string, { language: string; text: string }>> {
  if (snippets === null) {
    const out: Record<string, { language: string; text: string }> = {};
    let root: string | null = null;
    try {
      root = packageRoot();
    } catch {
      root = null;
    }
    if (root) {
      for (const [id, language] of Object.entries(SNIPPETS)) {
        const p = join(root, 'snippets', id);
        if (existsSync(p)) out[id] = { language, text: readFileSync(p, 'utf8') };
      }
    }
    snippets = out;
  }
  return snippets;
}
