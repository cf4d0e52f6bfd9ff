/**
 * The server's writer on stdout (src/server/rawResult.ts): every message framed as vscode-jsonrpc's own writer
 * frames it, and an answer a worker wrote as JSON text spliced into its response unparsed, whole, and never in the
 * middle of another message.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { StreamMessageWriter, type Message } from 'vscode-languageserver/node';
import { RawResult, StdoutMessageWriter } from '../../../src/server/rawResult';

async function bytesWritten(make: (out: PassThrough) => { write(m: Message): Promise<void> }, messages: Message[]) {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const writer = make(out);
  // Sent at once, as the connection does: each is written whole, in order.
  await Promise.all(messages.map((m) => writer.write(m)));
  return Buffer.concat(chunks);
}

/** A result as a worker hands it over: JSON text in blocks, cut anywhere (here inside a character). */
function rawResult(value: unknown): RawResult {
  const bytes = Buffer.from(JSON.stringify(value), 'utf8');
  const cuts = [0, 7, 8, 9, bytes.indexOf(Buffer.from('服')) + 1, bytes.length];
  const blocks = cuts.slice(1).map((end, i) => new Uint8Array(bytes.subarray(cuts[i], end)));
  return new RawResult({ blocks, length: bytes.length });
}

const OUTLINE = [{ name: '服务', detail: 'Services "quoted" \\ \u2028', kind: 2, children: [{ name: 'x' }] }];

test('messages are framed as vscode-jsonrpc frames them, a raw result as its value would be', async () => {
  const messages: Message[] = [
    { jsonrpc: '2.0', method: 'window/logMessage', params: { type: 3, message: 'héllo' } } as Message,
    { jsonrpc: '2.0', id: 7, result: OUTLINE } as Message,
    { jsonrpc: '2.0', id: 8, error: { code: -32800, message: 'cancelled' } } as Message,
  ];
  const expected = await bytesWritten((out) => new StreamMessageWriter(out), messages);
  const raw = messages.map((m) => ('result' in m ? { ...m, result: rawResult(OUTLINE) } : m)) as Message[];
  assert.equal(
    (await bytesWritten((out) => new StdoutMessageWriter(out), raw)).toString('utf8'),
    expected.toString('utf8'),
  );
  assert.ok(expected.includes(Buffer.from('Content-Length: ')));
});

test('a raw result read back is its value (for fitting into a newer text, or another writer)', () => {
  const raw = rawResult(OUTLINE);
  assert.deepEqual(raw.value(), OUTLINE);
  assert.equal(JSON.stringify({ result: raw }), JSON.stringify({ result: OUTLINE }));
});
