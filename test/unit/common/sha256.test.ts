import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import { oneShotSha256 } from '../../../src/cli/main';
import { sha256, useNativeSha256 } from '../../../src/core/common/sha256';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const reference = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

test('sha256 matches node:crypto at the padding edges and on known vectors', () => {
  assert.equal(hex(sha256('')), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  assert.equal(hex(sha256('abc')), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  for (const n of [54, 55, 56, 57, 63, 64, 65, 119, 120, 1000])
    assert.equal(hex(sha256('x'.repeat(n))), reference('x'.repeat(n)), `length ${n}`);
});

test('sha256 encodes UTF-8 like Buffer, lone surrogates included', () => {
  for (const s of ['默认/服务:端口tcp', 'é', '\u{1F600}', '\ud800', 'a\udc00b'])
    assert.equal(hex(sha256(s)), reference(s), JSON.stringify(s));
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => hex(sha256(s)) === reference(s)),
    { numRuns: 500 },
  );
});

test('a native hash given by a face is loaded at the first hash and used from then on', () => {
  let loads = 0;
  try {
    useNativeSha256(() => {
      loads++;
      return () => new Uint8Array(32).fill(7);
    });
    assert.equal(loads, 0);
    assert.equal(hex(sha256('abc')), '07'.repeat(32));
    assert.equal(hex(sha256('abd')), '07'.repeat(32));
    assert.equal(loads, 1);
    // A runtime without one: the hash in plain TypeScript.
    useNativeSha256(() => undefined);
    assert.equal(hex(sha256('abc')), reference('abc'));
  } finally {
    useNativeSha256(() => undefined);
  }
});

test("the CLI's node:crypto hash gives the same bytes, lone surrogates included", () => {
  const native = oneShotSha256();
  if (!native) return; // Node before 20.12: the CLI hashes in TypeScript.
  for (const s of ['', 'abc', 'x'.repeat(64), '默认/服务:端口tcp', '\u{1F600}', '\ud800', 'a\udc00b'])
    assert.equal(hex(native(s)), reference(s), JSON.stringify(s));
});
