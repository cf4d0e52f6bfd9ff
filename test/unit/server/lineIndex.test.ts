import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText } from '../../../src/core/analyze';
import { LineIndex } from '../../../src/server/lineIndex';

const lengths = (text: string) => {
  const index = LineIndex.of(text);
  return Array.from({ length: index.lineCount }, (_, line) => index.lineLength(line));
};

test('lines end at \\n, \\r\\n and a lone \\r, as the editor counts them', () => {
  assert.deepEqual(lengths(''), [0]);
  assert.deepEqual(lengths('abc'), [3]);
  assert.deepEqual(lengths('a\nbc\n'), [1, 2, 0]);
  assert.deepEqual(lengths('a\r\nbc\rdef\n\r\n\r'), [1, 2, 3, 0, 0, 0]);
  assert.deepEqual(lengths('\r\r\n\n'), [0, 0, 0, 0]);
});

test('positions are clamped into the lines, never between the halves of a surrogate pair', () => {
  const index = LineIndex.of('a😀b\r\nxy');
  assert.deepEqual(index.endOf(0), { line: 0, character: 4 });
  assert.deepEqual(index.clamp({ line: 0, character: 2 }), { line: 0, character: 1 });
  assert.deepEqual(index.clamp({ line: 1, character: 9 }), { line: 1, character: 2 });
  assert.deepEqual(index.clamp({ line: 5, character: 0 }), { line: 1, character: 2 });
});

test("every line's length is the editor's, over texts of random line breaks", () => {
  let seed = 11;
  const random = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
  const pieces = ['\n', '\r', '\r\n', 'a', 'bc', '😀', ' '];
  for (let round = 0; round < 300; round++) {
    const text = Array.from({ length: random(30) }, () => pieces[random(pieces.length)]).join('');
    assert.deepEqual(
      lengths(text),
      text.split(/\r\n|\r|\n/).map((line) => line.length),
      JSON.stringify(text),
    );
  }
});

test("the engine's line index of this very text gives the editor's lines (the worker reuses it); a text it changed is not this text", () => {
  let seed = 7;
  const random = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
  const pieces = ['\n', '\r\n', '\r', '-A X -j Y', ':X - [0:0]', '*nat', 'COMMIT', ' ', '😀', '\ufeff'];
  let reused = 0;
  for (let round = 0; round < 300; round++) {
    const text = Array.from({ length: random(20) }, () => pieces[random(pieces.length)]).join('');
    const engine = analyzeText(text, 'iptables').lines;
    if (engine?.text !== text) continue;
    reused++;
    const from = LineIndex.ofStarts(text, engine.start);
    const own = LineIndex.of(text);
    assert.equal(from.lineCount, own.lineCount, JSON.stringify(text));
    for (let line = 0; line < own.lineCount; line++)
      assert.equal(from.lineLength(line), own.lineLength(line), JSON.stringify(text));
  }
  assert.ok(reused > 50, `${reused} texts kept as they were`);
  // A lone CR (read as a line break) and a byte order mark (not a character of the first line) change the text.
  for (const text of ['a\rb', '\ufeff*nat\nCOMMIT']) assert.notEqual(analyzeText(text, 'iptables').lines?.text, text);
});
