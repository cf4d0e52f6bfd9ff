import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import type { Message } from 'vscode-languageserver/node';
import { PiecedText } from '../../../src/server/piecedText';
import {
  BigBody,
  isDidOpenText,
  latin1String,
  StdioMessageReader,
  unescapeAscii,
  type TextSink,
} from '../../../src/server/stdioReader';

// ArrayBuffers freed by a collection are counted out of process.memoryUsage().arrayBuffers by V8's sweeper, on a
// background thread by default: under load, the buffers of the tests before were still counted when a reader
// delivered (its full collection had found them garbage). Swept within the collection, the count says what is
// still reachable.
setFlagsFromString('--no-concurrent-array-buffer-sweeping');

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
  // The didOpen's text comes in the pieces it was decoded in, not joined (the server forwards them to its worker).
  const opened = (messages[0] as unknown as { params: { textDocument: { text: PiecedText } } }).params.textDocument
    .text;
  assert.ok(opened instanceof PiecedText);
  assert.ok(opened.pieces.length > 1);
  assert.equal(opened.length, text.length);
  assert.equal(opened.toString(), text);
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
  assert.equal(
    String((delivered as unknown as { params: { textDocument: { text: unknown } } }).params.textDocument.text),
    text,
  );
  assert.ok(buffersAtDelivery < json.length / 2, `${buffersAtDelivery} bytes of buffers still held at delivery`);
});

/** Reads `json` (the body of one message) through a BigBody in chunks of the given sizes (cycled). */
function readBig(json: Buffer, sizes: number[]): unknown {
  const body = new BigBody(json.length);
  for (let at = 0, i = 0; at < json.length; i++) at += body.take(json.subarray(at, at + sizes[i % sizes.length]));
  assert.ok(body.complete);
  return body.message();
}

/** `value` with every PiecedText joined: what JSON.parse makes of the same body. */
function joined(value: unknown): unknown {
  if (value instanceof PiecedText) return value.toString();
  if (Array.isArray(value)) return value.map(joined);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, joined(v)]));
  return value;
}

test('a big body read as it comes is what JSON.parse reads: escapes, characters and runs without escapes cut anywhere', () => {
  // Seeded: the same strings every run; each kind of stretch a piece may be cut before, inside or after.
  let seed = 7;
  const random = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
  const stretches = [
    () => '-A KUBE-SVC-X -m comment --comment "default/kubernetes:https" -j KUBE-SEP-Y\n',
    () => '\\'.repeat(1 + random(5)), // backslashes in a row: the escape after them is escaped or not
    () => '\\"' + '\\\\'.repeat(random(3)),
    () => 'ü中文😀\t\r\u0000\u00e9\ud83d\ude00\u20ac/',
    () => 'x'.repeat(random(2000)),
    () => '日本語'.repeat(random(3000)), // no ASCII byte to cut before for a while
  ];
  const longText = (chars: number) => {
    const parts: string[] = [];
    for (let n = 0; n < chars;) {
      const s = stretches[random(stretches.length)]();
      parts.push(s);
      n += s.length;
    }
    return parts.join('');
  };
  const text = longText(9 << 20);
  // A run without any escape, longer than four pieces: cut before an ASCII byte.
  const run = 'a'.repeat(5 << 20) + 'é'.repeat(3 << 20) + 'b'.repeat(1 << 20);
  const message = {
    jsonrpc: '2.0',
    method: 'textDocument/didOpen',
    params: {
      textDocument: { uri: 'file:///d "quoted" \\', languageId: 'iptables', version: 3, text },
      other: [run, 'short \\" one', { deep: text.slice(0, 3 << 20) }],
    },
  };
  const json = Buffer.from(JSON.stringify(message), 'utf8');
  for (const sizes of [[65_536], [1, 70_001, 3], [json.length]]) {
    const read = readBig(json, sizes) as typeof message;
    assert.deepEqual(joined(read), message, `chunks of ${sizes.join(', ')} bytes`);
    // Only the didOpen's text stays pieced; the other long strings are strings.
    assert.ok((read.params.textDocument.text as unknown) instanceof PiecedText);
    assert.equal(typeof read.params.other[0], 'string');
    assert.equal(typeof (read.params.other[2] as { deep: unknown }).deep, 'string');
  }
});

test('a big body that is not JSON, or whose long string is broken, is an error', () => {
  const text = 'x'.repeat(3 << 20) + '\\q' + 'y'.repeat(3 << 20); // `\q` is no JSON escape
  const json = Buffer.from(`{"method":"textDocument/didOpen","params":{"textDocument":{"text":"${text}"}}}`, 'utf8');
  assert.throws(() => readBig(json, [65_536]));
  const unclosed = Buffer.from(`{"text":"${'x'.repeat(3 << 20)}`, 'utf8');
  assert.throws(() => readBig(unclosed, [65_536]));
});

test('a big message whose long string JSON does not allow is one error, and the messages after it still come', async () => {
  // A raw tab in a string: JSON.parse refuses it, and so does the piece decoder, mid-body.
  const text = `${'x'.repeat(5 << 20)}\t${'y'.repeat(5 << 20)}`;
  const body = Buffer.from(JSON.stringify({ method: 'textDocument/didOpen', params: { text } }).replace('\\t', '\t'));
  const broken = Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
  const after = { jsonrpc: '2.0', id: 5, method: 'shutdown' };
  const { messages, errors } = await read(Buffer.concat([broken, frame(after), frame({ id: 6 })]), [65_536]);
  assert.deepEqual(messages, [after, { id: 6 }]);
  assert.equal(errors.length, 1);
});

test(
  'a long run of multi-byte characters right after a string starts is read whole, whatever the chunk ends on',
  { timeout: 60_000 },
  () => {
    // The only ASCII byte before the chunk's end is the string's first: nothing can be cut before it yet.
    const text = `a${'中'.repeat(1_600_000)}\n${'x'.repeat(4_000_000)}`;
    const json = Buffer.from(JSON.stringify({ method: 'textDocument/didOpen', params: { textDocument: { text } } }));
    const start = json.indexOf('"text":"') + '"text":"'.length;
    const body = new BigBody(json.length);
    body.take(json.subarray(0, start + 1 + 3 * 1_600_000));
    body.take(json.subarray(start + 1 + 3 * 1_600_000));
    assert.equal(
      String((joined(body.message()) as { params: { textDocument: { text: string } } }).params.textDocument.text),
      text,
    );
  },
);

/** A sink as the server's: it keeps the pieces given (packed) and counts its releases. */
function recordingSink() {
  const given: string[] = [];
  const text = new PiecedText();
  let released = 0;
  text.forwarded = { release: () => released++ };
  const sink: TextSink = {
    add: (piece) => {
      given.push(typeof piece === 'string' ? piece : latin1String(piece));
      text.pack(typeof piece === 'string' ? text.push(piece) : text.pushLatin1(piece));
    },
    text: () => text,
  };
  return { sink, given, text, released: () => released };
}

test("a big didOpen's text goes to the sink piece by piece as it is read, and the message has the sink's text", () => {
  const text = `${'-A KUBE-SVC-X -m comment --comment "a \\"b\\"" -j KUBE-SEP-Y 中文 😀\n'.repeat(150_000)}\ud83d`;
  const params = { textDocument: { uri: 'file:///d', languageId: 'iptables', version: 1, text } };
  const json = Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'textDocument/didOpen', params }));
  const made: ReturnType<typeof recordingSink>[] = [];
  const body = new BigBody(json.length, () => {
    made.push(recordingSink());
    return made[made.length - 1].sink;
  });
  let piecesBeforeTheEnd = -1;
  for (let at = 0; at < json.length; at += 65_536) {
    body.take(json.subarray(at, at + 65_536));
    if (at + 65_536 < json.length && made.length) piecesBeforeTheEnd = made[0].given.length;
  }
  assert.equal(made.length, 1);
  assert.ok(piecesBeforeTheEnd > 1, 'pieces went to the sink before the message was complete');
  const read = body.message() as unknown as { params: { textDocument: { text: unknown; uri: string } } };
  assert.equal(read.params.textDocument.text, made[0].text);
  assert.equal(made[0].given.join(''), text);
  assert.equal(String(read.params.textDocument.text), text);
  assert.equal(read.params.textDocument.uri, 'file:///d');
  assert.equal(made[0].released(), 0);
});

test('only a didOpen whose method comes before its text gives the text to a sink; a body that cannot be read releases it', () => {
  const text = 'x'.repeat(3 << 20) + '\\n'.repeat(1000) + 'y'.repeat(3 << 20);
  const bodies = {
    methodAfter: `{"jsonrpc":"2.0","params":{"textDocument":{"text":"${text}"}},"method":"textDocument/didOpen"}`,
    otherMethod: `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"text":"${text}"}}}`,
    otherKey: `{"method":"textDocument/didOpen","params":{"textDocument":{"uri":"${text}"}}}`,
    broken: `{"method":"textDocument/didOpen","params":{"textDocument":{"text":"${text}\\q"}}}`,
    brokenAfter: `{"method":"textDocument/didOpen","params":{"textDocument":{"text":"${text}"}}`,
  };
  const sinks: Record<string, ReturnType<typeof recordingSink>[]> = {};
  for (const [name, json] of Object.entries(bodies)) {
    const made: ReturnType<typeof recordingSink>[] = (sinks[name] = []);
    const bytes = Buffer.from(json);
    const body = new BigBody(bytes.length, () => {
      made.push(recordingSink());
      return made[made.length - 1].sink;
    });
    for (let at = 0; at < bytes.length; at += 65_536) body.take(bytes.subarray(at, at + 65_536));
    if (name.startsWith('broken')) assert.throws(() => body.message(), name);
    else assert.equal(JSON.stringify(joined(body.message())), JSON.stringify(JSON.parse(json)), name);
  }
  assert.deepEqual(Object.fromEntries(Object.entries(sinks).map(([k, v]) => [k, v.map((s) => s.released())])), {
    methodAfter: [],
    otherMethod: [],
    otherKey: [],
    broken: [1],
    brokenAfter: [1],
  });
  assert.ok(
    isDidOpenText('{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"a","text":'),
  );
  assert.ok(
    isDidOpenText(
      '{ "method" : "textDocument/didOpen" , "params" : { "x": [1, {"y": "}"}], "textDocument" : { "text" :  ',
    ),
  );
  assert.ok(!isDidOpenText('{"method":"textDocument/didOpen","params":{"textDocument":{"text":"a","uri":'));
  assert.ok(!isDidOpenText('{"method":"textDocument/didOpen","params":{"textDocument":[{"text":'));
  assert.ok(!isDidOpenText('{"params":{"method":"textDocument/didOpen","textDocument":{"text":'));
});

test('ASCII string bytes are unescaped as JSON.parse reads them; anything else is left to JSON.parse', () => {
  const read = (json: string): string | undefined => {
    const bytes = Buffer.from(json, 'utf8');
    const into = Buffer.alloc(bytes.length);
    const n = unescapeAscii(bytes, 0, bytes.length, into);
    return n === undefined ? undefined : latin1String(into.subarray(0, n));
  };
  const escapes = ['\\"', '\\\\', '\\/', '\\b', '\\f', '\\n', '\\r', '\\t', '\\\\n', '\\\\\\"'];
  // Every escape next to each other and to plain characters, DEL included (JSON allows it unescaped).
  for (const a of escapes)
    for (const b of ['', 'x', ' ', '\x7f', ...escapes]) {
      const json = `-A ${a}${b} -j X${b}${a}`;
      assert.equal(read(json), JSON.parse(`"${json}"`), json);
    }
  // Not printable ASCII with one-character escapes: undefined, JSON.parse reads (or refuses) them.
  for (const json of ['\\u0041', 'a\\', 'a"b', 'tab\tin', 'nul\u0000', '\u4e2d\u6587', 'caf\u00e9', '\\x41'])
    assert.equal(read(json), undefined, JSON.stringify(json));
});

test("a kube-proxy dump's didOpen goes to the sink as bytes, no piece a string, and reads as JSON.parse reads it", () => {
  const text = '-A KUBE-SVC-X -m comment --comment "default/web:http cluster IP" -j KUBE-SEP-Y\n'.repeat(40_000);
  const json = Buffer.from(
    JSON.stringify({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { text } } }),
  );
  const kinds = new Set<string>();
  const pieced = new PiecedText();
  const body = new BigBody(json.length, () => ({
    add: (piece) => {
      kinds.add(typeof piece);
      pieced.pack(typeof piece === 'string' ? pieced.push(piece) : pieced.pushLatin1(piece));
    },
    text: () => pieced,
  }));
  for (let at = 0; at < json.length; at += 65_536) body.take(json.subarray(at, at + 65_536));
  const read = body.message() as unknown as { params: { textDocument: { text: unknown } } };
  assert.deepEqual([...kinds], ['object']);
  assert.ok(pieced.pieces.length > 4);
  assert.equal(pieced.length, text.length);
  assert.equal(String(read.params.textDocument.text), text);
});

test('input that never ends a header (LF-only headers, not LSP at all) is dropped and said once; a message after it still comes', async () => {
  // Its end (the blank line that ends the bad header) at a chunk's end: an error drops the rest of its chunk.
  const garbage = Buffer.alloc(4 * 1024 * 1024 - 4, 'Content-Length: 2\n\n{}\n');
  const after = frame({ jsonrpc: '2.0', id: 7, method: 'shutdown' });
  const { messages, errors } = await read(Buffer.concat([garbage, Buffer.from('\r\n\r\n'), after]), [65536]);
  assert.equal(errors.length, 2, errors.join('\n')); // the dropped bytes, then the header that ends them (no length)
  assert.match(errors[0], /no message header end .* in 65536 bytes: the input is not the Language Server Protocol/);
  assert.deepEqual(messages, [{ jsonrpc: '2.0', id: 7, method: 'shutdown' }]);
});
