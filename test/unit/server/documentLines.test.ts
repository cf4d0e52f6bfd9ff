import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DocumentLines } from '../../../src/server/documentLines';
import { PIECED_DOCUMENTS } from '../../../src/server/piecedText';
import { LineIndex } from '../../../src/server/lineIndex';
import { Rng } from '../../helpers/mutate';

// Line ends of every kind and surrogate pairs: what fitting an answer must not cut.
const BITS = ['-A KUBE-SVC-X -j KUBE-SEP-Y', 'x', '\n', '\r\n', '\r', '😀', '\n\r', '\r\r\n'];
const text = (rng: Rng, parts: number) => Array.from({ length: parts }, () => BITS[rng.int(BITS.length)]).join('');

test("an edited document's lines as fitting reads them: the same as a LineIndex of its text, without joining it", () => {
  const rng = new Rng(20261207);
  for (let round = 0; round < 60; round++) {
    let doc = PIECED_DOCUMENTS.create('file:///d', 'iptables', 1, text(rng, 40));
    for (let edit = 0; edit < 5; edit++) {
      const line = rng.int(doc.lineCount);
      const at = { line, character: rng.int(12) };
      doc = PIECED_DOCUMENTS.update(doc, [{ range: { start: at, end: at }, text: text(rng, 3) }], edit + 2);
    }
    const want = LineIndex.of(doc.getText());
    // Edits after the text was read (a character typed, then taken back): the chunks are apart again, and reading
    // the lines must not join them.
    const at = { line: 0, character: 0 };
    doc = PIECED_DOCUMENTS.update(doc, [{ range: { start: at, end: at }, text: 'y' }], 9);
    doc = PIECED_DOCUMENTS.update(doc, [{ range: { start: at, end: { line: 0, character: 1 } }, text: '' }], 10);
    const joined = () => assert.fail('the whole text was read');
    const lines = new DocumentLines(Object.assign(doc, { getText: joined }));
    assert.equal(lines.lineCount, want.lineCount);
    for (let l = -1; l <= want.lineCount; l++) {
      assert.equal(lines.lineLength(l), want.lineLength(l), `round ${round} line ${l}`);
      for (let c = -1; c <= want.lineLength(l) + 1; c++) {
        const p = { line: l, character: c };
        assert.equal(lines.splitsSurrogate(l, c), want.splitsSurrogate(l, c), `round ${round} ${l}:${c}`);
        assert.deepEqual(lines.clamp(p), want.clamp(p), `round ${round} clamp ${l}:${c}`);
      }
    }
  }
});

test("a document never edited is read as its own text's lines", () => {
  const doc = TextDocument.create('file:///p', 'iptables', 1, 'a😀b\r\nc\rd');
  const lines = new DocumentLines(doc);
  assert.deepEqual(
    [lines.lineCount, lines.lineLength(0), lines.splitsSurrogate(0, 2), lines.clamp({ line: 0, character: 2 })],
    [3, 4, true, { line: 0, character: 1 }],
  );
});
