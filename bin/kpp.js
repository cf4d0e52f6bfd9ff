#!/usr/bin/env node
'use strict';
// The CLI is bundled by esbuild into dist/cli.js (npm run build); it exports main(), which answers a number, or a
// promise of one for the cluster commands (services, diagnose, capture).
const result = loadCli().main(process.argv.slice(2));
if (typeof result === 'number') process.exitCode = result;
else {
  // Once the answer is written, leftover sockets (keep-alive, a closing WebSocket) must not hold the process.
  result.then((code) => {
    process.exitCode = code;
    process.stdout.write('', () => process.exit(code));
  });
}

/**
 * dist/cli.js, compiled with V8's code cache kept beside it (dist/cli.js.v8-cache) where that folder is writable:
 * compiling the bundle and the functions a command runs is a large part of a small dump's answer. The cache names
 * the Node and the bundle (size, content hash) it was made for; on any mismatch, or when V8 refuses it, the bundle is
 * compiled as usual and the cache written again when the command ends.
 */
function loadCli() {
  const fs = require('node:fs');
  const path = require('node:path');
  const vm = require('node:vm');
  const Module = require('node:module');
  const file = path.join(__dirname, '..', 'dist', 'cli.js');
  let source;
  let key;
  try {
    const stat = fs.statSync(file);
    source = fs.readFileSync(file, 'utf8');
    // The content's hash, not only size and time: V8 checks only the source's length, and installs that set fixed
    // times (npm, reproducible tarballs) would otherwise run an old release's code after an update of equal size.
    const hash = require('node:crypto').createHash('sha256').update(source).digest('hex');
    key = Buffer.from(`kpp ${process.version} ${process.arch} ${stat.size} ${hash}\n`);
  } catch {
    return require(file);
  }
  const cacheFile = `${file}.v8-cache`;
  let cachedData;
  try {
    const cache = fs.readFileSync(cacheFile);
    if (cache.subarray(0, key.length).equals(key)) cachedData = cache.subarray(key.length);
  } catch {
    // No cache yet.
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  const cli = new Module(file, module);
  cli.filename = file;
  require.cache[file] = cli;
  script.runInThisContext().call(cli.exports, cli.exports, Module.createRequire(file), cli, file, path.dirname(file));
  cli.loaded = true;
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once('exit', () => {
      const partial = `${cacheFile}.${process.pid}`;
      try {
        fs.writeFileSync(partial, Buffer.concat([key, script.createCachedData()]));
        fs.renameSync(partial, cacheFile);
      } catch {
        // A read-only install: every run compiles, as without the cache.
        fs.rmSync(partial, { force: true });
      }
    });
  }
  return cli.exports;
}
