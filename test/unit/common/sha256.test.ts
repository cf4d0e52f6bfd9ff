import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import { sha256 } from '../../../src/core/common/sha256';

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
