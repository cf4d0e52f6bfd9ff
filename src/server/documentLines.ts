/**
 * The lines of an open document, read from the document as fitting an answer needs them. A LineIndex of the text
 * (`LineIndex.of(doc.getText())`) joined an edited document's chunks into one string and scanned all of it, once
 * per version: typing in a 15 MB dump cost ~80 ms of the thread that answers every request, per keystroke.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { EditedDocument } from './editedText';
import { LineShape } from './lineIndex';

export class DocumentLines extends LineShape {
  constructor(private readonly doc: TextDocument) {
    super();
  }

  get lineCount(): number {
    return this.doc.lineCount;
  }

  lineLength(line: number): number {
    if (line < 0 || line >= this.doc.lineCount) return 0;
    return this.doc.getLineRange(line).end.character;
  }

  protected codeUnit(line: number, character: number): number {
    if (this.doc instanceof EditedDocument) return this.doc.codeUnitAt(line, character);
    const at = { line, character };
    return this.doc.getText({ start: at, end: { line, character: character + 1 } }).charCodeAt(0);
  }
}
