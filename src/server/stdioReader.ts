/**
 * The LSP base protocol (`Content-Length: N`, a blank line, N bytes of JSON) read from the server's stdin, with
 * as few copies of a big message as JSON allows. vscode-jsonrpc's reader keeps a message's chunks until the last
 * one comes, joins them into one buffer, decodes that to a string and parses it: on a 23 MB didOpen, four copies
 * of the text were alive at once (chunks, body, JSON, the parsed text), 95 MB at the server's peak. Here each
 * chunk is copied into a buffer of the announced length as it comes, and that buffer is let go (and collected)
 * once decoded, before the JSON is parsed: two copies at most (the body as text and the parsed text).
 */
import { AbstractMessageReader, Disposable, type DataCallback, type Message } from 'vscode-languageserver/node';
import { collectGarbage } from './gc';

/** From this size a message's body is collected as soon as it is decoded (a full collection costs milliseconds). */
const BIG_MESSAGE_BYTES = 8 << 20;
/** While a big body comes, the chunks already copied are collected every this many bytes. */
const YOUNG_GC_BYTES = 4 << 20;
const HEADER_END = Buffer.from('\r\n\r\n', 'ascii');

export class StdioMessageReader extends AbstractMessageReader {
  /** What has come of the header being read (before its blank line). */
  private header = Buffer.alloc(0);
  /** The body being read, as long as its Content-Length says, and how much of it has come. */
  private body?: Buffer;
  private filled = 0;

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

  private read(chunk: Buffer, callback: DataCallback): void {
    let data = chunk;
    while (data.length > 0) {
      if (!this.body) {
        const header = this.header.length ? Buffer.concat([this.header, data]) : data;
        const end = header.indexOf(HEADER_END);
        if (end < 0) {
          this.header = Buffer.from(header);
          return;
        }
        this.header = Buffer.alloc(0);
        const length = contentLength(header.toString('ascii', 0, end));
        data = header.subarray(end + HEADER_END.length);
        if (data.length >= length) {
          // The whole body is in this chunk: read from it, not copied.
          const body = data.subarray(0, length);
          data = data.subarray(length);
          this.deliver(body.toString('utf8'), callback);
          continue;
        }
        this.startBody(length);
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
    this.body = length >= BIG_MESSAGE_BYTES ? Buffer.allocUnsafeSlow(length) : Buffer.allocUnsafe(length);
    this.filled = 0;
  }

  /** Copies what `data` has of the body; how many bytes it took. */
  private fill(data: Buffer): number {
    const body = this.body!;
    const n = data.copy(body, this.filled, 0, Math.min(data.length, body.length - this.filled));
    // The chunks copied so far are garbage, but outside V8's heap: without a collection now and then they all
    // stay until the end of the message.
    const every = (bytes: number) => Math.floor(bytes / YOUNG_GC_BYTES);
    if (body.length >= BIG_MESSAGE_BYTES && every(this.filled + n) > every(this.filled)) collectGarbage(true);
    this.filled += n;
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

  private deliver(json: string, callback: DataCallback): void {
    // The body's buffer (and the chunks it was copied from) go before the JSON is parsed into one more copy.
    if (json.length >= BIG_MESSAGE_BYTES) collectGarbage();
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
