/**
 * The server's side of answers a worker wrote as JSON text (jsonAnswer.ts): a `RawResult` is handed to the
 * protocol's connection as the request's result, and the message writer on stdout splices its bytes into the
 * response. Every other message is written as vscode-jsonrpc's StreamMessageWriter writes it (the same header and
 * JSON), and all of them by one synchronous call each, so a raw answer never interleaves with another message.
 */
import type { Writable } from 'node:stream';
import { AbstractMessageWriter, type Message, type MessageWriter } from 'vscode-languageserver/node';
import { collectGarbage } from './gc';
import type { JsonText } from './jsonAnswer';

export class RawResult {
  constructor(readonly text: JsonText) {}

  /** The answer as a value (to fit it into a newer text), parsed from its text. */
  value(): unknown {
    return JSON.parse(Buffer.concat(this.text.blocks, this.text.length).toString('utf8'));
  }

  /** What any other writer of the message (and the connection's trace) serialises. */
  toJSON(): unknown {
    return this.value();
  }
}

/** Stands for a raw result in the response's envelope; a string no JSON text of ours holds. */
const PLACEHOLDER = '\u0000raw result\u0000';
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER);

/** A message's JSON text as UTF-8 in pieces: a raw result's blocks between its envelope's head and tail. */
export function messageBytes(message: Message): Uint8Array[] {
  const result = (message as { result?: unknown }).result;
  if (!(result instanceof RawResult)) return [Buffer.from(JSON.stringify(message), 'utf8')];
  const envelope = JSON.stringify({ ...message, result: PLACEHOLDER });
  const at = envelope.indexOf(PLACEHOLDER_JSON);
  return [
    Buffer.from(envelope.slice(0, at), 'utf8'),
    ...result.text.blocks,
    Buffer.from(envelope.slice(at + PLACEHOLDER_JSON.length), 'utf8'),
  ];
}

const BIG_MESSAGE_BYTES = 1 << 20;

export class StdoutMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private errors = 0;

  constructor(private readonly out: Writable) {
    super();
    out.on('error', (e: Error) => this.fireError(e));
    out.on('close', () => this.fireClose());
  }

  write(message: Message): Promise<void> {
    let pieces: Uint8Array[];
    try {
      pieces = messageBytes(message);
    } catch (e) {
      this.fireError(e, message, ++this.errors);
      return Promise.reject(e);
    }
    const length = pieces.reduce((n, p) => n + p.byteLength, 0);
    // A raw result's blocks are garbage once written: their memory goes back now, not when the server's small heap
    // next fills (a collection of the young generation, where the blocks' views are, takes a millisecond).
    if (length >= BIG_MESSAGE_BYTES) setImmediate(() => collectGarbage(true));
    return new Promise((resolve, reject) => {
      this.out.write(`Content-Length: ${length}\r\n\r\n`, 'ascii');
      pieces.forEach((piece, i) =>
        this.out.write(
          piece,
          i < pieces.length - 1
            ? undefined
            : (e) => {
                if (!e) return resolve();
                this.fireError(e, message, ++this.errors);
                reject(e);
              },
        ),
      );
    });
  }

  end(): void {
    this.out.end();
  }
}
