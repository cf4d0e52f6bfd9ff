/**
 * Where the lines an engine read are in the text the person has, when the two differ in their line breaks: a
 * kube-proxy log line carries a whole iptables-restore input with its line breaks written as `\n` (and quotes as
 * `\"`), and the engine reads it unescaped, one line per line of the input. Each engine line starts at an offset of
 * the original text and its characters follow it one for one, except where an escape (two or more characters of
 * the original, such as a page's `&quot;`) stood for one, or a character was added (a word processor's en dash read as
 * `--`). Positions cross between the two at the faces: the engine's line and column become an offset, and the offset
 * the original's line and column, and back. Readers applied one after another chain their maps (`chainPositions`).
 */
import { grownColumn } from './columns';

export interface TextPosition {
  line: number;
  column: number;
}

/** The crossing between the engines' lines and columns and the text's. */
export interface PastePositions {
  /** The text the engines read (the same string they hold: kept here for the faces that measure its lines). */
  readonly engineText: string;
  /** The original text's position of an engine position (a column past an escape counts its whole width). */
  toOriginal(line: number, column: number): TextPosition;
  toEngine(line: number, column: number): TextPosition;
  /** The original line an engine line starts on. */
  lineToOriginal(line: number): number;
}

/**
 * The maps of readers applied one after another (each read the text the one before it made), as one: undefined
 * when none applied.
 */
export function chainPositions(maps: readonly (PastePositions | undefined)[]): PastePositions | undefined {
  const applied = maps.filter((map): map is PastePositions => map !== undefined);
  return applied.length < 2 ? applied[0] : new ChainedPositions(applied);
}

class ChainedPositions implements PastePositions {
  constructor(private readonly maps: readonly PastePositions[]) {}

  get engineText(): string {
    return this.maps[this.maps.length - 1].engineText;
  }

  toOriginal(line: number, column: number): TextPosition {
    let at = { line, column };
    for (let i = this.maps.length - 1; i >= 0; i--) at = this.maps[i].toOriginal(at.line, at.column);
    return at;
  }

  toEngine(line: number, column: number): TextPosition {
    let at = { line, column };
    for (const map of this.maps) at = map.toEngine(at.line, at.column);
    return at;
  }

  lineToOriginal(line: number): number {
    return this.toOriginal(line, 0).line;
  }
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

  /**
   * On the current line, the character at `column` stood for `1 + extra` characters of the original; an `extra` of
   * -1: it stands for none, added before the next one (the two characters of `--` read from one en dash).
   */
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
    return new EscapeMap(
      engineText,
      lineStarts(original),
      this.starts.slice(0, this.lines),
      this.escapeFirst.slice(0, this.lines + 1),
      this.escapeColumns.slice(0, this.escapes),
      this.escapeExtras.slice(0, this.escapes),
    );
  }
}

class EscapeMap implements PastePositions {
  constructor(
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

  toOriginal(line: number, column: number): TextPosition {
    if (line < 0 || line >= this.engineStarts.length) return { line, column };
    let offset = this.engineStarts[line] + column;
    for (let e = this.escapeFirst[line]; e < this.escapeFirst[line + 1] && this.escapeColumns[e] < column; e++)
      offset += this.escapeExtras[e];
    const original = lastAtOrBefore(this.originalStarts, offset);
    return { line: original, column: offset - this.originalStarts[original] };
  }

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
      // An added character (extra -1) is where the original's next character is.
      if (rest <= at + Math.max(0, this.escapeExtras[e])) {
        rest = at;
        break;
      }
      wider += this.escapeExtras[e];
    }
    return { line: engine, column: rest - wider };
  }

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
