/**
 * A document being edited, held as chunks of whole lines (about CHUNK_CHARS each) rather than one string: an
 * edit rewrites the chunk or two it touches, where vscode-languageserver-textdocument's TextDocument copies the
 * whole text (and shifts every later line's offset) once per change. Typing in a 1 MB dump, or a replace-all
 * sending thousands of changes in one didChange, cost a full copy per character or per change; here a change
 * costs its chunk and a walk over the chunks' counts, and the flat text is joined once, when something reads it.
 *
 * Positions mean what they mean to TextDocument: lines end at `\r\n`, `\n` or a lone `\r`; a character past a
 * line's end is its end; a line before the first is offset 0, one after the last the text's end.
 */
import type { TextDocument, TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import type { Position, Range } from 'vscode-languageserver';

/** A chunk is cut at the first line end after this many characters, once it grows past twice as many. */
const CHUNK_CHARS = 16 * 1024;

/** How many line ends `s` holds (a `\r\n` is one). */
function countLineEnds(s: string): number {
  let n = 0;
  if (s.indexOf('\r') < 0) {
    for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
    return n;
  }
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 13 && s.charCodeAt(i + 1) === 10) i++;
    if (c === 10 || c === 13) n++;
  }
  return n;
}

/** The offset just after each line end of `s`. */
function lineEndOffsets(s: string, count: number): Int32Array {
  const ends = new Int32Array(count);
  let n = 0;
  for (let i = 0; i < s.length && n < count; i++) {
    const c = s.charCodeAt(i);
    if (c === 13 && s.charCodeAt(i + 1) === 10) i++;
    if (c === 10 || c === 13) ends[n++] = i + 1;
  }
  return ends;
}

/** The first offset after `from` that follows a line end of `s` (never between `\r` and `\n`); -1 if none. */
function lineBoundaryAfter(s: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 10) return i + 1;
    if (c === 13) return s.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
  }
  return -1;
}

/** A place in the text: chunk `chunk`, offset `at` inside it. */
interface Place {
  chunk: number;
  at: number;
}

function isIncremental(change: TextDocumentContentChangeEvent): change is { range: Range; text: string } {
  const c = change as { range?: Range; rangeLength?: unknown; text?: unknown } | null | undefined;
  return (
    c !== undefined &&
    c !== null &&
    typeof c.text === 'string' &&
    c.range !== undefined &&
    (c.rangeLength === undefined || typeof c.rangeLength === 'number')
  );
}

function isFull(change: TextDocumentContentChangeEvent): change is { text: string } {
  const c = change as { range?: Range; rangeLength?: unknown; text?: unknown } | null | undefined;
  return (
    c !== undefined && c !== null && typeof c.text === 'string' && c.range === undefined && c.rangeLength === undefined
  );
}

/** `r` with its start before its end, as TextDocument reads an inverted range. */
function wellFormed(r: Range): Range {
  const { start, end } = r;
  return start.line > end.line || (start.line === end.line && start.character > end.character)
    ? { start: end, end: start }
    : r;
}

export class EditedDocument implements TextDocument {
  /**
   * Every chunk but the last ends with a line end, and a chunk ending in `\r` is never followed by one starting
   * with `\n`: a line, its end included, lies in one chunk. The last chunk holds the last line (maybe empty).
   */
  private chunks: string[] = [];
  /** Line ends in each chunk. */
  private ends: number[] = [];
  /** Offsets after each line end of a chunk, made when a position in it is first asked for. */
  private endOffsets: (Int32Array | undefined)[] = [];
  private lineEndCount = 0;
  private textLength = 0;
  /** The text as one string, joined when first read after an edit. */
  private flat: string | undefined;
  private currentVersion: number;

  constructor(
    readonly uri: string,
    readonly languageId: string,
    version: number,
    text: string,
  ) {
    this.currentVersion = version;
    this.reset(text);
  }

  /** An editable copy of `doc`. */
  static of(doc: TextDocument): EditedDocument {
    return new EditedDocument(doc.uri, doc.languageId, doc.version, doc.getText());
  }

  get version(): number {
    return this.currentVersion;
  }

  get length(): number {
    return this.textLength;
  }

  get lineCount(): number {
    return this.lineEndCount + 1;
  }

  getText(range?: Range): string {
    if (!this.flat) {
      const flat = this.chunks.join('');
      // The chunks become views of the joined text, so the strings they were cut from can go.
      let at = 0;
      this.chunks = this.chunks.map((c) => flat.slice(at, (at += c.length)));
      this.flat = flat;
    }
    return range ? this.flat.substring(this.offsetAt(range.start), this.offsetAt(range.end)) : this.flat;
  }

  offsetAt(position: Position): number {
    const place = this.placeOf(position);
    return this.chunkStart(place.chunk) + place.at;
  }

  positionAt(offset: number): Position {
    offset = Math.max(Math.min(offset, this.textLength), 0);
    let chunk = 0;
    let at = offset;
    let line = 0;
    const last = this.chunks.length - 1;
    while (chunk < last && at >= this.chunks[chunk].length) {
      at -= this.chunks[chunk].length;
      line += this.ends[chunk];
      chunk++;
    }
    const ends = this.endOffsetsOf(chunk);
    // The lines of this chunk starting at or before `at`.
    let low = 0;
    let high = ends.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (ends[mid] > at) high = mid;
      else low = mid + 1;
    }
    const start = low === 0 ? 0 : ends[low - 1];
    return { line: line + low, character: Math.min(at, this.contentEnd(chunk, low)) - start };
  }

  getLineRange(line: number): Range {
    if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const l = Math.min(line, this.lineCount - 1);
    const { chunk, local } = this.chunkOfLine(l);
    const start = this.lineStart(chunk, local);
    return { start: { line: l, character: 0 }, end: { line: l, character: this.contentEnd(chunk, local) - start } };
  }

  /** The UTF-16 code unit at `character` of `line` (both inside the text), read from its chunk: no joined text. */
  codeUnitAt(line: number, character: number): number {
    const { chunk, local } = this.chunkOfLine(line);
    return this.chunks[chunk].charCodeAt(this.lineStart(chunk, local) + character);
  }

  getEOLCharacters(line: number): string {
    if (line < 0 || line >= this.lineCount) return '';
    const { chunk, local } = this.chunkOfLine(line);
    if (local >= this.ends[chunk]) return '';
    return this.chunks[chunk].substring(this.contentEnd(chunk, local), this.endOffsetsOf(chunk)[local]);
  }

  /**
   * Applies `changes` in order, each range read in the text the ones before it left (LSP's
   * TextDocumentContentChangeEvent), as TextDocument.update does.
   */
  update(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    for (const change of changes) {
      if (isIncremental(change)) {
        const range = wellFormed(change.range);
        const start = this.placeOf(range.start);
        const end = this.placeOf(range.end);
        const text = this.chunks[start.chunk].slice(0, start.at) + change.text + this.chunks[end.chunk].slice(end.at);
        this.replaceChunks(start.chunk, end.chunk, text);
      } else if (isFull(change)) {
        this.reset(change.text);
      } else {
        throw new Error('Unknown change event received');
      }
    }
    this.currentVersion = version;
  }

  private reset(text: string): void {
    this.chunks = [text];
    this.ends = [countLineEnds(text)];
    this.endOffsets = [undefined];
    this.lineEndCount = this.ends[0];
    this.textLength = text.length;
    this.flat = text;
    this.splitLong(0);
  }

  /** Chunks `from`..`to` (inclusive) become `text`, then the chunks around it are made whole lines again. */
  private replaceChunks(from: number, to: number, text: string): void {
    for (let i = from; i <= to; i++) {
      this.lineEndCount -= this.ends[i];
      this.textLength -= this.chunks[i].length;
    }
    const removeOnly = text === '' && this.chunks.length > to - from + 1;
    const n = countLineEnds(text);
    if (removeOnly) this.spliceChunks(from, to - from + 1);
    else this.spliceChunks(from, to - from + 1, text, n);
    this.lineEndCount += removeOnly ? 0 : n;
    this.textLength += text.length;
    this.flat = undefined;
    // The chunk before may now end in a `\r` that the next one continues with `\n`; the new chunk may end inside
    // a line. Either joins its next.
    let i = Math.max(0, from - 1);
    for (;;) {
      while (i < this.chunks.length - 1 && !this.endsLine(i)) this.joinNext(i);
      if (i >= from || i >= this.chunks.length - 1) break;
      i++;
    }
    for (let k = Math.min(from, this.chunks.length - 1); k >= Math.max(0, from - 1); k--) this.splitLong(k);
  }

  private spliceChunks(at: number, remove: number, text?: string, lineEnds = 0): void {
    if (text === undefined) {
      this.chunks.splice(at, remove);
      this.ends.splice(at, remove);
      this.endOffsets.splice(at, remove);
    } else {
      this.chunks.splice(at, remove, text);
      this.ends.splice(at, remove, lineEnds);
      this.endOffsets.splice(at, remove, undefined);
    }
  }

  /** True when chunk `i` (not the last) ends with a whole line end. */
  private endsLine(i: number): boolean {
    const s = this.chunks[i];
    const c = s.charCodeAt(s.length - 1);
    return c === 10 || (c === 13 && this.chunks[i + 1].charCodeAt(0) !== 10);
  }

  private joinNext(i: number): void {
    const text = this.chunks[i] + this.chunks[i + 1];
    // Counted again: a `\r` and a `\n` meeting here are one line end.
    const n = countLineEnds(text);
    this.lineEndCount += n - this.ends[i] - this.ends[i + 1];
    this.spliceChunks(i, 2, text, n);
  }

  /** Chunk `i`, when longer than twice CHUNK_CHARS, cut into chunks of whole lines of about CHUNK_CHARS. */
  private splitLong(i: number): void {
    const s = this.chunks[i];
    if (s.length <= 2 * CHUNK_CHARS) return;
    const pieces: string[] = [];
    let at = 0;
    while (s.length - at > 2 * CHUNK_CHARS) {
      const cut = lineBoundaryAfter(s, at + CHUNK_CHARS);
      if (cut < 0 || cut >= s.length) break;
      pieces.push(s.slice(at, cut));
      at = cut;
    }
    if (pieces.length === 0) return;
    pieces.push(s.slice(at));
    this.chunks.splice(i, 1, ...pieces);
    this.ends.splice(i, 1, ...pieces.map(countLineEnds));
    this.endOffsets.splice(i, 1, ...pieces.map(() => undefined));
  }

  private chunkStart(chunk: number): number {
    let at = 0;
    for (let i = 0; i < chunk; i++) at += this.chunks[i].length;
    return at;
  }

  /** The chunk holding `line` (0 <= line < lineCount), and the line's index inside it. */
  private chunkOfLine(line: number): { chunk: number; local: number } {
    const last = this.chunks.length - 1;
    let chunk = 0;
    while (chunk < last && line >= this.ends[chunk]) line -= this.ends[chunk++];
    return { chunk, local: line };
  }

  private endOffsetsOf(chunk: number): Int32Array {
    return (this.endOffsets[chunk] ??= lineEndOffsets(this.chunks[chunk], this.ends[chunk]));
  }

  private lineStart(chunk: number, local: number): number {
    return local === 0 ? 0 : this.endOffsetsOf(chunk)[local - 1];
  }

  /** Where line `local` of `chunk` ends, before its line end. */
  private contentEnd(chunk: number, local: number): number {
    const s = this.chunks[chunk];
    if (local >= this.ends[chunk]) return s.length;
    const next = this.endOffsetsOf(chunk)[local];
    const start = this.lineStart(chunk, local);
    return next - 1 > start && s.charCodeAt(next - 1) === 10 && s.charCodeAt(next - 2) === 13 ? next - 2 : next - 1;
  }

  /** Where `position` falls, as TextDocument.offsetAt reads it. */
  private placeOf(position: Position): Place {
    if (position.line < 0) return { chunk: 0, at: 0 };
    if (position.line >= this.lineCount) {
      const last = this.chunks.length - 1;
      return { chunk: last, at: this.chunks[last].length };
    }
    const { chunk, local } = this.chunkOfLine(position.line);
    const start = this.lineStart(chunk, local);
    if (position.character <= 0) return { chunk, at: start };
    return { chunk, at: Math.min(start + position.character, this.contentEnd(chunk, local)) };
  }
}
