/**
 * A big document's text held in the pieces it was read in (stdioReader.ts decodes a long JSON string piece by
 * piece), not as one flat string: making one flat string of 23 MB out of anything costs a second 23 MB at that
 * moment, and the server's process only forwards a freshly opened text to its worker, part by part. The first
 * time anything needs the text as one string (an edit, a line count), it is joined once and the pieces let go.
 *
 * A didOpen's text read over stdio is compressed piece by piece as it is decoded (packedText.ts: to about a seventh) and
 * goes so to the worker that will analyse it, which reads it while the rest comes (see `TextSink`): the worker
 * holds the only copy of the text as characters, and the server has it back, piece by piece, for what the worker
 * cannot do (an edit, another analysis after a worker stopped).
 */
import { EditedDocument } from './editedText';
import { pack, packLatin1, unpack, type Packed } from './packedText';
import { TextDocument, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import type { Position, Range } from 'vscode-languageserver';

/** The worker holding a text's pieces as they were forwarded, until its first analysis takes them. */
export interface ForwardedText {
  /** The pieces are of no use to the worker any more (the text changed, the document closed, not analysed). */
  release(): void;
}

/** A long string of a message, as the pieces it was decoded in. */
export class PiecedText {
  private readonly slots: (string | Packed)[];
  length: number;
  /** The worker given the pieces as they came, until its analysis takes them or they are released. */
  forwarded?: ForwardedText;

  constructor(pieces: readonly string[] = []) {
    this.slots = [...pieces];
    this.length = pieces.reduce((n, p) => n + p.length, 0);
  }

  /** Adds the next piece; its index. */
  push(piece: string): number {
    this.length += piece.length;
    return this.slots.push(piece) - 1;
  }

  /** Adds the next piece given as its Latin-1 bytes, compressed at once (no string is made of them); its index. */
  pushLatin1(bytes: Uint8Array): number {
    this.length += bytes.length;
    return this.slots.push(packLatin1(bytes)) - 1;
  }

  /** Piece `i` compressed from now on (its string is garbage before the next young collection); its bytes. */
  pack(i: number): Packed {
    const piece = this.slots[i];
    if (typeof piece !== 'string') return piece;
    return (this.slots[i] = pack(piece));
  }

  /** Each piece as a string (compressed ones decompressed). */
  get pieces(): string[] {
    return this.slots.map((p) => (typeof p === 'string' ? p : unpack(p)));
  }

  toString(): string {
    return this.pieces.join('');
  }
}

/** A document opened with a pieced text: a TextDocument whose flat text is made when first needed. */
class PiecedDocument implements TextDocument {
  private text: PiecedText | undefined;
  private flat: TextDocument | undefined;

  constructor(
    readonly uri: string,
    readonly languageId: string,
    readonly version: number,
    text: PiecedText,
  ) {
    this.text = text;
  }

  /** The text in parts, without joining them (the flat text once it was made). */
  parts(): readonly string[] {
    return this.text?.pieces ?? [this.flatDocument().getText()];
  }

  get length(): number {
    return this.text?.length ?? this.flatDocument().getText().length;
  }

  /** The worker holding this text's pieces, while its analysis has not taken them. */
  get forwarded(): ForwardedText | undefined {
    return this.text?.forwarded;
  }

  get lineCount(): number {
    return this.flatDocument().lineCount;
  }

  getText(range?: Range): string {
    return this.flatDocument().getText(range);
  }

  positionAt(offset: number): Position {
    return this.flatDocument().positionAt(offset);
  }

  offsetAt(position: Position): number {
    return this.flatDocument().offsetAt(position);
  }

  getLineRange(line: number): Range {
    return this.flatDocument().getLineRange(line);
  }

  getEOLCharacters(line: number): string {
    return this.flatDocument().getEOLCharacters(line);
  }

  /** The document as an ordinary TextDocument, made once. */
  flatDocument(): TextDocument {
    if (!this.flat) {
      const text = this.text!;
      this.flat = TextDocument.create(this.uri, this.languageId, this.version, text.toString());
      this.text = undefined;
      // The text a worker was given is not the one any analysis reads now.
      text.forwarded?.release();
    }
    return this.flat;
  }
}

/** The text of `doc` in parts (one unless it was opened pieced and not joined since), and its length. */
export function textParts(doc: TextDocument): readonly string[] {
  return doc instanceof PiecedDocument ? doc.parts() : [doc.getText()];
}

export function textLength(doc: TextDocument): number {
  // An edited document's text is joined only when read: its length is known without it.
  return doc instanceof PiecedDocument || doc instanceof EditedDocument ? doc.length : doc.getText().length;
}

/** The worker holding `doc`'s text as it was forwarded (stdioReader.ts), while no analysis took it. */
export function forwardedText(doc: TextDocument): ForwardedText | undefined {
  return doc instanceof PiecedDocument ? doc.forwarded : undefined;
}

/**
 * TextDocuments' configuration: TextDocument's own, except that a pieced text opens a PiecedDocument and a
 * document edited becomes an EditedDocument (a change costs the lines it touches, not a copy of the text).
 */
export const PIECED_DOCUMENTS = {
  create(uri: string, languageId: string, version: number, content: string | PiecedText): TextDocument {
    return content instanceof PiecedText
      ? new PiecedDocument(uri, languageId, version, content)
      : TextDocument.create(uri, languageId, version, content);
  },
  update(document: TextDocument, changes: TextDocumentContentChangeEvent[], version: number): TextDocument {
    const edited = document instanceof EditedDocument ? document : EditedDocument.of(document);
    edited.update(changes, version);
    return edited;
  },
};
