/**
 * The document's lines as the editor counts them (`\r\n`, `\n` and a lone `\r` end a line; characters are UTF-16
 * code units): how long each line is and where a surrogate pair sits. Ranges that cover whole lines end at the
 * line's real end, and an answer computed on an older version of the text is fitted into the current one.
 */
import type { Position, Range } from 'vscode-languageserver';

/**
 * What fitting an answer into a text reads of its lines: their count and lengths, and the code unit before a place
 * (a surrogate pair is never split). Clamping is written once here, for a text (LineIndex) and an open document.
 */
export abstract class LineShape {
  abstract get lineCount(): number;
  /** Length of `line` without its terminator (0 for a line outside the document). */
  abstract lineLength(line: number): number;
  /** The UTF-16 code unit at `character` of `line`, which is inside the line. */
  protected abstract codeUnit(line: number, character: number): number;

  /** The end of `line`: where a range covering the whole line stops. */
  endOf(line: number): Position {
    return { line, character: this.lineLength(line) };
  }

  /** True when `character` of `line` falls between the two halves of a surrogate pair. */
  splitsSurrogate(line: number, character: number): boolean {
    if (character <= 0 || character >= this.lineLength(line)) return false;
    const c = this.codeUnit(line, character - 1);
    return c >= 0xd800 && c <= 0xdbff;
  }

  /** The nearest position inside the document on a character boundary (a pair is never split: moved before it). */
  clamp(p: Position): Position {
    if (p.line < 0) return { line: 0, character: 0 };
    if (p.line >= this.lineCount) return this.endOf(this.lineCount - 1);
    let character = Math.max(0, Math.min(p.character, this.lineLength(p.line)));
    if (this.splitsSurrogate(p.line, character)) character--;
    return character === p.character ? p : { line: p.line, character };
  }

  /** `r` moved inside the document; both ends move the same way, so a range inside another stays inside it. */
  clampRange(r: Range): Range {
    const start = this.clamp(r.start);
    const end = this.clamp(r.end);
    if (start === r.start && end === r.end) return r;
    return { start, end };
  }

  /** True when `r` is inside the document, on character boundaries, and not inverted. */
  isValid(r: Range): boolean {
    const ok = (p: Position) =>
      p.line >= 0 &&
      p.line < this.lineCount &&
      p.character >= 0 &&
      p.character <= this.lineLength(p.line) &&
      !this.splitsSurrogate(p.line, p.character);
    return (
      ok(r.start) &&
      ok(r.end) &&
      (r.start.line < r.end.line || (r.start.line === r.end.line && r.start.character <= r.end.character))
    );
  }
}

export class LineIndex extends LineShape {
  private constructor(
    private readonly text: string,
    /** Offset of each line's first character. */
    private readonly starts: Int32Array,
  ) {
    super();
  }

  static of(text: string): LineIndex {
    // Counted, then written into a column of that size: an array grown line by line cost a big dump's worker
    // 13 MB more memory for a 1 MB result. Lengths are read from the starts and the text when asked for.
    const starts = new Int32Array(LineIndex.forEachLineStart(text, () => undefined) + 1);
    let next = 1;
    LineIndex.forEachLineStart(text, (start) => (starts[next++] = start));
    return new LineIndex(text, starts);
  }

  /**
   * The lines of `text` from the starts of a line index made already of this very text (the engine's, whose lines
   * end where the editor's do once a lone CR is read as a line break: a text that had one is not this text).
   */
  static ofStarts(text: string, starts: Int32Array): LineIndex {
    return new LineIndex(text, starts);
  }

  /** Calls `found` with the start of each line after the first; how many it found. */
  private static forEachLineStart(text: string, found: (start: number) => void): number {
    let n = 0;
    if (text.indexOf('\r') < 0) {
      // The usual text: indexOf is many times faster than a loop over 40 MB of characters.
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1), n++) found(i + 1);
      return n;
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
      if (c === 10 || c === 13) {
        found(i + 1);
        n++;
      }
    }
    return n;
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** Length of `line` without its terminator (0 for a line outside the document). */
  lineLength(line: number): number {
    const count = this.starts.length;
    if (line < 0 || line >= count) return 0;
    if (line + 1 === count) return this.text.length - this.starts[line];
    // The terminator: \n, \r, or \r\n (two characters).
    let end = this.starts[line + 1] - 1;
    if (this.text.charCodeAt(end) === 10 && end > this.starts[line] && this.text.charCodeAt(end - 1) === 13) end--;
    return end - this.starts[line];
  }

  protected codeUnit(line: number, character: number): number {
    return this.text.charCodeAt(this.starts[line] + character);
  }
}
