import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fitResponse } from '../../../src/server/fit';
import { LineIndex } from '../../../src/server/lineIndex';

test('LineIndex counts lines as the editor does: CRLF, LF and a lone CR', () => {
  const l = LineIndex.of('ab\r\ncde\rf\n\n😀x');
  assert.equal(l.lineCount, 5);
  assert.deepEqual(
    [0, 1, 2, 3, 4].map((i) => l.lineLength(i)),
    [2, 3, 1, 0, 3],
  );
  assert.equal(l.splitsSurrogate(4, 1), true);
  assert.deepEqual(l.clamp({ line: 4, character: 1 }), { line: 4, character: 0 });
  assert.deepEqual(l.clamp({ line: 9, character: 0 }), { line: 4, character: 3 });
});

test('an answer of an older, longer text is fitted into the current one', () => {
  const lines = LineIndex.of('*nat\n:A - [0:0]\nCOMMIT');
  const symbols = [
    {
      name: 'A',
      kind: 12,
      range: { start: { line: 1, character: 0 }, end: { line: 40, character: 80 } },
      selectionRange: { start: { line: 1, character: 1 }, end: { line: 1, character: 2 } },
    },
  ];
  const fitted = fitResponse('textDocument/documentSymbol', symbols, lines);
  assert.deepEqual(fitted.value, [
    { ...symbols[0], range: { start: { line: 1, character: 0 }, end: { line: 2, character: 6 } } },
  ]);
  assert.ok(fitted.changes.length > 0);
  const folds = fitResponse(
    'textDocument/foldingRange',
    [
      { startLine: 0, endLine: 30 },
      { startLine: 1, endLine: 2 },
      { startLine: 1, endLine: 1 },
      { startLine: 5, endLine: 9 },
    ],
    lines,
  );
  assert.deepEqual(folds.value, [
    { startLine: 0, endLine: 2 },
    { startLine: 1, endLine: 2 },
  ]);
});

test('a selectionRange outside its range widens the range; an empty hover becomes null', () => {
  const lines = LineIndex.of(':KUBE-KUBELET-CANARY - [0:0]');
  const item = {
    name: 'X',
    kind: 12,
    uri: 'u',
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    selectionRange: { start: { line: 0, character: 1 }, end: { line: 0, character: 20 } },
  };
  assert.deepEqual(
    (fitResponse('textDocument/prepareCallHierarchy', [item], lines).value as (typeof item)[])[0].range,
    { start: { line: 0, character: 0 }, end: { line: 0, character: 20 } },
  );
  assert.equal(fitResponse('textDocument/hover', { contents: { kind: 'markdown', value: ' \n' } }, lines).value, null);
  assert.deepEqual(
    fitResponse('textDocument/hover', { contents: { kind: 'markdown', value: 'x' } }, lines).changes,
    [],
  );
});

test('semantic tokens stay inside their lines, in order, without overlap', () => {
  const lines = LineIndex.of('abc def\nx😀y\n');
  // [line 0: 0+3, 4+10 (past the end), 5+1 (overlaps)], [line 1: 1+1 (splits the pair), 3+1], [line 5: gone]
  const data = [0, 0, 3, 0, 0, 0, 4, 10, 1, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0, 0, 0, 2, 1, 0, 0, 4, 0, 2, 0, 0];
  const fitted = fitResponse('textDocument/semanticTokens/full', { data }, lines);
  assert.deepEqual((fitted.value as { data: number[] }).data, [0, 0, 3, 0, 0, 0, 4, 3, 1, 0, 1, 3, 1, 0, 0]);
});
