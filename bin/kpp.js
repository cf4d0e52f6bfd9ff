#!/usr/bin/env node
'use strict';
// The CLI is bundled by esbuild into dist/cli.js (npm run build); it exports main(), which answers a number, or a
// promise of one for the cluster commands (services, diagnose, capture).
const result = require('../dist/cli.js').main(process.argv.slice(2));
if (typeof result === 'number') process.exitCode = result;
else {
  // Once the answer is written, leftover sockets (keep-alive, a closing WebSocket) must not hold the process.
  result.then((code) => {
    process.exitCode = code;
    process.stdout.write('', () => process.exit(code));
  });
}
