/**
 * A big message's long strings are decoded piece by piece as they come (stdioReader.ts `BigBody`): pieces are cut
 * before an escape about every PIECE_BYTES, or before an ASCII character in a long run without one. Whatever the
 * chunks, the text must be the one JSON.parse reads: checked with what a client may write right where pieces are
 * cut (escaped quotes and backslash runs, a surrogate pair as \u escapes, CJK and emoji as UTF-8, CRLF),
 * each time the body is cut into two chunks at the bytes around it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PiecedText } from '../../../src/server/piecedText';
import { BigBody, PIECE_BYTES } from '../../../src/server/stdioReader';

/** The didOpen text of `body` read in chunks ending at `cuts` (then the rest), joined. */
function readText(body: Buffer, cuts: number[]): string {
  const big = new BigBody(body.length);
  let at = 0;
  for (const cut of [...cuts, body.length]) {
    const end = Math.min(cut, body.length);
    while (at < end) at += big.take(body.subarray(at, end));
  }
  assert.ok(big.complete);
  const text = (big.message() as unknown as { params: { textDocument: { text: unknown } } }).params.textDocument.text;
  assert.ok(text instanceof PiecedText);
  return text.toString();
}

/** A didOpen body (JSON as written, escapes by hand) whose text has `special` 8 times where the first and second pieces are cut. */
function body(special: string): { json: Buffer; at: number[] } {
  let text = '';
  const marks: number[] = [];
  for (const target of [PIECE_BYTES, 2 * PIECE_BYTES]) {
    while (text.length < target - 16) text += `-A KUBE-SVC-${text.length} -j KUBE-SEP\\n`;
    marks.push(text.length);
    text += special.repeat(8);
  }
  while (text.length < 3.5 * PIECE_BYTES) text += `-A KUBE-SEP-${text.length} -j DNAT\\n`;
  const head = '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///d","text":"';
  const json = Buffer.from(`${head}${text}"}}}`, 'utf8');
  // Where each run of specials starts in the body's bytes (the text before it is ASCII).
  return { json, at: marks.map((m) => head.length + m) };
}

test('a big text decoded in pieces is the text, whatever byte the chunks end at near escapes and characters', () => {
  for (const special of ['\\"', '\\\\\\"', '\\ud83d\\ude00', '\u4e2d\u6587', '\ud83d\ude00', '\\r\\n']) {
    const { json, at } = body(special);
    const expected = (JSON.parse(json.toString('utf8')) as { params: { textDocument: { text: string } } }).params
      .textDocument.text;
    const width = Buffer.byteLength(special);
    for (const start of at)
      for (const delta of [1, width + 1, 3 * width + 2])
        assert.equal(readText(json, [start + delta]), expected, `${special} cut at byte ${start + delta}`);
    // The pipe's chunks.
    const chunks = Array.from({ length: Math.ceil(json.length / 65536) }, (_, i) => (i + 1) * 65536);
    assert.equal(readText(json, chunks), expected, `${special} in 64 KB chunks`);
  }
});
