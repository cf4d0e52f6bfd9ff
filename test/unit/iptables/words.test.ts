/**
 * A word's value as written (core/iptables/words.ts): `unquoteWord` reads a word without a backslash or a single
 * quote in one slice; its value must be the one the rules of `scanWord` give, character by character (the reader
 * below, kept as the reference), for every word.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { unquoteWord } from '../../../src/core/iptables/words';

/** The rules of `scanWord`, one character at a time: quotes removed, `\"` and `\\` inside double quotes and `\'`, `\"` outside resolved. */
function unquotedByCharacters(raw: string): string {
  let value = '';
  let i = 0;
  while (i < raw.length) {
    const ch = raw[i];
    if (ch === '"' || ch === "'") {
      i++;
      while (i < raw.length) {
        const q = raw[i];
        if (q === '\\' && ch === '"' && (raw[i + 1] === '"' || raw[i + 1] === '\\')) {
          value += raw[i + 1];
          i += 2;
          continue;
        }
        i++;
        if (q === ch) break;
        value += q;
      }
      continue;
    }
    if (ch === '\\' && (raw[i + 1] === "'" || raw[i + 1] === '"')) {
      value += raw[i + 1];
      i += 2;
      continue;
    }
    value += ch;
    i++;
  }
  return value;
}

test('kube-proxy comments and other plain words lose their double quotes', () => {
  const cases: [string, string][] = [
    ['"default/kubernetes:https cluster IP"', 'default/kubernetes:https cluster IP'],
    ['"ns/svc:p80 -> 10.0.0.1:80"', 'ns/svc:p80 -> 10.0.0.1:80'],
    ['ns/svc', 'ns/svc'],
    ['""', ''],
    ['"', ''],
    ['"open', 'open'],
    ['a"b c"d', 'ab cd'],
    ['"a"b"c"', 'abc'],
  ];
  for (const [raw, value] of cases) {
    assert.equal(unquoteWord(raw), value, raw);
    assert.equal(unquotedByCharacters(raw), value, raw);
  }
});

test('every word reads as the character-by-character rules read it, quotes and backslashes anywhere', () => {
  const unit = fc.constantFrom('"', "'", '\\', 'a', 'b', ' ', '/', ':', '-', '>');
  fc.assert(
    fc.property(fc.string({ unit, maxLength: 24 }), (raw) => {
      assert.equal(unquoteWord(raw), unquotedByCharacters(raw));
    }),
    { numRuns: 5000 },
  );
});
