import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { pack, unpack } from '../../../src/server/packedText';
import { forwardedText, PIECED_DOCUMENTS, PiecedText, textLength, textParts } from '../../../src/server/piecedText';

const pieces = ['*nat\n:KUBE-SERVICES - [0:0]\n-A KUBE-SER', 'VICES -j KUBE-SVC-A\r\n', '😀\nCOMMIT\n'];
const text = pieces.join('');

test('a document opened in pieces keeps them until its text is first needed, and answers as a TextDocument', () => {
  const doc = PIECED_DOCUMENTS.create('file:///a', 'iptables', 1, new PiecedText(pieces));
  const plain = TextDocument.create('file:///a', 'iptables', 1, text);
  assert.deepEqual(textParts(doc), pieces);
  assert.equal(textLength(doc), text.length);
  assert.equal(doc.getText(), text);
  assert.equal(doc.lineCount, plain.lineCount);
  for (let offset = 0; offset <= text.length; offset++)
    assert.deepEqual(doc.positionAt(offset), plain.positionAt(offset));
  assert.equal(
    doc.getText({ start: { line: 2, character: 3 }, end: { line: 3, character: 1 } }),
    'KUBE-SERVICES -j KUBE-SVC-A\r\n\ud83d',
  );
  // Joined once: the parts are now the one text.
  assert.deepEqual(textParts(doc), [text]);
});

test('an edit of a pieced document gives what the same edit of a plain one gives', () => {
  const edits = [
    { range: { start: { line: 2, character: 0 }, end: { line: 2, character: 2 } }, text: '-I' },
    { range: { start: { line: 4, character: 0 }, end: { line: 4, character: 6 } }, text: 'COMMIT\n# end' },
  ];
  const doc = PIECED_DOCUMENTS.update(
    PIECED_DOCUMENTS.create('file:///b', 'iptables', 1, new PiecedText(pieces)),
    edits,
    2,
  );
  const plain = TextDocument.update(TextDocument.create('file:///b', 'iptables', 1, text), edits, 2);
  assert.equal(doc.getText(), plain.getText());
  assert.equal(doc.version, 2);
  assert.deepEqual(textParts(doc), [plain.getText()]);
  // A plain text opens a plain TextDocument.
  assert.deepEqual(textParts(PIECED_DOCUMENTS.create('file:///c', 'iptables', 1, text)), [text]);
});

test('a piece packed keeps every code unit: Latin-1 bytes, or UTF-16 with CJK, emoji and half a surrogate pair', () => {
  const samples = [
    '-A KUBE-SVC-X -m comment --comment "ns/svc:http" -j KUBE-SEP-Y\n'.repeat(2000),
    `${'x'.repeat(5000)}é\u00ff\t\r\n`,
    `中文 😀 ${'-A KUBE-SERVICES\n'.repeat(500)}\ud83d`,
    '\ude00 starts with the second half',
    '',
  ];
  for (const s of samples) {
    const packed = pack(s);
    assert.equal(unpack(packed), s);
    assert.equal(packed.wide, /[^\u0000-\u00ff]/.test(s));
  }
  // Kept as a seventh of it or less: the point of packing a kube-proxy dump.
  assert.ok(pack(samples[0]).bytes.length * 7 < samples[0].length);
});

test('a document whose pieces were packed as they came answers as the plain one, and lets its worker go once joined', () => {
  const text = new PiecedText();
  for (const p of pieces) text.pack(text.push(p));
  let released = 0;
  text.forwarded = { release: () => released++ };
  const doc = PIECED_DOCUMENTS.create('file:///p', 'iptables', 1, text);
  assert.equal(textLength(doc), pieces.join('').length);
  assert.deepEqual(textParts(doc), pieces);
  assert.equal(forwardedText(doc), text.forwarded);
  const edits = [{ range: { start: { line: 2, character: 0 }, end: { line: 2, character: 2 } }, text: '-I' }];
  const edited = PIECED_DOCUMENTS.update(doc, edits, 2);
  assert.equal(
    edited.getText(),
    TextDocument.update(TextDocument.create('file:///p', 'iptables', 1, text.toString()), edits, 2).getText(),
  );
  // The worker's parts are not the text any analysis reads now.
  assert.equal(released, 1);
  assert.equal(forwardedText(doc), undefined);
});
