/**
 * Where the lines an engine read are in the text the person has, when the two differ in their line breaks: a
 * kube-proxy log line carries a whole iptables-restore input with its line breaks written as `\n` (and quotes as
 * `\"`), and the engine reads it unescaped, one line per line of the input. Each engine line starts at an offset of
 * the original text and its characters follow it one for one, except where an escape (two or more characters of
 * the original, such as a page's `&quot;`) stood for one. Positions cross between the two at the faces: the engine's line and column become
 * an offset, and the offset the original's line and column, and back.
 */
import { grownColumn } from './columns';

export interface TextPosition {
  line: number;
  column: number;
}

/** Builds the map line by line, in order. */
export class PastePositionsBuilder {
  // Typed and grown by doubling: a base64 input has an escape every third character (millions on a big dump).
  private starts = new Int32Array(64);
  private escapeFirst = new Int32Array(64);
  private escapeColumns = new Int32Array(64);
  private escapeExtras = new Int32Array(64);
  private lines = 0;
  private escapes = 0;

  /** The next engine line starts at `offset` of the original text. */
  line(offset: number): void {
    if (this.lines + 1 >= this.starts.length) {
      this.starts = grownColumn(this.starts, this.starts.length * 2);
      this.escapeFirst = grownColumn(this.escapeFirst, this.escapeFirst.length * 2);
    }
    this.starts[this.lines] = offset;
    this.escapeFirst[this.lines++] = this.escapes;
  }

  /** On the current line, the character at `column` stood for `1 + extra` characters of the original. */
  escape(column: number, extra: number): void {
    if (this.escapes === this.escapeColumns.length) {
      this.escapeColumns = grownColumn(this.escapeColumns, this.escapes * 2);
      this.escapeExtras = grownColumn(this.escapeExtras, this.escapes * 2);
    }
    this.escapeColumns[this.escapes] = column;
    this.escapeExtras[this.escapes++] = extra;
  }

  build(original: string, engineText: string): PastePositions {
    this.escapeFirst[this.lines] = this.escapes;
    return new PastePositions(
      engineText,
      lineStarts(original),
      this.starts.slice(0, this.lines),
      this.escapeFirst.slice(0, this.lines + 1),
      this.escapeColumns.slice(0, this.escapes),
      this.escapeExtras.slice(0, this.escapes),
    );
  }
}

export class PastePositions {
  constructor(
    /** The text the engines read (the same string they hold: kept here for the faces that measure its lines). */
    readonly engineText: string,
    /** Offset of each line of the original text. */
    private readonly originalStarts: Int32Array,
    /** Offset in the original text where each engine line starts. */
    private readonly engineStarts: Int32Array,
    /** Escapes of engine line i: [escapeFirst[i], escapeFirst[i + 1]) in the two arrays below. */
    private readonly escapeFirst: Int32Array,
    private readonly escapeColumns: Int32Array,
    private readonly escapeExtras: Int32Array,
  ) {}

  get engineLineCount(): number {
    return this.engineStarts.length;
  }

  /** The original text's position of an engine position (a column past an escape counts its whole width). */
  toOriginal(line: number, column: number): TextPosition {
    if (line < 0 || line >= this.engineStarts.length) return { line, column };
    let offset = this.engineStarts[line] + column;
    for (let e = this.escapeFirst[line]; e < this.escapeFirst[line + 1] && this.escapeColumns[e] < column; e++)
      offset += this.escapeExtras[e];
    const original = lastAtOrBefore(this.originalStarts, offset);
    return { line: original, column: offset - this.originalStarts[original] };
  }

  /** The engine's position of a position in the original text (inside an escape: the character it stands for). */
  toEngine(line: number, column: number): TextPosition {
    if (line < 0 || line >= this.originalStarts.length) return { line, column };
    const offset = this.originalStarts[line] + column;
    const engine = lastAtOrBefore(this.engineStarts, offset);
    if (engine < 0) return { line, column };
    let rest = offset - this.engineStarts[engine];
    let wider = 0;
    for (let e = this.escapeFirst[engine]; e < this.escapeFirst[engine + 1]; e++) {
      const at = this.escapeColumns[e] + wider;
      if (rest < at) break;
      if (rest <= at + this.escapeExtras[e]) {
        rest = at;
        break;
      }
      wider += this.escapeExtras[e];
    }
    return { line: engine, column: rest - wider };
  }

  /** The original line an engine line starts on. */
  lineToOriginal(line: number): number {
    return this.toOriginal(line, 0).line;
  }
}

function lineStarts(text: string): Int32Array {
  const starts = [0];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return Int32Array.from(starts);
}

/** Index of the last element <= x in an ascending array (-1 when none). */
function lastAtOrBefore(a: Int32Array, x: number): number {
  let lo = 0;
  let hi = a.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] <= x) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
