import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TextDocument, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { EditedDocument } from '../../../src/server/editedText';
import { PIECED_DOCUMENTS, PiecedText, textLength, textParts } from '../../../src/server/piecedText';
import { Rng } from '../../helpers/mutate';

// Line ends of every kind, next to each other too, and surrogate pairs: what a position may fall between.
const BITS = ['-A KUBE-SVC-X -j KUBE-SEP-Y', 'x', ' ', '\n', '\n', '\r\n', '\r', '😀', '\n\r', '\r\r\n', ''];

function randomText(rng: Rng, parts: number): string {
  let s = '';
  for (let i = 0; i < parts; i++) s += BITS[rng.int(BITS.length)];
  return s;
}

/** A change as an editor may send one: any range (inverted, past a line's end or the text's), any text. */
function randomChange(rng: Rng, doc: TextDocument): TextDocumentContentChangeEvent {
  if (rng.int(200) === 0) return { text: randomText(rng, rng.int(50)) };
  const pos = () => {
    const line =
      rng.int(50) === 0 ? doc.lineCount + rng.int(3) - (rng.int(2) ? 0 : doc.lineCount + 2) : rng.int(doc.lineCount);
    return { line, character: rng.int(8) === 0 ? 200 : rng.int(30) };
  };
  const start = pos();
  const end =
    rng.int(3) === 0 ? start : rng.int(4) === 0 ? pos() : { line: start.line + rng.int(3), character: rng.int(30) };
  return { range: { start, end }, text: rng.int(3) === 0 ? '' : randomText(rng, rng.int(6)) };
}

function assertSame(edited: TextDocument, plain: TextDocument, rng: Rng, what: string): void {
  assert.equal(edited.getText(), plain.getText(), what);
  assert.equal(edited.lineCount, plain.lineCount, what);
  assert.equal(edited.version, plain.version, what);
  assert.equal(textLength(edited), plain.getText().length, what);
  for (let i = 0; i < 40; i++) {
    const offset = rng.int(plain.getText().length + 3) - 1;
    assert.deepEqual(edited.positionAt(offset), plain.positionAt(offset), `${what}: positionAt(${offset})`);
    const p = { line: rng.int(plain.lineCount + 2) - 1, character: rng.int(40) };
    assert.equal(edited.offsetAt(p), plain.offsetAt(p), `${what}: offsetAt(${JSON.stringify(p)})`);
    assert.deepEqual(edited.getLineRange(p.line), plain.getLineRange(p.line), `${what}: getLineRange(${p.line})`);
    assert.equal(edited.getEOLCharacters(p.line), plain.getEOLCharacters(p.line), `${what}: EOL of ${p.line}`);
  }
}

/**
 * `change` applied to a TextDocument made afresh of `text`: its line offsets are counted from the text, not carried
 * over from earlier changes (TextDocument.update loses track of them after a range past the last line).
 */
function applied(text: string, change: TextDocumentContentChangeEvent, version: number): TextDocument {
  return TextDocument.update(TextDocument.create('file:///a', 'iptables', version, text), [change], version);
}

test('random batches of changes give the text, lines and positions a document opened afresh has', () => {
  for (const seed of [1, 2, 3]) {
    const rng = new Rng(seed);
    // Long enough to be held in many chunks (a chunk is cut past 32K characters).
    const text = randomText(rng, 60_000);
    let edited = PIECED_DOCUMENTS.create('file:///a', 'iptables', 1, text);
    let plain = TextDocument.create('file:///a', 'iptables', 1, text);
    for (let version = 2; version < 60; version++) {
      const changes: TextDocumentContentChangeEvent[] = [];
      const n = rng.int(4) === 0 ? 1 + rng.int(200) : 1 + rng.int(3);
      for (let i = 0; i < n; i++) {
        const change = randomChange(rng, plain);
        changes.push(change);
        // Each change is read in the text the ones before it left: the reference applies them one by one.
        plain = applied(plain.getText(), change, version);
      }
      edited = PIECED_DOCUMENTS.update(edited, changes, version);
      if (rng.int(3) === 0) assertSame(edited, plain, rng, `seed ${seed} v${version}`);
    }
    assertSame(edited, plain, rng, `seed ${seed} end`);
  }
});

test('positions are answered before the edited text is joined, and the same after', () => {
  const text = '*nat\r\n:KUBE-SERVICES - [0:0]\n'.repeat(5000);
  const doc = EditedDocument.of(TextDocument.create('file:///b', 'iptables', 1, text));
  const plain = TextDocument.create('file:///b', 'iptables', 1, text);
  const change = { range: { start: { line: 7001, character: 3 }, end: { line: 7002, character: 0 } }, text: 'X\r' };
  doc.update([change], 2);
  TextDocument.update(plain, [change], 2);
  const probes = [0, 5, 6, 100_000, 7001 * 20, plain.getText().length];
  const before = probes.map((o) => doc.positionAt(o));
  assert.equal(doc.lineCount, plain.lineCount);
  assert.equal(doc.getText(), plain.getText());
  assert.deepEqual(
    before,
    probes.map((o) => plain.positionAt(o)),
  );
  assert.deepEqual(
    probes.map((o) => doc.positionAt(o)),
    before,
  );
  assert.deepEqual(textParts(doc), [plain.getText()]);
});

test('a pieced document edited keeps its text and gives its pieces up', () => {
  const pieces = ['*nat\n:KUBE-SERVICES - [0:0]\n-A KUBE-SER', 'VICES -j KUBE-SVC-A\r\n', '😀\nCOMMIT\n'];
  let released = 0;
  const text = new PiecedText(pieces);
  text.forwarded = { release: () => released++ };
  const doc = PIECED_DOCUMENTS.update(
    PIECED_DOCUMENTS.create('file:///c', 'iptables', 1, text),
    [{ range: { start: { line: 2, character: 0 }, end: { line: 2, character: 2 } }, text: '-I' }],
    2,
  );
  assert.equal(doc.getText(), pieces.join('').replace('-A', '-I'));
  assert.equal(released, 1);
  assert.throws(() => PIECED_DOCUMENTS.update(doc, [{} as TextDocumentContentChangeEvent], 3), /Unknown change/);
});
