/**
 * The LSP base protocol (`Content-Length: N`, a blank line, N bytes of JSON) read from the server's stdin, with
 * as few copies of a big message as JSON allows. vscode-jsonrpc's reader keeps a message's chunks until the last
 * one comes, joins them into one buffer, decodes that to a string and parses it: on a 23 MB didOpen, four copies
 * of the text were alive at once (chunks, body, JSON, the parsed text), 95 MB at the server's peak. Here a small
 * message's chunks are copied into a buffer of the announced length as they come, decoded and parsed; a big
 * message is read as it comes (`BigBody`): its long strings are decoded piece by piece and the rest parsed as
 * JSON, so that one copy of a big text is alive at any moment (its pieces), plus a chunk.
 */
import { AbstractMessageReader, Disposable, type DataCallback, type Message } from 'vscode-languageserver/node';
import { collectGarbage } from './gc';
import { PiecedText } from './piecedText';

/**
 * Where a big didOpen's text goes piece by piece as it is decoded, before its message is complete (the server:
 * to the worker that will analyse it, so that its own process never holds the whole text at once).
 */
export interface TextSink {
  /**
   * The next piece: a string, or the bytes of an ASCII piece (no string is made of a kube-proxy dump's pieces),
   * theirs only until `add` returns.
   */
  add(piece: string | Uint8Array): void;
  /** The text, once its last piece was added. */
  text(): PiecedText;
}

/** From this size a message is read as it comes (`BigBody`) and what it came in is collected before delivery. */
const BIG_MESSAGE_BYTES = 8 << 20;
/**
 * While a big body comes, the young generation is collected every this many bytes: the chunks read and each
 * piece's transient copies are garbage outside V8's heap or in its young generation (every 4 MB: 7 MB more at the
 * server's peak on a 23 MB didOpen).
 */
const YOUNG_GC_BYTES = 1 << 20;
const HEADER_END = Buffer.from('\r\n\r\n', 'ascii');
/** More than any header the protocol has (Content-Length and Content-Type lines). */
const MAX_HEADER_BYTES = 64 * 1024;

export class StdioMessageReader extends AbstractMessageReader {
  /** What has come of the header being read (before its blank line). */
  private header = Buffer.alloc(0);
  /** The body being read, as long as its Content-Length says, and how much of it has come. */
  private body?: Buffer;
  private filled = 0;

  /** Where a big didOpen's text goes as it is decoded; without one (or undefined), it is kept in its pieces. */
  textSink?: () => TextSink | undefined;

  constructor(private readonly input: NodeJS.ReadableStream) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const onData = (chunk: Buffer) => {
      try {
        this.read(chunk, callback);
      } catch (e) {
        this.fireError(e);
      }
    };
    const onError = (e: Error) => this.fireError(e);
    const onClose = () => this.fireClose();
    this.input.on('data', onData);
    this.input.on('error', onError);
    this.input.on('close', onClose);
    return Disposable.create(() => {
      this.input.off('data', onData);
      this.input.off('error', onError);
      this.input.off('close', onClose);
    });
  }

  /** A big message's body being read (instead of `body`). */
  private big?: BigBody;
  /** Input without a header end was reported (once, until a header ends again). */
  private saidNoHeaderEnd = false;

  private read(chunk: Buffer, callback: DataCallback): void {
    let data = chunk;
    while (data.length > 0) {
      if (!this.body && !this.big) {
        const header = this.header.length ? Buffer.concat([this.header, data]) : data;
        const end = header.indexOf(HEADER_END);
        if (end < 0) {
          // A header is a line or two. Input that never ends one (LF-only headers, another transport, no LSP at
          // all) was kept and copied again with every chunk: quadratic and without bound. It is dropped, said once.
          if (header.length > MAX_HEADER_BYTES) {
            this.header = Buffer.from(header.subarray(header.length - (HEADER_END.length - 1)));
            if (this.saidNoHeaderEnd) return;
            this.saidNoHeaderEnd = true;
            throw new Error(
              `no message header end (\\r\\n\\r\\n) in ${MAX_HEADER_BYTES} bytes: the input is not the Language Server Protocol (Content-Length: N, a blank line, then N bytes of JSON); those bytes are dropped`,
            );
          }
          this.header = Buffer.from(header);
          return;
        }
        this.header = Buffer.alloc(0);
        this.saidNoHeaderEnd = false;
        const length = contentLength(header.toString('ascii', 0, end));
        data = header.subarray(end + HEADER_END.length);
        if (length >= BIG_MESSAGE_BYTES) this.big = new BigBody(length, this.textSink);
        else if (data.length >= length) {
          // The whole body is in this chunk: read from it, not copied.
          const body = data.subarray(0, length);
          data = data.subarray(length);
          this.deliver(body.toString('utf8'), callback);
          continue;
        } else this.startBody(length);
      }
      if (this.big) {
        const n = this.takeBig(data);
        data = data.subarray(n);
        if (this.big.complete) this.deliverBig(callback);
        continue;
      }
      const n = this.fill(data);
      data = data.subarray(n);
      if (this.filled === this.bodyLength) this.deliver(this.decodeBody(), callback);
    }
  }

  /**
   * The body's buffer is handled in frames of its own (this one, `fill`, `decodeBody`): an interpreted frame keeps
   * every value it loaded until it returns, and `read`'s would keep the body alive under the JSON's parse.
   */
  private startBody(length: number): void {
    this.body = Buffer.allocUnsafe(length);
    this.filled = 0;
  }

  /** Copies what `data` has of the body; how many bytes it took. */
  private fill(data: Buffer): number {
    const body = this.body!;
    const n = data.copy(body, this.filled, 0, Math.min(data.length, body.length - this.filled));
    this.filled += n;
    return n;
  }

  /** What `data` has of a big body, read; how many bytes it took. */
  private takeBig(data: Buffer): number {
    const big = this.big!;
    const before = big.read;
    const n = big.take(data);
    // The chunks read so far are garbage, but outside V8's heap: without a collection now and then they all
    // stay until the end of the message.
    const every = (bytes: number) => Math.floor(bytes / YOUNG_GC_BYTES);
    if (every(big.read) > every(before)) collectGarbage(true);
    return n;
  }

  private get bodyLength(): number {
    return this.body?.length ?? -1;
  }

  /** The body read, as text; the buffer is let go here, so that no frame still holds it when it is collected. */
  private decodeBody(): string {
    const body = this.body!;
    this.body = undefined;
    return body.toString('utf8');
  }

  private deliverBig(callback: DataCallback): void {
    const big = this.big!;
    this.big = undefined;
    let message: Message;
    try {
      message = big.message();
    } catch (e) {
      this.fireError(e);
      return;
    }
    // The chunks and the pieces' transient copies go before the message is handled.
    collectGarbage();
    callback(message);
  }

  private deliver(json: string, callback: DataCallback): void {
    let message: Message;
    try {
      message = JSON.parse(json) as Message;
    } catch (e) {
      this.fireError(e);
      return;
    }
    callback(message);
  }
}

/**
 * A long string is decoded in pieces of about this many bytes. A didOpen's text goes to its worker compressed, a
 * piece at a time: the server's process holds a few pieces as they are read and decoded (at its peak on a 23 MB
 * dump, 256 KB pieces 64 MB, 1 MB pieces 70 MB).
 */
export const PIECE_BYTES = 1 << 18;
/** Where a long string has no escape to cut before, it is cut before any ASCII character from this length. */
const PIECE_BYTES_WITHOUT_ESCAPE = 4 * PIECE_BYTES;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** `skip` of the byte right after a backslash (which may be the `u` of four hex digits more). */
const ESCAPE_NEXT = -1;

/**
 * A big message's body, read as its chunks come. The JSON outside long strings (and a string until it is long)
 * is kept as bytes; a long string is decoded piece by piece as it comes (each piece cut before an escape, never
 * inside one nor inside a UTF-8 character) and stands in the JSON as a placeholder until the message is parsed.
 * The didOpen's text stays in its pieces (PiecedText), or goes to a `TextSink` as they come when the JSON before
 * it says it is `params.textDocument.text` of a `textDocument/didOpen`; any other long string is joined.
 */
export class BigBody {
  /** Bytes of the JSON kept, then the current string's bytes not decoded yet. */
  private kept: Buffer = Buffer.allocUnsafe(3 * PIECE_BYTES);
  private keptLength = 0;
  /** Where in `kept` reading goes on. */
  private scan = 0;
  private inString = false;
  /** Bytes of an escape still to pass (ESCAPE_NEXT: the one after the backslash). */
  private skip = 0;
  /** Where the current string's bytes start in `kept` (after its quote). */
  private stringStart = 0;
  /** The current string's pieces once it is long (or `sink` takes them). */
  private pieces: string[] | undefined;
  /** Where the current long string's pieces go, when it is a didOpen's text and a sink was offered. */
  private sink: TextSink | undefined;
  private readonly longStrings: (string[] | PiecedText)[] = [];
  /** The texts given to sinks: released if the message cannot be read. */
  private readonly sunk: PiecedText[] = [];
  read = 0;

  constructor(
    readonly length: number,
    private readonly textSink?: () => TextSink | undefined,
  ) {}

  get complete(): boolean {
    return this.read === this.length;
  }

  /** Reads what `data` has of the body; how many bytes it took. */
  take(data: Buffer): number {
    const n = Math.min(data.length, this.length - this.read);
    this.read += n;
    // The rest of a body that cannot be read is passed over, so that the next message is read from its start.
    if (this.failure !== undefined) return n;
    this.makeRoom(n);
    data.copy(this.kept, this.keptLength, 0, n);
    this.keptLength += n;
    try {
      this.readKept();
    } catch (e) {
      this.failure = e;
      this.kept = Buffer.alloc(0);
      this.keptLength = 0;
      this.pieces = undefined;
      this.longStrings.length = 0;
      if (this.sink) this.sunk.push(this.sink.text());
      this.sink = undefined;
      this.releaseSunk();
    }
    return n;
  }

  /** Why the body cannot be read (a long string JSON does not allow): said once, when the body is complete. */
  private failure: unknown;

  /** The message cannot be read: the texts given to sinks are of no use to their workers. */
  private releaseSunk(): void {
    for (const text of this.sunk.splice(0)) text.forwarded?.release();
  }

  /** Room in `kept` for `n` bytes more. */
  private makeRoom(n: number): void {
    if (this.keptLength + n <= this.kept.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.kept.length, this.keptLength + n));
    this.kept.copy(grown, 0, 0, this.keptLength);
    this.kept = grown;
  }

  /** Bytes to read one by one before a fast cut is tried again (after one failed). */
  private slowFor = 0;

  /**
   * At the start of a string (or of its next piece): while it has bytes enough, a piece is cut before an escape
   * found natively and decoded, without reading its bytes one by one. A piece that is not a string's bytes (the
   * string ended inside it) fails to decode: then the bytes are read one by one. Whether the string goes on past
   * what has come is not known until enough has come (or the body is complete): reading waits for it.
   */
  private cutFast(): boolean {
    const kept = this.kept;
    const start = this.stringStart;
    for (;;) {
      if (this.keptLength - start < 2 * PIECE_BYTES) return !this.complete;
      const view = kept.subarray(0, this.keptLength);
      let cut = start + PIECE_BYTES;
      for (;;) {
        cut = view.indexOf(BACKSLASH, cut);
        if (cut < 0) return false;
        // A backslash after an odd number of them is escaped itself.
        let before = cut;
        while (before > start && kept[before - 1] === BACKSLASH) before--;
        if ((cut - before) % 2 === 0) break;
        cut++;
      }
      const piece = this.tryDecode(start, cut);
      if (piece === undefined) {
        this.slowFor = cut - start;
        return false;
      }
      this.addPiece(piece);
      kept.copy(kept, start, cut, this.keptLength);
      this.keptLength -= cut - start;
    }
  }

  private readKept(): void {
    let kept = this.kept;
    let i = this.scan;
    while (i < this.keptLength) {
      const end = this.keptLength;
      if (this.inString && this.skip === 0 && i === this.stringStart && this.slowFor <= 0 && this.cutFast()) break;
      if (!this.inString) {
        if (kept[i] === QUOTE) {
          this.inString = true;
          this.stringStart = i + 1;
          this.pieces = undefined;
          this.sink = undefined;
        }
        i++;
        continue;
      }
      if (this.skip !== 0) {
        this.skip = this.skip === ESCAPE_NEXT ? (kept[i] === 0x75 ? 4 : 0) : this.skip - 1;
        i++;
        continue;
      }
      // The string's plain bytes, up to an escape or its end: most of a big message.
      const run = i;
      while (i < end && kept[i] !== BACKSLASH && kept[i] !== QUOTE) i++;
      this.slowFor -= i - run + 1;
      if (i === end) {
        // No escape to cut before in a long run: cut before its last ASCII byte (never inside a character).
        if (end - this.stringStart < PIECE_BYTES_WITHOUT_ESCAPE) break;
        let at = end - 1;
        while (at > run && kept[at] >= 0x80) at--;
        // Nothing to cut before the last ASCII byte (the string's first): wait for more.
        if (kept[at] >= 0x80 || at === this.stringStart) break;
        this.cutPiece(at);
        i = this.stringStart;
        continue;
      }
      if (kept[i] === BACKSLASH) {
        if (i - this.stringStart >= PIECE_BYTES) {
          this.cutPiece(i);
          i = this.stringStart;
          continue;
        }
        this.skip = ESCAPE_NEXT;
        i++;
        continue;
      }
      // The closing quote.
      this.inString = false;
      if (this.pieces || this.sink) {
        i = this.endLongString(i);
        kept = this.kept;
      }
      i++;
    }
    this.scan = i;
  }

  /** Decodes the current string's bytes before `at` into a piece; the bytes from `at` move to the string's start. */
  private cutPiece(at: number): void {
    this.addPiece(this.decode(this.stringStart, at));
    this.kept.copy(this.kept, this.stringStart, at, this.keptLength);
    this.keptLength -= at - this.stringStart;
  }

  /**
   * The current string's next piece. Its first decides where they go: to a sink if the JSON before the string
   * says it is a didOpen's text (a client that writes the method after the params keeps its pieces here).
   */
  private addPiece(piece: string | Uint8Array): void {
    if (!this.pieces && !this.sink) {
      const before = this.kept.toString('utf8', 0, Math.max(0, this.stringStart - 1));
      if (this.textSink && isDidOpenText(before)) this.sink = this.textSink();
      if (!this.sink) this.pieces = [];
    }
    if (this.sink) this.sink.add(piece);
    else this.pieces!.push(typeof piece === 'string' ? piece : latin1String(piece));
  }

  /** Where an ASCII piece's bytes are unescaped (reused: a piece's bytes are the sink's only while it is added). */
  private ascii = Buffer.alloc(0);

  /**
   * The string bytes [start, end) of `kept` decoded: the bytes of an ASCII piece with one-character escapes only
   * (a kube-proxy dump's every piece: its lines' \n, its comments' \"), unescaped here, or else the string
   * JSON.parse reads (which throws where JSON does not allow the bytes in a string).
   */
  private decode(start: number, end: number): string | Uint8Array {
    if (this.ascii.length < end - start) this.ascii = Buffer.allocUnsafe(Math.max(end - start, 2 * PIECE_BYTES));
    const n = unescapeAscii(this.kept, start, end, this.ascii);
    return n === undefined ? decodeStringBytes(this.kept, start, end) : this.ascii.subarray(0, n);
  }

  /** `decode`, or undefined where the bytes are not a string's (a quote ends it inside them). */
  private tryDecode(start: number, end: number): string | Uint8Array | undefined {
    try {
      return this.decode(start, end);
    } catch {
      return undefined;
    }
  }

  /** A long string's closing quote at `at`: its last piece, and its placeholder in the JSON; where the quote is now. */
  private endLongString(at: number): number {
    this.addPiece(this.decode(this.stringStart, at));
    let long: string[] | PiecedText;
    if (this.sink) {
      long = this.sink.text();
      this.sunk.push(long);
    } else long = this.pieces!;
    this.pieces = undefined;
    this.sink = undefined;
    const placeholder = Buffer.from(`${PLACEHOLDER_JSON}${this.longStrings.push(long) - 1}`, 'ascii');
    const tail = Buffer.from(this.kept.subarray(at, this.keptLength));
    this.makeRoom(placeholder.length);
    placeholder.copy(this.kept, this.stringStart);
    const quote = this.stringStart + placeholder.length;
    tail.copy(this.kept, quote);
    this.keptLength = quote + tail.length;
    return quote;
  }

  /** The message, its long strings in place (once the body is complete). */
  message(): Message {
    if (this.failure !== undefined) throw this.failure;
    let message: Message;
    try {
      message = JSON.parse(this.kept.toString('utf8', 0, this.keptLength)) as Message;
    } catch (e) {
      this.releaseSunk();
      throw e;
    }
    if (this.longStrings.length === 0) return message;
    const didOpenText = (message as { method?: string }).method === 'textDocument/didOpen';
    return putLongStrings(message, this.longStrings, didOpenText ? ['params', 'textDocument', 'text'] : []) as Message;
  }
}

/**
 * Whether the value a JSON text cut at `before` (an object's member's colon, then blanks) goes on with is
 * `params.textDocument.text` of a message whose `method`, written before it, is textDocument/didOpen.
 */
export function isDidOpenText(before: string): boolean {
  const at = openValue(before);
  return (
    at?.method === 'textDocument/didOpen' &&
    at.path.length === 3 &&
    at.path[0] === 'params' &&
    at.path[1] === 'textDocument' &&
    at.path[2] === 'text'
  );
}

/**
 * The keys to the value a JSON text cut at its start goes on with, and the top object's `method` if it came
 * before; undefined where `before` is not the start of a JSON value's text.
 */
function openValue(before: string): { path: string[]; method?: string } | undefined {
  const frames: { object: boolean; key?: string; index: number; expectKey: boolean }[] = [];
  let method: string | undefined;
  for (let i = 0; i < before.length; i++) {
    const c = before[i];
    const top = frames[frames.length - 1];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    if (c === '{' || c === '[') frames.push({ object: c === '{', index: 0, expectKey: c === '{' });
    else if (c === '}' || c === ']') frames.pop();
    else if (c === ',' && top) {
      if (top.object) top.expectKey = true;
      else top.index++;
    } else if (c === ':' && top?.object) top.expectKey = false;
    else if (c === '"') {
      let end = i + 1;
      while (end < before.length && before[end] !== '"') end += before[end] === '\\' ? 2 : 1;
      if (end >= before.length) return undefined;
      const value = JSON.parse(before.slice(i, end + 1)) as string;
      if (top?.object && top.expectKey) top.key = value;
      else if (frames.length === 1 && top?.key === 'method') method = value;
      i = end;
    }
  }
  if (frames.length === 0 || frames[frames.length - 1].expectKey) return undefined;
  return { path: frames.map((f) => (f.object ? (f.key ?? '') : String(f.index))), method };
}

/** A long string's stand-in in the JSON: a NUL and a marker, then its index (escaped as JSON writes a NUL). */
const PLACEHOLDER_JSON = '\\u0000kpp-long-string:';
const PLACEHOLDER = '\u0000kpp-long-string:';

/** The JSON string bytes [start, end) of `bytes` (between quotes, escapes and all), decoded. */
function decodeStringBytes(bytes: Buffer, start: number, end: number): string {
  return JSON.parse(`"${bytes.toString('utf8', start, end)}"`) as string;
}

/** The string whose characters are `bytes` (Latin-1: one character per byte), read in place. */
export function latin1String(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** The byte each of JSON's one-character escapes stands for, by the byte after its backslash (0: not one). */
const ONE_CHARACTER_ESCAPES = new Uint8Array(256);
for (const [c, byte] of [
  ['"', 0x22],
  ['\\', 0x5c],
  ['/', 0x2f],
  ['b', 8],
  ['f', 12],
  ['n', 10],
  ['r', 13],
  ['t', 9],
] as const)
  ONE_CHARACTER_ESCAPES[c.charCodeAt(0)] = byte;

/**
 * The JSON string bytes [start, end) of `bytes` unescaped into `into`, when they are printable ASCII and
 * one-character escapes (what JSON.parse reads them as, byte for byte); how many bytes that made. Undefined for
 * anything else (a \u escape, a byte from 0x80, one JSON does not allow in a string, a backslash at the end):
 * those bytes are JSON.parse's to read. The 10k-Service dump's 23 MB: about 100 ms where JSON.parse took 500
 * (a loaded 2-CPU machine), and no string is made.
 */
export function unescapeAscii(bytes: Uint8Array, start: number, end: number, into: Uint8Array): number | undefined {
  let n = 0;
  for (let i = start; i < end; i++) {
    let c = bytes[i];
    if (c === BACKSLASH) {
      if (++i === end) return undefined;
      c = ONE_CHARACTER_ESCAPES[bytes[i]];
      if (c === 0) return undefined;
    } else if (c < 0x20 || c === QUOTE || c >= 0x80) return undefined;
    into[n++] = c;
  }
  return n;
}

/**
 * `value` with each placeholder replaced by its string: at `piecedAt` (a path of keys) as a PiecedText. A text
 * given to a sink that the message does not have there after all is joined, and its worker's copy released.
 */
function putLongStrings(
  value: unknown,
  longStrings: (string[] | PiecedText)[],
  piecedAt: string[],
  path: string[] = [],
): unknown {
  if (typeof value === 'string') {
    if (!value.startsWith(PLACEHOLDER)) return value;
    const long = longStrings[Number(value.slice(PLACEHOLDER.length))];
    if (!long) return value;
    const pieced = path.length === piecedAt.length && path.every((k, i) => k === piecedAt[i]);
    if (long instanceof PiecedText) {
      if (pieced) return long;
      long.forwarded?.release();
      return long.toString();
    }
    return pieced ? new PiecedText(long) : long.join('');
  }
  if (Array.isArray(value)) return value.map((v, i) => putLongStrings(v, longStrings, piecedAt, [...path, String(i)]));
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    for (const k of Object.keys(o)) o[k] = putLongStrings(o[k], longStrings, piecedAt, [...path, k]);
  }
  return value;
}

/** The Content-Length of a message's header lines (`Name: value`, case-insensitive names). */
function contentLength(header: string): number {
  for (const line of header.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) throw new Error(`Message header must separate key and value using ':'\n${line}`);
    if (line.slice(0, colon).trim().toLowerCase() !== 'content-length') continue;
    const value = line.slice(colon + 1).trim();
    const length = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(length))
      throw new Error(`Content-Length value must be a number. Got ${value}`);
    return length;
  }
  throw new Error(`Header must provide a Content-Length property.\n${header}`);
}
