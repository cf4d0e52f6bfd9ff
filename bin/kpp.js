#!/usr/bin/env node
'use strict';
// The CLI is bundled by esbuild into dist/cli.js (npm run build); it exports main().
process.exitCode = require('../dist/cli.js').main(process.argv.slice(2));
