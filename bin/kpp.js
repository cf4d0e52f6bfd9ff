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
 * the bundle file it was made from; on any difference, or when V8 refuses it, the bundle is compiled as usual and the
 * cache written again when the command ends.
 */
function loadCli() {
  const fs = require('node:fs');
  const path = require('node:path');
  const vm = require('node:vm');
  const Module = require('node:module');
  const file = path.join(__dirname, '..', 'dist', 'cli.js');
  let source;
  let key;
  let bytes;
  try {
    ({ source, key, bytes } = readBundle(fs, file, Module.wrapper));
  } catch {
    return require(file);
  }
  // The commands with a cache of their own: a fixed list, as the file's name must not come from the command line.
  const command = ['parse', 'trace', 'explain', 'lint', 'generate'].find((name) => name === process.argv[2]);
  const cacheFile = `${file}.${command ?? 'other'}.v8-cache`;
  let cachedData;
  try {
    const cache = readCache(fs, cacheFile, bytes);
    if (cache.subarray(0, key.length).equals(key)) cachedData = cache.subarray(key.length);
  } catch {
    // No cache yet.
  }
  const script = new vm.Script(source, { filename: file, cachedData });
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

/**
 * The bundle as CommonJS wraps it (`Module.wrap`), read into one buffer with the wrapper around it and made a string
 * once: the bundle is ASCII (scripts/build.mjs refuses anything else), so its bytes are its characters, where a
 * UTF-8 decode and a concatenation made two more copies of a megabyte, each page of them a fault.
 *
 * `key` names the file: V8 checks only the source's length, so the cache must say which bytes it was made from.
 * An update of equal size with a fixed file time (npm sets 1985-10-26) still writes the file: its change time (which
 * no installer can set) and mostly its inode differ. Comparing the bytes instead meant a second copy of the bundle
 * in each cache, read and compared on every run.
 */
function readBundle(fs, file, [head, tail]) {
  const fd = fs.openSync(file, 'r');
  try {
    const stat = fs.fstatSync(fd, { bigint: true });
    const size = Number(stat.size);
    const bytes = Buffer.allocUnsafe(head.length + size + tail.length);
    bytes.write(head, 0, 'latin1');
    let at = head.length;
    for (let n; at < head.length + size && (n = fs.readSync(fd, bytes, at, head.length + size - at, null)) > 0;)
      at += n;
    if (at !== head.length + size) throw new Error(`${file} changed while it was read`);
    bytes.write(tail, at, 'latin1');
    const { isAscii } = require('node:buffer');
    const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
    const identity = [stat.dev, stat.ino, stat.size, stat.mtimeNs, stat.ctimeNs].join(' ');
    // Padded to a multiple of 8 bytes: V8 copies cached data that does not start on a pointer boundary (the cache
    // read into a buffer of its own starts on one), the ~700 KB of a dump command's cache, each page a fault.
    const line = `kpp ${process.version} ${process.arch} ${identity}`;
    return { source, key: Buffer.from(`${line.padEnd(Math.ceil((line.length + 1) / 8) * 8 - 1)}\n`), bytes };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The cache file, read into `room` when it fits: the bundle's buffer, done with once the bundle's text is made, whose
 * pages are in memory already (a new buffer's ~700 KB are faulted in page by page as the file is read into it).
 */
function readCache(fs, file, room) {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const into = size <= room.length ? room : Buffer.allocUnsafe(size);
    let at = 0;
    for (let n; at < size && (n = fs.readSync(fd, into, at, size - at, null)) > 0;) at += n;
    return into.subarray(0, at);
  } finally {
    fs.closeSync(fd);
  }
}
