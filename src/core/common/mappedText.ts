/**
 * How a paste reader writes the text the engines read from the text the person has while recording where each of
 * its characters came from (a `PastePositions`): lines copied, dropped, or with parts replaced by something shorter
 * (a colour sequence by nothing, `&quot;` by `"`) or longer (an en dash by `--`). Every reader that changes columns
 * or lines writes through here, so the map's rules live in one place.
 */
import { PastePositionsBuilder, type PastePositions } from './pastePositions';

export class MappedTextWriter {
  private readonly map = new PastePositionsBuilder();
  private readonly out: string[] = [];
  private lines = 0;
  private column = 0;
  /** Characters of the original replaced by nothing, not yet given to an engine character. */
  private pending = 0;

  constructor(private readonly original: string) {}

  /** The next line of the engine text begins at `offset` of the original. */
  line(offset: number): void {
    this.endLine();
    if (this.lines++ > 0) this.out.push('\n');
    this.map.line(offset);
    this.column = 0;
  }

  /** The original's characters [from, to) as they are. */
  copy(from: number, to: number): void {
    if (to <= from) return;
    this.givePending(0);
    this.out.push(this.original.slice(from, to));
    this.column += to - from;
  }

  /** `width` characters of the original read as `by` (empty: as nothing; longer: characters added before them). */
  replace(width: number, by: string): void {
    if (by.length === 0) {
      this.pending += width;
      return;
    }
    if (by.length > width) {
      // The added characters first, each standing for nothing; the last `width` follow the original one for one.
      // The first also stands for the pending characters, if any.
      for (let k = 0; k < by.length - width; k++) {
        const extra = k === 0 ? this.pending - 1 : -1;
        if (extra !== 0) this.map.escape(this.column + k, extra);
      }
      this.pending = 0;
    } else this.givePending(width - by.length);
    this.out.push(by);
    this.column += by.length;
  }

  /** The line and column of the engine text being written (0-based). */
  get position(): { line: number; column: number } {
    return { line: this.lines - 1, column: this.column };
  }

  build(): { text: string; positions: PastePositions } {
    this.endLine();
    const text = this.out.join('');
    return { text, positions: this.map.build(this.original, text) };
  }

  /** The next engine character stands for the pending characters too, and for `extra` more of its own. */
  private givePending(extra: number): void {
    const stands = this.pending + extra;
    if (stands !== 0) this.map.escape(this.column, stands);
    this.pending = 0;
  }

  /** Characters replaced by nothing at a line's end belong to its last character. */
  private endLine(): void {
    if (this.pending && this.column > 0) this.map.escape(this.column - 1, this.pending);
    this.pending = 0;
  }
}

export interface MappedReplacement {
  text: string;
  positions: PastePositions;
  /** The first replacement (0-based line and column of the engine text). */
  line: number;
  column: number;
}

/**
 * The text with each match of `pattern` (global, never across a line break) replaced by what `replace` says, told
 * where the match's line starts and ends (undefined: left as it is), or undefined when nothing was replaced.
 */
export function replaceMapped(
  text: string,
  pattern: RegExp,
  replace: (match: RegExpExecArray, lineStart: number, lineEnd: number) => string | undefined,
): MappedReplacement | undefined {
  // Nothing is written before a match is replaced: most texts a reader looks into keep theirs (a dash in prose).
  pattern.lastIndex = 0;
  let next = pattern.exec(text);
  for (; next; next = pattern.exec(text)) {
    const nl = text.indexOf('\n', next.index);
    if (replace(next, text.lastIndexOf('\n', next.index - 1) + 1, nl < 0 ? text.length : nl) !== undefined) break;
  }
  if (!next) return undefined;
  const writer = new MappedTextWriter(text);
  let first: { line: number; column: number } | undefined;
  pattern.lastIndex = 0;
  next = pattern.exec(text);
  for (let at = 0; at <= text.length;) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    writer.line(at);
    let copied = at;
    for (; next && next.index < end; next = pattern.exec(text)) {
      const by = replace(next, at, end);
      if (by === undefined) continue;
      writer.copy(copied, next.index);
      first ??= writer.position;
      writer.replace(next[0].length, by);
      copied = next.index + next[0].length;
    }
    writer.copy(copied, end);
    if (nl < 0) break;
    at = nl + 1;
  }
  return first && { ...writer.build(), ...first };
}
