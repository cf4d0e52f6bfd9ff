/**
 * `kpp` on a text too large for Node's heap: a message and exit code 2, as for any input it cannot read, where V8
 * crashed with "heap limit" and a native stack. The heap is made small (`--max-old-space-size`), not the file huge.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../helpers/corpus';
import { oneChainListing } from '../helpers/dumps';

const cli = join(repoRoot(), 'bin', 'kpp.js');
const file = join(mkdtempSync(join(tmpdir(), 'kpp-cli-large-')), 'one-chain.txt');
writeFileSync(file, oneChainListing(60_000));

function kpp(...args: string[]) {
  const r = spawnSync(process.execPath, ['--max-old-space-size=96', cli, ...args], {
    encoding: 'utf8',
    env: { ...process.env, LC_ALL: '' },
  });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

test('kpp lint of a listing too large for the heap says so and exits 2, in English and Chinese', () => {
  const en = kpp('lint', file);
  assert.deepEqual([en.code, en.signal], [2, null], en.stderr.slice(0, 400));
  assert.match(
    en.stderr,
    /^kpp lint: \S+one-chain\.txt is too large for kpp: \d+ MB of memory used reading it, of the 96 MB Node allows; grep the chains you need first\n$/,
  );
  const zh = kpp('lint', file, '--lang', 'zh-CN');
  assert.equal(zh.code, 2);
  assert.match(
    zh.stderr,
    /one-chain\.txt 对 kpp 来说太大：读取它已用 \d+ MB 内存（Node 允许 96 MB）；请先用 grep 取出需要的链\n$/,
  );
});

test('kpp parse --json and trace stop the same way', () => {
  for (const args of [
    ['parse', file, '--json'],
    ['trace', file, '--src', '10.0.0.1', '--dst', '172.30.0.5:443'],
  ]) {
    const r = kpp(...args);
    assert.equal(r.code, 2, `${args[0]}: ${r.stderr.slice(0, 400)}`);
    assert.match(r.stderr, new RegExp(`^kpp ${args[0]}: \\S+ is too large for kpp: `));
  }
});
