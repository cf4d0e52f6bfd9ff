import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import type { Message } from 'vscode-languageserver/node';
import { StdioMessageReader } from '../../../src/server/stdioReader';

const frame = (message: unknown, header = 'Content-Length') => {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`${header}: ${body.length}\r\n\r\n`, 'ascii'), body]);
};

/** Feeds `bytes` to a reader in chunks of the given sizes (cycled) and returns what it delivered and fired. */
async function read(bytes: Buffer, sizes: number[]): Promise<{ messages: Message[]; errors: string[] }> {
  const input = new PassThrough();
  const reader = new StdioMessageReader(input);
  const messages: Message[] = [];
  const errors: string[] = [];
  reader.onError((e) => errors.push(e.message));
  const closed = new Promise<void>((resolve) => reader.onClose(() => resolve()));
  reader.listen((m) => messages.push(m));
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length];
    input.write(bytes.subarray(at, at + size));
    at += size;
  }
  input.end();
  input.destroy();
  await closed;
  return { messages, errors };
}

test('messages come whole whatever the chunks: headers and UTF-8 characters cut, several messages in one chunk', async () => {
  const sent = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { locale: 'zh-CN' } },
    { jsonrpc: '2.0', method: 'textDocument/didOpen', params: { text: '# 中文 😀 "quoted"\n-A KUBE-SERVICES' } },
    { jsonrpc: '2.0', id: 2, result: null },
  ];
  const bytes = Buffer.concat([
    frame(sent[0]),
    // Other headers are allowed, and the name's case is not fixed.
    Buffer.concat([
      Buffer.from('Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n'),
      frame(sent[1], 'content-length'),
    ]),
    frame(sent[2]),
  ]);
  for (const sizes of [[bytes.length], [1], [3, 7], [17, 2, 40]]) {
    const { messages, errors } = await read(bytes, sizes);
    assert.deepEqual(messages, sent, `chunks of ${sizes.join(', ')} bytes`);
    assert.deepEqual(errors, []);
  }
});

test('a message of many megabytes comes whole, and the one after it too', async () => {
  const text = Array.from({ length: 300_000 }, (_, i) => `-A KUBE-SVC-${i} -j KUBE-SEP-${i} # ü`).join('\n');
  const big = { jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { text } } };
  const after = { jsonrpc: '2.0', id: 3, method: 'textDocument/hover' };
  const bytes = Buffer.concat([frame(big), frame(after)]);
  assert.ok(bytes.length > 9 << 20);
  const { messages, errors } = await read(bytes, [65_536, 1000]);
  assert.equal(messages.length, 2);
  assert.equal((messages[0] as typeof big).params.textDocument.text, text);
  assert.deepEqual(messages[1], after);
  assert.deepEqual(errors, []);
});

test('a header without Content-Length and a body that is not JSON are errors, not messages', async () => {
  const bad = await read(Buffer.from('Content-Type: application/json\r\n\r\n{}'), [100]);
  assert.deepEqual(bad.messages, []);
  assert.match(bad.errors[0], /Content-Length/);
  const broken = await read(Buffer.concat([Buffer.from('Content-Length: 3\r\n\r\n{x}'), frame({ id: 4 })]), [5]);
  assert.deepEqual(broken.messages, [{ id: 4 }]);
  assert.equal(broken.errors.length, 1);
});

test("a big message's body buffer is let go before the message is delivered: not a third copy under the parse", () => {
  // Chunks made as they are fed, from a string: the only buffer of the body's size is the reader's own.
  const text = Array.from({ length: 400_000 }, (_, i) => `-A KUBE-SVC-${i} -j KUBE-SEP-${i}`).join('\n');
  const json = JSON.stringify({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { text } } });
  const input = new EventEmitter() as unknown as NodeJS.ReadableStream;
  const reader = new StdioMessageReader(input);
  let buffersAtDelivery = -1;
  let delivered: Message | undefined;
  reader.listen((m) => {
    buffersAtDelivery = process.memoryUsage().arrayBuffers;
    delivered = m;
  });
  input.emit('data', Buffer.from(`Content-Length: ${json.length}\r\n\r\n`, 'ascii'));
  for (let at = 0; at < json.length; at += 65_536)
    input.emit('data', Buffer.from(json.slice(at, at + 65_536), 'latin1'));
  assert.ok(json.length > 12 << 20);
  assert.equal((delivered as unknown as { params: { textDocument: { text: string } } }).params.textDocument.text, text);
  assert.ok(buffersAtDelivery < json.length / 2, `${buffersAtDelivery} bytes of buffers still held at delivery`);
});
