/**
 * A big document's text held in the pieces it was read in (stdioReader.ts decodes a long JSON string piece by
 * piece), not as one flat string: making one flat string of 23 MB out of anything costs a second 23 MB at that
 * moment, and the server's process only forwards a freshly opened text to its worker, part by part. The first
 * time anything needs the text as one string (an edit, a line count), it is joined once and the pieces let go.
 */
import { TextDocument, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import type { Position, Range } from 'vscode-languageserver';

/** A long string of a message, as the pieces it was decoded in. */
export class PiecedText {
  readonly length: number;

  constructor(readonly pieces: readonly string[]) {
    this.length = pieces.reduce((n, p) => n + p.length, 0);
  }

  toString(): string {
    return this.pieces.join('');
  }
}

/** A document opened with a pieced text: a TextDocument whose flat text is made when first needed. */
class PiecedDocument implements TextDocument {
  private pieces: readonly string[] | undefined;
  private flat: TextDocument | undefined;

  constructor(
    readonly uri: string,
    readonly languageId: string,
    readonly version: number,
    text: PiecedText,
  ) {
    this.pieces = text.pieces;
  }

  /** The text in parts, without joining them (the flat text once it was made). */
  parts(): readonly string[] {
    return this.pieces ?? [this.flatDocument().getText()];
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
      this.flat = TextDocument.create(this.uri, this.languageId, this.version, this.pieces!.join(''));
      this.pieces = undefined;
    }
    return this.flat;
  }
}

/** The text of `doc` in parts (one unless it was opened pieced and not joined since), and its length. */
export function textParts(doc: TextDocument): readonly string[] {
  return doc instanceof PiecedDocument ? doc.parts() : [doc.getText()];
}

export function textLength(doc: TextDocument): number {
  return textParts(doc).reduce((n, p) => n + p.length, 0);
}

/** TextDocuments' configuration: TextDocument's own, except that a pieced text opens a PiecedDocument. */
export const PIECED_DOCUMENTS = {
  create(uri: string, languageId: string, version: number, content: string | PiecedText): TextDocument {
    return content instanceof PiecedText
      ? new PiecedDocument(uri, languageId, version, content)
      : TextDocument.create(uri, languageId, version, content);
  },
  update(document: TextDocument, changes: TextDocumentContentChangeEvent[], version: number): TextDocument {
    const flat = document instanceof PiecedDocument ? document.flatDocument() : document;
    return TextDocument.update(flat, changes, version);
  },
};
