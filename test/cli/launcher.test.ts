/**
 * bin/kpp.js, the installed entry point: it runs dist/cli.js through V8's code cache kept beside the bundle. V8
 * checks only the source's length, so the launcher must tell a rewritten bundle from the one the cache was made of.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../helpers/corpus';

/** A bundle of the CLI's shape (module.exports.main) that prints `word`. */
function bundle(word: string): string {
  return `'use strict';\nmodule.exports.main = () => { process.stdout.write(${JSON.stringify(word)} + '\\n'); return 0; };\n`;
}

/** An install of the launcher with the given bundle: bin/kpp.js and dist/cli.js. */
function install(text: string): { launcher: string; bundleFile: string; dist: string } {
  const root = mkdtempSync(join(tmpdir(), 'kpp-launcher-'));
  mkdirSync(join(root, 'bin'));
  const dist = join(root, 'dist');
  mkdirSync(dist);
  const launcher = join(root, 'bin', 'kpp.js');
  copyFileSync(join(repoRoot(), 'bin', 'kpp.js'), launcher);
  const bundleFile = join(dist, 'cli.js');
  writeFileSync(bundleFile, text);
  return { launcher, bundleFile, dist };
}

function run(launcher: string): string {
  const r = spawnSync(process.execPath, [launcher, 'parse'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test('a bundle rewritten with the same size and file time runs its own code, not the cached one', () => {
  const { launcher, bundleFile, dist } = install(bundle('first'));
  // npm installs files with a fixed time (1985-10-26): a new release of equal size looks the same to a stat's size
  // and modification time.
  const fixed = new Date('1985-10-26T08:15:00Z');
  utimesSync(bundleFile, fixed, fixed);
  assert.equal(run(launcher), 'first\n');
  assert.ok(readdirSync(dist).includes('cli.js.parse.v8-cache'), 'the first run leaves a code cache');
  assert.equal(run(launcher), 'first\n');
  writeFileSync(bundleFile, bundle('other'));
  utimesSync(bundleFile, fixed, fixed);
  assert.equal(run(launcher), 'other\n');
  assert.equal(run(launcher), 'other\n');
});

test('a bundle with non-ASCII text reads as UTF-8', () => {
  const { launcher } = install(bundle('na\u00efve \u4e2d\u6587'));
  assert.equal(run(launcher), 'na\u00efve \u4e2d\u6587\n');
  assert.equal(run(launcher), 'na\u00efve \u4e2d\u6587\n');
});

test('the cached code starts on an 8-byte boundary of the cache file, where V8 reads it without a copy', () => {
  const { launcher, dist } = install(bundle('aligned'));
  assert.equal(run(launcher), 'aligned\n');
  const cache = readFileSync(join(dist, 'cli.js.parse.v8-cache'));
  const payload = cache.indexOf(10) + 1;
  assert.ok(payload > 0, 'the cache starts with its key line');
  assert.equal(payload % 8, 0, `the key line is ${payload} bytes`);
  assert.equal(run(launcher), 'aligned\n');
});
