'use strict';
// Makes the V8 code cache of one bundle (run by scripts/bundle.mjs, stdout to /dev/null):
//   node scripts/code-cache.cjs <bundle> '<JSON list of argument lists>'
// Compiles dist/bundle/<bundle>.cjs exactly as bin/iolens.cjs does, runs each argument list through it in turn, and
// writes what V8 compiled meanwhile to dist/bundle/<bundle>.cjs.v8cache. Every run must exit 0.
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { compile } = require('../bin/iolens.cjs');

async function run() {
  const [name, runs] = process.argv.slice(2);
  // The tree scripts/build.mjs is building (its staging folder), else dist/.
  const tree = join(__dirname, '..', process.env.IOLENS_DIST || 'dist');
  const bundle = compile(name, false, tree);
  if (!bundle) throw new Error(`${tree}/bundle/${name}.cjs is missing or older than ${tree}/cli/main.js`);
  for (const argv of JSON.parse(runs)) {
    const code = await bundle.main(argv);
    if (code !== 0) throw new Error(`iolens ${argv.join(' ')} exited ${code}`);
    process.exitCode = undefined;
  }
  writeFileSync(join(tree, 'bundle', `${name}.cjs.v8cache`), bundle.script.createCachedData());
}

run().catch((err) => {
  process.stderr.write(`${err && err.stack ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
