import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { LineIndex } from '../../../src/core/common/lines';

/** The plain reading the index must agree with: LSP's line model (LF, CRLF and a lone CR end a line), trim blanks. */
function reference(text: string) {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return body.split(/\r\n|\r|\n/).map((raw, line) => {
    const content = raw.replace(/^[ \t]+/, '').replace(/[ \t]+$/, '');
    return {
      line,
      raw,
      offset: content ? raw.indexOf(content) : raw.length - raw.replace(/^[ \t]+/, '').length,
      content,
    };
  });
}

test('line index: offsets, CRLF, indentation and a byte order mark', () => {
  const lines = new LineIndex('\ufeff*nat\r\n\t -A X -j Y  \r\n\n:Z - [0:0]');
  assert.equal(lines.count, 4);
  assert.deepEqual(lines.line(0), { line: 0, raw: '*nat', offset: 0, content: '*nat' });
  assert.deepEqual(lines.line(1), { line: 1, raw: '\t -A X -j Y  ', offset: 2, content: '-A X -j Y' });
  assert.equal(lines.content(2), '');
  assert.equal(lines.text.slice(lines.contentStart[3], lines.contentEnd[3]), ':Z - [0:0]');
});

test('line index agrees with the plain reading on any text', () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom('a', ' ', '\t', '\r', '\n', '-A', '\ufeff', 'é'), { maxLength: 60 }),
      (parts) => {
        const text = parts.join('');
        const index = new LineIndex(text);
        assert.deepEqual(index.all(), reference(text));
        // Readers take the number of lines from the columns' length (the rule store's positions).
        for (const column of [index.start, index.rawEnd, index.contentStart, index.contentEnd])
          assert.equal(column.length, index.count);
      },
    ),
    { numRuns: 500 },
  );
});

test('line index of a long text whose sampled stretches hold longer lines than the rest keeps every line', () => {
  // The columns are sized from eight 4K windows spread over the text; here those hold no line break at all.
  const length = 140_000;
  const chars: string[] = [];
  for (let i = 0; i < length; i++) chars.push(i % 2 ? '\n' : 'a');
  for (let w = 0; w < 8; w++) {
    const from = Math.floor((w * (length - 4096)) / 7);
    for (let i = from; i < from + 4096; i++) chars[i] = 'x';
  }
  const text = chars.join('');
  const index = new LineIndex(text);
  assert.deepEqual(index.all(), reference(text));
  assert.equal(index.start.length, index.count);
});
