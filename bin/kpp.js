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
 * dist/cli.js, compiled with V8's code cache kept beside it (dist/cli.js.COMMAND.v8-cache) where that folder is
 * writable: compiling the bundle and the functions a command runs is a large part of a small dump's answer. Each dump
 * command has a cache of its own, made when it first runs, so that it holds the functions that command compiles (a
 * trace of a small dump with the cache `--version` made: ~15 ms more). The cache names the Node it was made for and
 * holds a copy of the bundle it was made from; on any difference, or when V8 refuses it, the bundle is compiled as
 * usual and the cache written again when the command ends.
 */
function loadCli() {
  const fs = require('node:fs');
  const path = require('node:path');
  const vm = require('node:vm');
  const Module = require('node:module');
  const file = path.join(__dirname, '..', 'dist', 'cli.js');
  let bundle;
  try {
    bundle = fs.readFileSync(file);
  } catch {
    return require(file);
  }
  // The bundle's bytes themselves, not its size and time: V8 checks only the source's length, and installs that set
  // fixed times (npm, reproducible tarballs) would otherwise run an old release's code after an update of equal
  // size. Comparing a copy costs less than hashing it (node:crypto alone takes milliseconds to load).
  const key = Buffer.from(`kpp ${process.version} ${process.arch} ${bundle.length}\n`);
  // The commands with a cache of their own: a fixed list, as the file's name must not come from the command line.
  const command = ['parse', 'trace', 'explain', 'lint', 'generate'].find((name) => name === process.argv[2]);
  const cacheFile = `${file}.${command ?? 'other'}.v8-cache`;
  let cachedData;
  try {
    const cache = fs.readFileSync(cacheFile);
    const start = key.length + bundle.length;
    if (cache.subarray(0, key.length).equals(key) && cache.subarray(key.length, start).equals(bundle))
      cachedData = cache.subarray(start);
  } catch {
    // No cache yet.
  }
  const script = new vm.Script(Module.wrap(bundle.toString('utf8')), { filename: file, cachedData });
  const cli = new Module(file, module);
  cli.filename = file;
  require.cache[file] = cli;
  script.runInThisContext().call(cli.exports, cli.exports, Module.createRequire(file), cli, file, path.dirname(file));
  cli.loaded = true;
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once('exit', () => {
      const partial = `${cacheFile}.${process.pid}`;
      try {
        fs.writeFileSync(partial, Buffer.concat([key, bundle, script.createCachedData()]));
        fs.renameSync(partial, cacheFile);
      } catch {
        // A read-only install: every run compiles, as without the cache.
        fs.rmSync(partial, { force: true });
      }
    });
  }
  return cli.exports;
}
