/**
 * Splits pasted text into lines, keeping original offsets, and strips what people paste around a dump:
 * CR, leading indentation, log-style prefixes (shell prompts are read in commandLines.ts). Parsers work on `content` and add `offset`
 * to every column so positions still point into the original line.
 */
import { grownColumn } from './columns';

export interface SourceLine {
  /** 0-based line number in the original text. */
  line: number;
  /** The original line without its line terminator. */
  raw: string;
  /** Column in `raw` where `content` starts. */
  offset: number;
  /** The meaningful part of the line (prefixes and trailing whitespace removed). */
  content: string;
}

/**
 * The line model of LSP and VS Code: `\n`, `\r\n` and a lone `\r` each end a line. A lone CR (terminals that
 * redraw a line, old Mac files) becomes `\n`: one character for one, so every offset into the text stays valid
 * and the engine's line numbers match the editor's. Text without a CR comes back as it is, at the cost of one scan.
 */
export function normalizeLineBreaks(text: string): string {
  if (text.indexOf('\r') < 0) return text;
  return text.replace(/\r(?!\n)/g, '\n');
}

export function splitLines(text: string): string[] {
  // A file saved with a UTF-8 byte order mark (Windows editors) must not lose its first line to it.
  const lines = normalizeLineBreaks(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.endsWith('\r')) lines[i] = l.slice(0, -1);
  }
  return lines;
}

export function toSourceLines(text: string): SourceLine[] {
  return new LineIndex(text).all();
}

/**
 * The lines of a text as offsets into it, without an object per line: a 25 MB dump has 200k+ lines and the
 * parsers need most of them only as a range to scan. `line(i)` builds the `SourceLine` of one line on demand.
 * Offsets are into `text`, which is the input without a leading byte order mark.
 */
export class LineIndex {
  readonly text: string;
  readonly count: number;
  /** Offset of each line's first character. */
  readonly start: Int32Array;
  /** Offset just past each line's last character (line terminator and CR excluded). */
  readonly rawEnd: Int32Array;
  /** The meaningful part of each line, [contentStart, contentEnd): indentation and trailing blanks excluded. */
  readonly contentStart: Int32Array;
  readonly contentEnd: Int32Array;
  /** How many lines have content, and the first of them (-1: none). */
  readonly contentLines: number;
  readonly firstContentLine: number;
  /**
   * The lines whose content starts with anything but `-`, `:` or `*`, in order, as the text was read (before a
   * reader moved content starts): a dump's lines that are neither rules, declarations nor tables. Readers that
   * look only at those (a session's command lines, a paste's prefixes) need no pass of their own over a big
   * dump's lines: this one finds them on the way.
   */
  readonly otherLines: Int32Array;

  /** `normalized`: the caller's text went through `normalizeLineBreaks` already (a 25 MB text's search for a CR). */
  constructor(input: string, normalized = false) {
    // A file saved with a UTF-8 byte order mark (Windows editors) must not lose its first line to it.
    const body = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    const text = normalized ? body : normalizeLineBreaks(body);
    this.text = text;
    // One pass over the line breaks into columns sized from a sample of the text, grown when that is short: no
    // counting pass over a 25 MB text, and little room to spare (memory freed and allocated again may be cleared
    // whole by the allocator).
    let room = estimatedLines(text);
    let start = new Int32Array(room);
    let rawEnd = new Int32Array(room);
    let contentStart = new Int32Array(room);
    let contentEnd = new Int32Array(room);
    let other = new Int32Array(64);
    let otherCount = 0;
    let contentLines = 0;
    let firstContentLine = -1;
    let line = 0;
    for (let from = 0; ; line++) {
      if (line === room) {
        room = Math.ceil(room * 1.5);
        start = grownColumn(start, room);
        rawEnd = grownColumn(rawEnd, room);
        contentStart = grownColumn(contentStart, room);
        contentEnd = grownColumn(contentEnd, room);
      }
      const nl = text.indexOf('\n', from);
      let end = nl < 0 ? text.length : nl;
      if (end > from && text.charCodeAt(end - 1) === 13) end--;
      // The blank tests written out, not isBlankCode: on a small dump this loop runs interpreted, where two calls a
      // line were 15% of its time.
      let cs = from;
      let c = cs < end ? text.charCodeAt(cs) : -1;
      while (c === 32 || c === 9) c = ++cs < end ? text.charCodeAt(cs) : -1;
      if (cs < end) {
        if (contentLines++ === 0) firstContentLine = line;
        if (c !== 45 && c !== 58 && c !== 42) {
          if (otherCount === other.length) other = grownColumn(other, otherCount * 2);
          other[otherCount++] = line;
        }
      }
      let ce = end;
      for (let last = ce > cs ? text.charCodeAt(ce - 1) : -1; last === 32 || last === 9;)
        last = --ce > cs ? text.charCodeAt(ce - 1) : -1;
      start[line] = from;
      rawEnd[line] = end;
      contentStart[line] = cs;
      contentEnd[line] = ce;
      if (nl < 0) break;
      from = nl + 1;
    }
    this.count = line + 1;
    this.start = start.subarray(0, this.count);
    this.rawEnd = rawEnd.subarray(0, this.count);
    this.contentStart = contentStart.subarray(0, this.count);
    this.contentEnd = contentEnd.subarray(0, this.count);
    this.contentLines = contentLines;
    this.firstContentLine = firstContentLine;
    this.otherLines = other.subarray(0, otherCount);
  }

  raw(line: number): string {
    return this.text.slice(this.start[line], this.rawEnd[line]);
  }

  content(line: number): string {
    return this.text.slice(this.contentStart[line], this.contentEnd[line]);
  }

  line(line: number): SourceLine {
    const start = this.start[line];
    return { line, raw: this.raw(line), offset: this.contentStart[line] - start, content: this.content(line) };
  }

  all(): SourceLine[] {
    const out: SourceLine[] = new Array(this.count);
    for (let i = 0; i < this.count; i++) out[i] = this.line(i);
    return out;
  }
}

/**
 * The number of lines of a text: counted when short, otherwise a quarter over the line breaks in eight 4K windows
 * spread over it (a dump starts with short declarations and goes on with longer rules: one window at its start
 * would count double).
 */
function estimatedLines(text: string): number {
  const WINDOWS = 8;
  const WIDTH = 4096;
  let breaks = 0;
  if (text.length <= WINDOWS * WIDTH) {
    // A short text is counted whole.
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) breaks++;
    return breaks + 1;
  }
  for (let w = 0; w < WINDOWS; w++) {
    const from = Math.floor((w * (text.length - WIDTH)) / (WINDOWS - 1));
    for (let at = text.indexOf('\n', from); at >= 0 && at < from + WIDTH; at = text.indexOf('\n', at + 1)) breaks++;
  }
  return Math.ceil(((breaks * text.length) / (WINDOWS * WIDTH)) * 1.25) + 16;
}
