#!/usr/bin/env node
// Entry point kept as plain JavaScript so `node bin/iolens.js` works on Node 20 after `npm install` builds dist/.
import { main } from '../dist/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    // main() never rejects by design; this is the last line of defence.
    process.stderr.write(`iolens: internal error: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 70;
  },
);
