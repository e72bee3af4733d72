import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../testing/corpus.js';

type Swap = (root: string, stage: string, id: number | string) => void;

test('a build swaps its whole tree in as dist/: the old tree goes, nothing is left half or behind', async () => {
  const { swapIn } = (await import(pathToFileURL(join(REPO_ROOT, 'scripts', 'swap-tree.mjs')).href)) as { swapIn: Swap };
  const root = mkdtempSync(join(tmpdir(), 'iolens-swap-'));
  try {
    const tree = (name: string, mark: string) => {
      mkdirSync(join(root, name, 'cli'), { recursive: true });
      writeFileSync(join(root, name, 'cli', 'main.js'), mark);
    };
    // A first build (no dist/ yet), then 50 rebuilds: every swap leaves one whole tree named dist/ and nothing else.
    tree('dist.next-1', 'build 0');
    swapIn(root, join(root, 'dist.next-1'), 1);
    for (let i = 1; i <= 50; i++) {
      tree(`dist.next-${i + 1}`, `build ${i}`);
      swapIn(root, join(root, `dist.next-${i + 1}`), i + 1);
      assert.equal(readFileSync(join(root, 'dist', 'cli', 'main.js'), 'utf8'), `build ${i}`);
      assert.deepEqual(readdirSync(root), ['dist']);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
