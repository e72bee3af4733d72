// The last step of scripts/build.mjs: a built tree (its staging folder) becomes dist/. The current tree steps aside
// and the new one takes its name, two renames each atomic, so dist/ is a whole tree at every moment but the instant
// between them (the launcher waits that out). Another build's swap landing in between makes the second rename fail;
// then that tree steps aside in turn. The tree stepped aside is removed: a command already running keeps what it
// loaded, and what it loads later it finds under dist/ in the new tree.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export function swapIn(root, stage, id) {
  const dist = join(root, 'dist');
  const old = join(root, `dist.old-${id}`);
  for (let attempt = 0; ; attempt++) {
    try {
      if (existsSync(dist)) renameSync(dist, old);
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
    }
    try {
      renameSync(stage, dist);
      break;
    } catch (err) {
      if (attempt >= 20 || (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST')) throw err;
      rmSync(old, { recursive: true, force: true });
    }
  }
  rmSync(old, { recursive: true, force: true });
}
