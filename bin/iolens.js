#!/usr/bin/env node
// `node bin/iolens.js …` runs the same launcher as the `iolens` command (bin/iolens.cjs, which starts faster: Node
// loads it without its ES module loader).
import { createRequire } from 'node:module';

createRequire(import.meta.url)('./iolens.cjs').start();
